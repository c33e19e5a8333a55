package dev.weft.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A running JVM that {@code weft attach} and {@code weft detach} talk to, through the JDK's attach
 * API (module {@code jdk.attach}). Every reason it cannot be reached becomes one line for the user.
 *
 * <p>The process is checked before attaching: the attach API announces itself to the target with
 * {@code SIGQUIT}, which terminates a process that is not a JVM, so weft only attaches to a process
 * that has {@code libjvm} mapped or is listed as a JVM.
 *
 * <p>The agent is controlled with argument strings of {@code WeftAgent.agentmain} (OPTIONS.md,
 * "Controlling an attached agent"): each answers with one line written to a reply file.
 */
final class TargetJvm implements AutoCloseable {
  /** The JVM flag that makes JDK 21+ load agents at run time without a warning (JEP 451). */
  static final String ENABLE_DYNAMIC_AGENTS = "-XX:+EnableDynamicAgentLoading";

  private final long pid;
  private final VirtualMachine vm;
  private final Properties properties;
  private final String jvmArgs;

  private TargetJvm(long pid, VirtualMachine vm, Properties properties, String jvmArgs) {
    this.pid = pid;
    this.vm = vm;
    this.properties = properties;
    this.jvmArgs = jvmArgs;
  }

  /** Whether process {@code pid} is gone, or goes within {@code seconds}. */
  static boolean exitsWithin(long pid, long seconds) {
    ProcessHandle p = ProcessHandle.of(pid).orElse(null);
    if (p == null) {
      return true;
    }
    try {
      p.onExit().get(seconds, TimeUnit.SECONDS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }

  /**
   * Checks that {@code pid} is a JVM of this user that accepts attaching, and attaches to it.
   *
   * @throws BadInputException with one line saying why not
   */
  static TargetJvm attach(long pid) {
    ProcessHandle process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive).orElse(null);
    if (process == null) {
      throw new BadInputException("no process with pid " + pid);
    }
    if (pid == ProcessHandle.current().pid()) {
      throw new BadInputException("pid " + pid + " is weft itself");
    }
    String me = System.getProperty("user.name", "");
    Optional<String> owner = process.info().user();
    if (owner.isPresent() && !owner.get().equals(me)) {
      throw new BadInputException(
          "process "
              + pid
              + " belongs to user "
              + owner.get()
              + " and weft runs as "
              + me
              + ": a JVM accepts attaching only from its own user (sudo -u "
              + owner.get()
              + " weft ...)");
    }
    if (!isJvm(pid)) {
      throw new BadInputException(
          "process " + pid + name(process) + " is not a Java virtual machine");
    }
    if (commandLine(process).contains("-XX:+DisableAttachMechanism")) {
      throw attachDisabled(pid);
    }
    AttachListener.start(pid);
    VirtualMachine vm;
    try {
      vm = VirtualMachine.attach(Long.toString(pid));
    } catch (AttachNotSupportedException e) {
      String why = String.valueOf(e.getMessage());
      if (why.contains("does not support the attach mechanism")) {
        throw attachDisabled(pid);
      }
      throw new BadInputException(
          "cannot attach to process " + pid + ": " + ErrorReporting.oneLine(why), e);
    } catch (IOException e) {
      throw new BadInputException(
          "cannot attach to process " + pid + ": " + ErrorReporting.describe(e), e);
    }
    try {
      Properties properties = vm.getSystemProperties();
      String args = vm.getAgentProperties().getProperty("sun.jvm.args", "");
      return new TargetJvm(pid, vm, properties, args);
    } catch (IOException | RuntimeException e) {
      detachQuietly(vm);
      if (exitsWithin(pid, 2)) { // the connection was lost because the process ended
        throw new BadInputException("process " + pid + " exited before the agent was loaded", e);
      }
      throw new BadInputException(
          "cannot talk to process " + pid + ": " + ErrorReporting.oneLine(e.getMessage()), e);
    }
  }

  private static BadInputException attachDisabled(long pid) {
    return new BadInputException(
        "process "
            + pid
            + " was started with -XX:+DisableAttachMechanism: it accepts no attaching; restart it"
            + " without that option, or start it with 'weft run'");
  }

  /**
   * Whether the process is a JVM: it has the JVM's library mapped (Linux; cheap), or else the JDK
   * lists it (reading every JVM's performance data file, ≈ 0.3 s).
   */
  private static boolean isJvm(long pid) {
    Path maps = Path.of("/proc", Long.toString(pid), "maps");
    if (Files.isReadable(maps)) {
      try (Stream<String> lines = Files.lines(maps)) {
        return lines.anyMatch(l -> l.endsWith("/libjvm.so"));
      } catch (IOException | RuntimeException e) {
        // fall back on the list
      }
    }
    String id = Long.toString(pid);
    for (VirtualMachineDescriptor d : VirtualMachine.list()) {
      if (d.id().equals(id)) {
        return true;
      }
    }
    return false;
  }

  /** The process's command line with its arguments, or "" when it cannot be read. */
  private static String commandLine(ProcessHandle process) {
    Path cmdline = Path.of("/proc", Long.toString(process.pid()), "cmdline");
    try {
      return new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).replace('\0', ' ');
    } catch (IOException | RuntimeException e) {
      return process.info().commandLine().orElse("");
    }
  }

  /** " (command)", or "" when the command is unknown. */
  private static String name(ProcessHandle process) {
    return process.info().command().map(c -> " (" + Path.of(c).getFileName() + ")").orElse("");
  }

  long pid() {
    return pid;
  }

  /** The target's Java feature version (17, 21, ...); 8 for 1.8; 0 when unknown. */
  int featureVersion() {
    String v = properties.getProperty("java.specification.version", "0");
    try {
      return v.startsWith("1.") ? Integer.parseInt(v.substring(2)) : Integer.parseInt(v);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  String javaVersion() {
    return properties.getProperty("java.version", "?");
  }

  /** The JVM options the target was started with (including JAVA_TOOL_OPTIONS). */
  String jvmArgs() {
    return jvmArgs;
  }

  /** The main class's simple name or the jar's name without {@code .jar}; "java" if unknown. */
  String programName() {
    String command = properties.getProperty("sun.java.command", "").strip();
    String first = command.isEmpty() ? "" : command.split("\\s+")[0];
    if (first.endsWith(".jar")) {
      String file = Path.of(first).getFileName().toString();
      first = file.substring(0, file.length() - 4);
    } else {
      first = first.substring(first.lastIndexOf('.') + 1);
    }
    String s = first.replaceAll("[^A-Za-z0-9_.-]", "_");
    return s.isEmpty() ? "java" : s;
  }

  /**
   * The agent's answer to one load: the answer line, and when the agent ran (its {@code timings}
   * line, OPTIONS.md), or zeros from an agent that does not say.
   *
   * @param answer {@code recording DIR}, {@code busy [DIR]}, {@code off MESSAGE}, {@code detached
   *     DIR} or {@code idle}
   * @param agentmainMicros when {@code agentmain} was entered, microseconds since the epoch
   * @param doneMicros when it had done what was asked (for a start: recording, its classes woven)
   */
  record AgentReply(String answer, long agentmainMicros, long doneMicros) {
    static AgentReply parse(String text) {
      String[] lines = text.strip().split("\\R");
      long agentmain = 0;
      long done = 0;
      for (int i = 1; i < lines.length; i++) {
        if (lines[i].startsWith("timings ")) {
          for (String item : lines[i].substring(8).trim().split("\\s+")) {
            int eq = item.indexOf('=');
            try {
              if (item.startsWith("agentmain=")) {
                agentmain = Long.parseLong(item.substring(eq + 1));
              } else if (item.startsWith("done=")) {
                done = Long.parseLong(item.substring(eq + 1));
              }
            } catch (NumberFormatException e) {
              // An unreadable time is left out.
            }
          }
        }
      }
      return new AgentReply(lines[0].strip(), agentmain, done);
    }
  }

  /**
   * Loads the agent with {@code arguments} (after {@code reply=FILE,}) and returns its answer.
   *
   * @throws BadInputException when the JVM refuses the agent or gives no answer
   */
  AgentReply loadAgent(Path agentJar, String arguments) {
    Path dir;
    try {
      dir = Files.createTempDirectory("weft-attach");
    } catch (IOException e) {
      throw new BadInputException("cannot create a temporary file: " + ErrorReporting.describe(e));
    }
    try {
      Path reply = dir.resolve("reply");
      if (reply.toString().indexOf(',') >= 0) {
        throw new BadInputException(
            "the temporary directory " + dir + " has a ',' in its name; set java.io.tmpdir");
      }
      try {
        vm.loadAgent(agentJar.toString(), "reply=" + reply + "," + arguments);
      } catch (AgentLoadException | AgentInitializationException e) {
        throw new BadInputException(
            "process "
                + pid
                + " refused the agent: "
                + ErrorReporting.oneLine(e.getMessage())
                + refusalHint(),
            e);
      } catch (IOException e) {
        throw new BadInputException(
            "lost the connection to process " + pid + ": " + ErrorReporting.describe(e), e);
      }
      try {
        return AgentReply.parse(Files.readString(reply, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new BadInputException(
            "the agent in process "
                + pid
                + " gave no answer (is "
                + agentJar
                + " a Weft agent of this version? the target's stderr may say more)",
            e);
      }
    } finally {
      deleteQuietly(dir);
    }
  }

  private String refusalHint() {
    if (jvmArgs.contains("-XX:-EnableDynamicAgentLoading")) {
      return " (it was started with -XX:-EnableDynamicAgentLoading; restart it with "
          + ENABLE_DYNAMIC_AGENTS
          + ")";
    }
    if (featureVersion() > 0 && featureVersion() < 17) {
      return " (it runs Java " + javaVersion() + "; the Weft agent needs Java 17 or newer)";
    }
    return "";
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // A leftover temporary file is not worth a message.
    }
  }

  private static void detachQuietly(VirtualMachine vm) {
    try {
      vm.detach();
    } catch (IOException | RuntimeException e) {
      // The target went away; nothing is left to close.
    }
  }

  /** Closes the attach connection (the agent, if loaded, stays). */
  @Override
  public void close() {
    detachQuietly(vm);
  }
}
