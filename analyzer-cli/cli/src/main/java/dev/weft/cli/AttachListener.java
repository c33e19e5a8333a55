package dev.weft.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Starts a HotSpot JVM's attach listener before {@code VirtualMachine.attach} looks for it.
 *
 * <p>The first attach to a JVM starts its listener: the JDK creates {@code .attach_pid<pid>} in the
 * target's working directory (else its {@code /tmp}), sends {@code SIGQUIT}, and then looks for the
 * listener's socket {@code /tmp/.java_pid<pid>} after 100 ms, 300 ms, 600 ms... On a busy host the
 * listener is seldom up at the first look, so a first attach waited 300 ms for a start that takes a
 * few. This does the same handshake (Linux) and looks every 5 ms; {@code VirtualMachine.attach}
 * then finds the socket and connects at once. Whenever something is unusual it does nothing, and
 * {@code VirtualMachine.attach} does it all as before.
 *
 * <p><b>Important:</b> {@code SIGQUIT} is only sent when it is known to be safe. A JVM started with
 * {@code -Xrs} does not catch it (it would terminate), and a JVM whose attach mechanism is disabled
 * answers it with a thread dump on its stdout: so the process must catch {@code SIGQUIT}, and no
 * option weft cannot read ({@code @argfiles}, {@code -XX:Flags=}, {@code -XX:VMOptionsFile=}) or
 * option naming {@code DisableAttachMechanism} (on the command line or in {@code
 * JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS}, {@code _JAVA_OPTIONS}) may be there.
 */
final class AttachListener {
  /** How long to wait for the listener before leaving the rest to {@code VirtualMachine.attach}. */
  private static final long WAIT_MILLIS = 2_000;

  private static final long POLL_MILLIS = 5;

  /** {@code SIGQUIT} is signal 3: bit 2 of the caught-signals mask. */
  private static final long SIGQUIT_MASK = 1L << 2;

  private AttachListener() {}

  /** Starts the attach listener of JVM {@code pid} if it is not running; never throws. */
  static void start(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    try {
      String status = Files.readString(proc.resolve("status"), StandardCharsets.UTF_8);
      long nsPid = namespacePid(status, pid);
      Path tmp = proc.resolve("root/tmp");
      Path socket = tmp.resolve(".java_pid" + nsPid);
      if (Files.exists(socket)
          || !safeToSignal(
              status,
              read(proc.resolve("cmdline")).replace('\0', '\n'),
              read(proc.resolve("environ")).replace('\0', '\n'))) {
        return;
      }
      Path trigger = createTrigger(proc.resolve("cwd"), tmp, ".attach_pid" + nsPid);
      if (trigger == null) {
        return;
      }
      try {
        if (!sendQuit(pid)) {
          return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (!Files.exists(socket) && System.nanoTime() - deadline < 0) {
          Thread.sleep(POLL_MILLIS);
        }
      } finally {
        Files.deleteIfExists(trigger);
      }
    } catch (IOException | RuntimeException e) {
      // VirtualMachine.attach starts the listener itself.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Whether {@code SIGQUIT} may be sent: the process catches it and nothing can have disabled its
   * attach mechanism unseen.
   *
   * @param status {@code /proc/PID/status}
   * @param arguments the command line, one argument per line
   * @param environment the environment, one {@code NAME=VALUE} per line
   */
  static boolean safeToSignal(String status, String arguments, String environment) {
    String caught = field(status, "SigCgt:");
    try {
      if (caught == null || (Long.parseUnsignedLong(caught, 16) & SIGQUIT_MASK) == 0) {
        return false;
      }
    } catch (NumberFormatException e) {
      return false;
    }
    for (String arg : arguments.split("\n")) {
      if (arg.startsWith("@")
          || arg.startsWith("-XX:Flags=")
          || arg.startsWith("-XX:VMOptionsFile=")
          || arg.contains("DisableAttachMechanism")) {
        return false;
      }
    }
    for (String variable : environment.split("\n")) {
      if ((variable.startsWith("JAVA_TOOL_OPTIONS=")
              || variable.startsWith("JDK_JAVA_OPTIONS=")
              || variable.startsWith("_JAVA_OPTIONS="))
          && (variable.contains("DisableAttachMechanism") || variable.contains("@"))) {
        return false;
      }
    }
    return true;
  }

  /** The process id inside the target's innermost pid namespace (the last of {@code NSpid:}). */
  static long namespacePid(String status, long pid) {
    String ids = field(status, "NSpid:");
    if (ids == null || ids.isEmpty()) {
      return pid;
    }
    String[] each = ids.split("\\s+");
    return Long.parseLong(each[each.length - 1]);
  }

  private static String field(String status, String name) {
    for (String line : status.split("\n")) {
      if (line.startsWith(name)) {
        return line.substring(name.length()).trim();
      }
    }
    return null;
  }

  private static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }

  /** The trigger file in the working directory, else in /tmp (as the JDK does); null if neither. */
  private static Path createTrigger(Path cwd, Path tmp, String name) {
    for (Path dir : new Path[] {cwd, tmp}) {
      try {
        return Files.createFile(dir.resolve(name));
      } catch (IOException | RuntimeException e) {
        // next place
      }
    }
    return null;
  }

  private static boolean sendQuit(long pid) throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", "-QUIT", Long.toString(pid))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    return kill.waitFor(5, TimeUnit.SECONDS) && kill.exitValue() == 0;
  }
}
