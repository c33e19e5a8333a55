package dev.weft.cli;

import dev.weft.analysis.RunWindow;
import dev.weft.trace.Definitions;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code weft attach PID}: records a running JVM for a while, then leaves it as it was.
 *
 * <p>Loads the agent into the target ({@code agentmain}, the same start path as {@code -javaagent})
 * with {@code duration=}, so that the agent stops by itself when the time is up, even if weft is
 * killed: it closes the trace and restores the original bytecode of every class it changed. Weft
 * waits meanwhile, then asks the agent to detach (which returns once the trace is closed, whoever
 * stopped the recording), and reports. A JVM that is already recorded is refused.
 */
@Command(
    name = "attach",
    mixinStandardHelpOptions = true,
    description = {
      "Record a running JVM for a while, then detach and restore its original bytecode.",
      "Loads the Weft agent into process PID; recording starts within a second. After"
          + " --duration (or 'weft detach PID', or Ctrl-C here) the agent closes the trace and"
          + " removes its instrumentation, so the program runs on at full speed. If the program"
          + " exits first, the trace is complete up to its exit. A JVM that is already being"
          + " recorded is refused. JDK 21+ prints a warning about the dynamically loaded agent"
          + " unless the target was started with -XX:+EnableDynamicAgentLoading.",
      "  weft attach 12345 --duration 10s",
      "  weft attach 12345 --duration 0 ... weft detach 12345"
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:recorded (also when the program exited during the recording)",
      "2:bad usage, or PID is not a JVM weft can attach to (one line says why)"
    })
final class AttachCommand implements Callable<Integer> {
  /** Polling interval while waiting: for the program's exit and a detach from elsewhere. */
  private static final long POLL_MILLIS = 100;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "PID",
      description =
          "The process id of a running JVM (without it: the list of JVMs to choose from).")
  Long pid;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Trace directory (must not exist or be empty; default:"
              + " weft-traces/<main-class-or-jar>-<pid>-<yyyyMMdd-HHmmss>).")
  Path out;

  @Option(
      names = "--duration",
      paramLabel = "TIME",
      converter = DurationConverter.class,
      defaultValue = "30s",
      description =
          "How long to record: 500ms, 30s, 5m, 1h (default: ${DEFAULT-VALUE}). 0 records until"
              + " 'weft detach PID' or the program's exit, and returns at once.")
  long durationMillis;

  @Option(
      names = "--opt",
      paramLabel = "KEY=VALUE",
      completionCandidates = CompletionValues.AgentOptionKeys.class,
      description = "An agent option (agent/OPTIONS.md), e.g. constructs=-locks; repeatable.")
  List<String> options = new ArrayList<>();

  @Option(
      names = "--skip-running",
      description =
          "Leave the application classes with a method running at the attach as they are (agent"
              + " option attach.skip_running=true): a loop that never returns keeps its compiled"
              + " code, and its JDK waits are still recorded; their other call sites are not."
              + " The trace and the analysis header name them.")
  boolean skipRunning;

  @Option(
      names = "--agent",
      paramLabel = "JAR",
      description =
          "The agent jar (default: $WEFT_HOME/agent/target/weft-agent.jar, or weft-agent.jar next"
              + " to weft.jar).")
  Path agent;

  @Option(
      names = "--timings",
      hidden = true,
      description =
          "Also print when each step of the attach happened, in ms since the epoch (CLI.md).")
  boolean timings;

  @Mixin ColorOption color;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    long called = WeftCommand.epochMicros();
    long started = System.nanoTime();
    WeftCommand root = WeftCommand.root(spec);
    PrintWriter err = spec.commandLine().getErr();
    requireAttachApi();
    if (pid == null) {
      // As jcmd does: show what could be recorded, and let the user choose.
      List<AttachableJvms.Jvm> jvms = AttachableJvms.list();
      err.println("weft: attach needs the PID of a JVM; the JVMs of this user:");
      AttachableJvms.print(jvms, err, color.style());
      err.flush();
      throw new BadInputException(
          jvms.isEmpty() ? "no JVM to attach to" : "choose one: weft attach PID [--duration TIME]");
    }
    Path agentJar = WeftHome.agentJar(root, agent);
    for (String o : options) {
      if (o.strip().startsWith("duration=")) {
        throw new BadInputException("--opt " + o + ": use --duration TIME");
      }
    }
    Path dir;
    TargetJvm.AgentReply answer;
    long attached;
    try (TargetJvm target = TargetJvm.attach(pid)) {
      attached = WeftCommand.epochMicros();
      checkVersion(target);
      dir = (out != null ? out : defaultOut(target)).toAbsolutePath().normalize();
      checkOut(dir);
      String arguments = RunCommand.agentOptions(dir, options);
      if (durationMillis > 0) {
        arguments += ",duration=" + durationMillis + "ms";
      }
      if (skipRunning) {
        arguments += ",attach.skip_running=true";
      }
      if (target.featureVersion() >= 21
          && !target.jvmArgs().contains(TargetJvm.ENABLE_DYNAMIC_AGENTS)) {
        err.println(
            "weft: note: JDK "
                + target.featureVersion()
                + " prints a warning about a dynamically loaded agent on the program's stderr;"
                + " start it with "
                + TargetJvm.ENABLE_DYNAMIC_AGENTS
                + " to silence it");
      }
      try {
        answer = target.loadAgent(agentJar, arguments);
      } catch (BadInputException e) {
        if (!(e.getCause() instanceof IOException) || !endedDuringTheStart(dir)) {
          throw e;
        }
        return exitedAsItStarted(err, dir);
      }
    }
    long replied = WeftCommand.epochMicros();
    long startedIn = System.nanoTime() - started;
    String reply = answer.answer();
    if (reply.startsWith("busy")) {
      String where = reply.length() > 5 ? " (into " + reply.substring(5) + ")" : "";
      throw new BadInputException(
          "process "
              + pid
              + " is already being recorded by Weft"
              + where
              + "; 'weft detach "
              + pid
              + "' stops that recording");
    }
    if (reply.startsWith("exited")) {
      return exitedAsItStarted(err, dir);
    }
    if (reply.startsWith("off ")) {
      throw new BadInputException(
          "the agent did not start in process " + pid + ": " + reply.substring(4));
    }
    if (!reply.startsWith("recording")) {
      throw new BadInputException(
          "unexpected answer from the agent in process " + pid + ": " + reply);
    }
    if (timings) {
      printTimings(err, called, attached, answer, replied);
    }
    if (durationMillis == 0) {
      err.println(
          "weft: recording process "
              + pid
              + " into "
              + dir
              + " (started in "
              + Durations.format(startedIn)
              + ") until 'weft detach "
              + pid
              + "' or its exit");
      err.flush();
      return ExitCodes.OK;
    }
    err.println(
        "weft: recording process "
            + pid
            + " into "
            + dir
            + " for "
            + Durations.format(durationMillis * 1_000_000L)
            + " (started in "
            + Durations.format(startedIn)
            + "; Ctrl-C or 'weft detach "
            + pid
            + "' stops it earlier)");
    err.flush();
    return waitAndDetach(agentJar, dir, err);
  }

  /**
   * Whether the program ended while the agent was starting, leaving a trace in {@code dir}: the
   * agent's exit hook closes it (the connection is lost as the JVM goes; its exit is awaited).
   */
  private boolean endedDuringTheStart(Path dir) {
    return TargetJvm.exitsWithin(pid, EXIT_WAIT_SECONDS)
        && Files.isRegularFile(dir.resolve("defs.wdf"));
  }

  /** The program ended while the agent was starting: its exit closed the trace. */
  private int exitedAsItStarted(PrintWriter err, Path dir) {
    err.println(
        "weft: process "
            + pid
            + " exited while the agent was starting; the trace holds what was recorded until"
            + " then: "
            + withNextStep(dir));
    err.flush();
    return ExitCodes.OK;
  }

  /** The trace directory (a path or its text) and what to do with it, ending a last line. */
  static String withNextStep(Object dir) {
    return dir + "  (next: weft analyze " + dir + ")";
  }

  /** How long a program whose connection was lost during the attach is given to exit. */
  private static final long EXIT_WAIT_SECONDS = 10;

  /** Waits for the duration, the program's exit or a detach from elsewhere, then reports. */
  private int waitAndDetach(Path agentJar, Path dir, PrintWriter err) throws InterruptedException {
    long begin = System.nanoTime();
    long deadline = begin + durationMillis * 1_000_000L;
    ProcessHandle process = ProcessHandle.of(pid).orElse(null);
    // Ctrl-C: stop the recording now rather than when the agent's own timer runs out.
    Thread interrupted = new Thread(() -> detachQuietly(agentJar), "weft-attach-shutdown");
    Runtime.getRuntime().addShutdownHook(interrupted);
    long lastCheck = begin;
    try {
      while (System.nanoTime() - deadline < 0) {
        if (process == null || !process.isAlive()) {
          err.println(
              "weft: process "
                  + pid
                  + " exited after "
                  + Durations.format(System.nanoTime() - begin)
                  + "; the trace is complete up to its exit: "
                  + withNextStep(dir));
          err.flush();
          return ExitCodes.OK;
        }
        if (System.nanoTime() - lastCheck > TimeUnit.SECONDS.toNanos(1)) {
          lastCheck = System.nanoTime();
          if (detachedElsewhere(dir)) {
            err.println(
                "weft: the recording was stopped after "
                    + Durations.format(System.nanoTime() - begin)
                    + "; trace in "
                    + withNextStep(dir));
            err.flush();
            return ExitCodes.OK;
          }
        }
        Thread.sleep(POLL_MILLIS);
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(interrupted);
      } catch (IllegalStateException e) {
        // Shutting down: the hook detaches.
      }
    }
    // The agent detaches itself at the deadline; asking again waits until the trace is closed.
    String reply;
    try (TargetJvm target = TargetJvm.attach(pid)) {
      reply = target.loadAgent(agentJar, "detach").answer();
    } catch (BadInputException e) {
      if (process.isAlive()) {
        throw e;
      }
      reply = "exited";
    }
    long recorded = reply.equals("exited") ? -1 : analysedNs(dir);
    err.println(
        "weft: "
            + (reply.equals("exited")
                ? "process " + pid + " exited; "
                : "detached from process " + pid + ", original bytecode restored; ")
            + "recorded "
            + Durations.format(recorded >= 0 ? recorded : System.nanoTime() - begin)
            + "; trace in "
            + withNextStep(dir));
    err.flush();
    return ExitCodes.OK;
  }

  /**
   * How long the closed trace in {@code dir} is analysed for: from when the agent had woven the
   * loaded classes to when events stopped, not the time until the detach returned, which includes
   * the restore; -1 when the trace cannot tell.
   */
  private static long analysedNs(Path dir) {
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      long from = RunWindow.earliestStart(d);
      if (!d.closedCleanly() || from == Long.MIN_VALUE || d.endTime() < from) {
        return -1;
      }
      return d.endTime() - from;
    } catch (RuntimeException e) {
      return -1; // the message then gives the time measured here
    }
  }

  /**
   * {@code --timings}: when weft's {@code main} was entered, this command called, the JVM attached
   * (VirtualMachine.attach and its properties read), the agent's {@code agentmain} entered, the
   * agent recording (its classes woven) and its answer read here; a step that is unknown is left
   * out. All in milliseconds since the epoch, so that they compare with the trace's clock.
   */
  private static void printTimings(
      PrintWriter err, long called, long attached, TargetJvm.AgentReply answer, long replied) {
    StringBuilder b = new StringBuilder("weft: timings (ms since the epoch):");
    appendMillis(b, "main", WeftCommand.mainEpochMicros());
    appendMillis(b, "attach", called);
    appendMillis(b, "attached", attached);
    appendMillis(b, "agentmain", answer.agentmainMicros());
    appendMillis(b, "recording", answer.doneMicros());
    appendMillis(b, "replied", replied);
    err.println(b);
  }

  private static void appendMillis(StringBuilder b, String step, long epochMicros) {
    if (epochMicros > 0) {
      b.append(' ').append(step).append('=').append(epochMicros / 1000).append('.');
      String frac = Long.toString(epochMicros % 1000);
      b.append("000", 0, 3 - frac.length()).append(frac);
    }
  }

  /**
   * Checks that the JDK's attach API is there: a runtime image without module {@code jdk.attach} (a
   * JRE, a jlink image) cannot attach. Called before {@link TargetJvm} is loaded.
   */
  static void requireAttachApi() {
    if (ModuleLayer.boot().findModule("jdk.attach").isEmpty()) {
      throw new BadInputException(
          "attaching needs a JDK (module jdk.attach), and weft runs on "
              + System.getProperty("java.home")
              + ": run weft with a JDK's java (JAVA or JAVA_HOME)");
    }
  }

  /** Asks the agent to detach; for the shutdown hook, where nothing can be reported any more. */
  private void detachQuietly(Path agentJar) {
    try (TargetJvm target = TargetJvm.attach(pid)) {
      target.loadAgent(agentJar, "detach");
    } catch (RuntimeException e) {
      // The agent's own timer still ends the recording.
    }
  }

  /**
   * Whether the trace was closed by a detach from elsewhere ({@code weft detach}). A trace the
   * agent closed because the JVM is exiting is not: the loop then sees the exit.
   */
  private static boolean detachedElsewhere(Path dir) {
    try (Trace t = Trace.open(dir)) {
      return t.definitions().closedCleanly()
          && "true".equals(t.definitions().attributes().get("agent.detached"));
    } catch (RuntimeException e) {
      return false;
    }
  }

  private void checkVersion(TargetJvm target) {
    int v = target.featureVersion();
    if (v > 0 && v < 17) {
      throw new BadInputException(
          "process "
              + pid
              + " runs Java "
              + target.javaVersion()
              + "; the Weft agent needs Java 17 or newer");
    }
    if (target.jvmArgs().contains("-XX:-EnableDynamicAgentLoading")) {
      throw new BadInputException(
          "process "
              + pid
              + " was started with -XX:-EnableDynamicAgentLoading: it accepts no agent at run"
              + " time; restart it with "
              + TargetJvm.ENABLE_DYNAMIC_AGENTS
              + " or start it with 'weft run'");
    }
  }

  /** The agent refuses a directory that is not empty; say so here, where it can be read. */
  private static void checkOut(Path dir) {
    try {
      if (Files.isDirectory(dir)) {
        try (var entries = Files.list(dir)) {
          if (entries.findAny().isPresent()) {
            throw new BadInputException("--out " + dir + ": exists and is not empty");
          }
        }
      } else if (Files.exists(dir)) {
        throw new BadInputException("--out " + dir + ": exists and is not a directory");
      }
    } catch (java.io.IOException e) {
      throw new BadInputException("--out " + ErrorReporting.describe(e), e);
    }
  }

  /** {@code weft-traces/<program>-<pid>-<yyyyMMdd-HHmmss>}, made unique if it exists. */
  private Path defaultOut(TargetJvm target) {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path base = Path.of("weft-traces", target.programName() + "-" + pid + "-" + stamp);
    Path candidate = base;
    for (int i = 2; Files.exists(candidate); i++) {
      candidate = Path.of(base + "-" + i);
    }
    return candidate;
  }

  /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 0}: milliseconds. */
  static final class DurationConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      String v = value.strip().toLowerCase(Locale.ROOT);
      long unit;
      if (v.endsWith("ms")) {
        unit = 1;
        v = v.substring(0, v.length() - 2);
      } else if (v.endsWith("s") || v.endsWith("m") || v.endsWith("h")) {
        unit = v.endsWith("s") ? 1_000 : v.endsWith("m") ? 60_000 : 3_600_000;
        v = v.substring(0, v.length() - 1);
      } else {
        unit = v.equals("0") ? 1 : -1;
      }
      try {
        double n = Double.parseDouble(v);
        if (unit > 0 && n >= 0 && n * unit < Long.MAX_VALUE / 1_000_000L) {
          return Math.round(n * unit);
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new TypeConversionException(
          "'" + value + "' is not a duration (e.g. 500ms, 30s, 1.5m, 1h; 0 for no limit)");
    }
  }
}
