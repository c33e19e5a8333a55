package dev.weft.testapps.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.analysis.PoolNames;
import dev.weft.api.Weft;
import dev.weft.cli.WeftCommand;
import dev.weft.testapps.Main;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.WaitKind;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * One scenario run in a child JVM under the agent ({@link WarmedScenarioMain}), with what the
 * harness needs from it: the scenario's stdout and truth, {@code weft verify}'s verdict, the
 * analysis, and facts from the trace's definitions and events (pool names, event counts).
 */
final class TracedRun {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIMEOUT_SECONDS = 120;

  /**
   * JVM options of the traced child. Serial GC and the client compiler only: fewer JVM threads
   * compete with the scenario's for the host's cores, so fewer of its timings are stretched.
   */
  private static final List<String> CHILD_JVM_OPTIONS =
      List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m");

  final Path traceDir;
  final int exitCode;
  final String stdout;
  final String stderr;
  final JsonNode truthLine;
  final int verifyExitCode;
  final String verifyOutput;
  final AnalysisResult analysis;

  /** Thread name → the pool it works for (its definition's pool name), for pool workers only. */
  final Map<String, String> poolOfThread = new HashMap<>();

  /** Pool name (as the analysis reports it) → the scenario's pool name (its threads' prefix). */
  final Map<String, String> scenarioPoolName = new HashMap<>();

  /** Thread name → event kind → how many such events the thread recorded. */
  final Map<String, Map<EventKind, Integer>> eventCounts = new TreeMap<>();

  /** Per thread, the time its {@code Thread.start()} calls took (waits of kind thread_start). */
  private final Map<String, Long> threadStartNs = new HashMap<>();

  /** Scenario pool name → TASK_CREATE events naming the pool. */
  final Map<String, Integer> tasksCreatedByPool = new HashMap<>();

  /**
   * Scenario pool name → how many times the pool's work went from none in flight to some (tasks
   * created and not ended, regions forked and not joined): its rounds of work.
   */
  final Map<String, Integer> roundsByPool = new HashMap<>();

  private TracedRun(Path traceDir, int exitCode, String stdout, String stderr) {
    this.traceDir = traceDir;
    this.exitCode = exitCode;
    this.stdout = stdout;
    this.stderr = stderr;
    this.truthLine = exitCode == 0 ? parseTruthLine(stdout) : null;
    if (exitCode != 0 || truthLine == null) {
      this.verifyExitCode = -1;
      this.verifyOutput = "";
      this.analysis = null;
      return;
    }
    StringWriter verifyText = new StringWriter();
    CommandLine verify = WeftCommand.newCommandLine(new WeftCommand());
    verify.setOut(new PrintWriter(verifyText, true));
    verify.setErr(new PrintWriter(verifyText, true));
    this.verifyExitCode = verify.execute("verify", traceDir.toString());
    this.verifyOutput = verifyText.toString();
    this.analysis = Analyzer.analyze(traceDir);
    readTrace();
  }

  /**
   * Runs {@code scenario args} on the JDK at {@code javaHome} under the agent jar, recording into a
   * new directory under {@code workDir}.
   */
  static TracedRun run(
      Path javaHome,
      Path agentJar,
      Path workDir,
      boolean warmRecorder,
      String scenario,
      List<String> args)
      throws IOException, InterruptedException {
    Path traceDir = Files.createTempDirectory(workDir, scenario + "-").resolve("trace");
    List<String> command = new ArrayList<>();
    command.add(javaHome.resolve("bin").resolve("java").toString());
    command.addAll(CHILD_JVM_OPTIONS);
    command.add("-javaagent:" + agentJar + "=out=" + traceDir);
    command.add("-cp");
    command.add(
        String.join(
            File.pathSeparator,
            codeSource(WarmedScenarioMain.class),
            codeSource(Main.class),
            codeSource(Weft.class)));
    command.add(WarmedScenarioMain.class.getName());
    if (warmRecorder) {
      command.add(WarmedScenarioMain.WARM_RECORDER);
    }
    command.add(scenario);
    command.addAll(args);
    Path out = traceDir.resolveSibling("stdout.txt");
    Path err = traceDir.resolveSibling("stderr.txt");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new IllegalStateException(
          scenario + " " + args + " did not end within " + TIMEOUT_SECONDS + " s: " + command);
    }
    return new TracedRun(
        traceDir, process.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** Stdout without its last line (the truth line). */
  List<String> stdoutWithoutTruth() {
    List<String> lines = new ArrayList<>(stdout.lines().toList());
    if (truthLine != null) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  /** The truth object of the truth line. */
  JsonNode truth() {
    return truthLine.get("truth");
  }

  /** How many events of {@code kind} thread {@code thread} recorded. */
  int count(String thread, EventKind kind) {
    return eventCounts.getOrDefault(thread, Map.of()).getOrDefault(kind, 0);
  }

  /** The time {@code thread} spent in {@code Thread.start()} calls (thread_management's start). */
  long threadStartNs(String thread) {
    return threadStartNs.getOrDefault(thread, 0L);
  }

  /** Whether {@code thread}'s definition names a pool (it is a pool worker). */
  boolean isPoolWorker(String thread) {
    return poolOfThread.containsKey(thread);
  }

  private void readTrace() {
    try (Trace trace = Trace.open(traceDir)) {
      Definitions defs = trace.definitions();
      // The pools as the analysis names them (PoolNames).
      Map<Integer, String> poolNames = new HashMap<>(PoolNames.of(defs));
      Map<Integer, String> threadNames = new HashMap<>();
      for (ThreadDef t : defs.threads()) {
        threadNames.put(t.stream(), t.name());
        if (t.pool() != 0 && poolNames.containsKey(t.pool())) {
          String pool = poolNames.get(t.pool());
          poolOfThread.put(t.name(), pool);
          int dash = t.name().lastIndexOf('-');
          if (dash > 0) {
            scenarioPoolName.put(pool, t.name().substring(0, dash));
          }
        }
      }
      Map<Long, String> poolOfTask = new HashMap<>();
      Map<String, Integer> inFlight = new HashMap<>();
      Map<String, Long> startOpen = new HashMap<>();
      EventCursor c = trace.events();
      while (c.next()) {
        String thread = threadNames.getOrDefault(c.stream(), "stream-" + c.stream());
        eventCounts
            .computeIfAbsent(thread, k -> new EnumMap<>(EventKind.class))
            .merge(c.kind(), 1, Integer::sum);
        if (c.kind() == EventKind.WAIT_ENTER && c.field(1) == WaitKind.THREAD_START) {
          startOpen.put(thread, c.time());
        } else if (c.kind() == EventKind.WAIT_EXIT && startOpen.containsKey(thread)) {
          threadStartNs.merge(thread, c.time() - startOpen.remove(thread), Long::sum);
        }
        String pool = null;
        int change = 0;
        if (c.kind() == EventKind.TASK_CREATE) {
          pool = poolName(poolNames, (int) c.field(2));
          if (pool != null) {
            tasksCreatedByPool.merge(pool, 1, Integer::sum);
            poolOfTask.put(c.field(1), pool);
            change = 1;
          }
        } else if (c.kind() == EventKind.TASK_END) {
          pool = poolOfTask.remove(c.field(0));
          change = -1;
        } else if (c.kind() == EventKind.FORK) {
          pool = poolName(poolNames, (int) c.field(1));
          change = 1;
        } else if (c.kind() == EventKind.JOIN) {
          pool = poolName(poolNames, (int) c.field(1));
          change = -1;
        }
        if (pool != null) {
          int before = inFlight.getOrDefault(pool, 0);
          inFlight.put(pool, Math.max(0, before + change));
          if (before == 0 && change > 0) {
            roundsByPool.merge(pool, 1, Integer::sum);
          }
        }
      }
    }
  }

  /** The scenario's name of pool {@code id} (its threads' prefix), else its trace name. */
  private String poolName(Map<Integer, String> poolNames, int id) {
    String name = poolNames.get(id);
    return name == null ? null : scenarioPoolName.getOrDefault(name, name);
  }

  private static JsonNode parseTruthLine(String stdout) {
    List<String> lines = stdout.lines().toList();
    if (lines.isEmpty() || !lines.get(lines.size() - 1).startsWith("{\"scenario\":")) {
      return null;
    }
    try {
      return JSON.readTree(lines.get(lines.size() - 1));
    } catch (IOException e) {
      return null;
    }
  }

  private static String codeSource(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return "trace "
        + traceDir
        + ", exit "
        + exitCode
        + "\nstdout:\n"
        + stdout
        + "stderr:\n"
        + stderr;
  }
}
