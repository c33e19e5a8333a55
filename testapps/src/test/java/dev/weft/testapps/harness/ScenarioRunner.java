package dev.weft.testapps.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.api.Weft;
import dev.weft.testapps.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a test-app scenario and returns what it printed, its exit code and its parsed truth line: in
 * a child JVM (optionally with extra JVM arguments such as {@code -javaagent:...}) or, for fast
 * tests without an agent, in this JVM. Immutable: each {@code withX} returns a new runner.
 *
 * <pre>{@code
 * ScenarioRunner.Result run =
 *     ScenarioRunner.scenario("barrier-imbalance")
 *         .withOption("threads", 3)
 *         .withJvmArgs("-javaagent:" + agentJar + "=out=" + traceDir)
 *         .run();
 * long wait = run.truthPerKey("barrier_wait_ns").get("worker-0");
 * }</pre>
 *
 * <p>The child runs {@code java -cp <testapps classes>:<api classes> dev.weft.testapps.Main}, with
 * the class path taken from where this JVM loaded {@link Main} and {@link Weft} (so it works in
 * {@code mvn test}, before the jar is packaged). Set {@link #withApplicationJar} to run {@code java
 * -jar weft-testapps.jar} instead.
 */
public final class ScenarioRunner {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String scenario;
  private final List<String> args;
  private final List<String> jvmArgs;
  private final Path javaHome;
  private final Path applicationJar;
  private final Path workingDirectory;
  private final Map<String, String> environment;
  private final Duration timeout;

  private ScenarioRunner(
      String scenario,
      List<String> args,
      List<String> jvmArgs,
      Path javaHome,
      Path applicationJar,
      Path workingDirectory,
      Map<String, String> environment,
      Duration timeout) {
    this.scenario = scenario;
    this.args = List.copyOf(args);
    this.jvmArgs = List.copyOf(jvmArgs);
    this.javaHome = javaHome;
    this.applicationJar = applicationJar;
    this.workingDirectory = workingDirectory;
    this.environment = Map.copyOf(environment);
    this.timeout = timeout;
  }

  /**
   * A runner for {@code scenario} with no options, this JVM's Java, and a 60 s timeout.
   *
   * @param scenario the scenario's name, or null for a command line without one
   */
  public static ScenarioRunner scenario(String scenario) {
    return new ScenarioRunner(
        scenario,
        List.of(),
        List.of(),
        Path.of(System.getProperty("java.home")),
        null,
        null,
        Map.of(),
        Duration.ofSeconds(60));
  }

  /**
   * A runner for a raw command line (e.g. {@code --help}, or nothing at all): {@code argv} is
   * passed to Main as it is.
   */
  public static ScenarioRunner commandLine(String... argv) {
    return scenario(null).withArgs(argv);
  }

  /** Adds {@code --name value}. */
  public ScenarioRunner withOption(String name, Object value) {
    return withArgs("--" + name, String.valueOf(value));
  }

  /** Adds {@code --cpu}: work spins instead of sleeping. */
  public ScenarioRunner withCpu() {
    return withArgs("--cpu");
  }

  /** Adds raw arguments after the scenario name (for testing bad usage). */
  public ScenarioRunner withArgs(String... more) {
    List<String> all = new ArrayList<>(args);
    all.addAll(Arrays.asList(more));
    return new ScenarioRunner(
        scenario, all, jvmArgs, javaHome, applicationJar, workingDirectory, environment, timeout);
  }

  /** Adds JVM arguments placed before the main class, e.g. {@code -javaagent:...}. */
  public ScenarioRunner withJvmArgs(String... more) {
    List<String> all = new ArrayList<>(jvmArgs);
    all.addAll(Arrays.asList(more));
    return new ScenarioRunner(
        scenario, args, all, javaHome, applicationJar, workingDirectory, environment, timeout);
  }

  /** Runs the child with the {@code java} of {@code home} (e.g. the JDK 25 home). */
  public ScenarioRunner withJavaHome(Path home) {
    return new ScenarioRunner(
        scenario, args, jvmArgs, home, applicationJar, workingDirectory, environment, timeout);
  }

  /** Runs {@code java -jar jar} instead of the class path of this JVM. */
  public ScenarioRunner withApplicationJar(Path jar) {
    return new ScenarioRunner(
        scenario, args, jvmArgs, javaHome, jar, workingDirectory, environment, timeout);
  }

  /** Runs the child in {@code directory} (by default this JVM's working directory). */
  public ScenarioRunner withWorkingDirectory(Path directory) {
    return new ScenarioRunner(
        scenario, args, jvmArgs, javaHome, applicationJar, directory, environment, timeout);
  }

  /** Sets an environment variable of the child. */
  public ScenarioRunner withEnvironment(String name, String value) {
    Map<String, String> all = new LinkedHashMap<>(environment);
    all.put(name, value);
    return new ScenarioRunner(
        scenario, args, jvmArgs, javaHome, applicationJar, workingDirectory, all, timeout);
  }

  /** Kills the child (and fails the run) after {@code limit}. */
  public ScenarioRunner withTimeout(Duration limit) {
    return new ScenarioRunner(
        scenario, args, jvmArgs, javaHome, applicationJar, workingDirectory, environment, limit);
  }

  /** The child's full command line. */
  public List<String> command() {
    List<String> command = new ArrayList<>();
    command.add(javaHome.resolve("bin").resolve("java").toString());
    command.addAll(jvmArgs);
    if (applicationJar != null) {
      command.add("-jar");
      command.add(applicationJar.toString());
    } else {
      command.add("-cp");
      command.add(codeSource(Main.class) + java.io.File.pathSeparator + codeSource(Weft.class));
      command.add(Main.class.getName());
    }
    command.addAll(argv());
    return command;
  }

  /**
   * Runs the scenario in a child JVM and waits for it.
   *
   * @throws IllegalStateException if it did not end within the timeout (it is killed)
   */
  public Result run() throws IOException, InterruptedException {
    Path out = Files.createTempFile("weft-testapps-", ".out");
    Path err = Files.createTempFile("weft-testapps-", ".err");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
      if (workingDirectory != null) {
        builder.directory(workingDirectory.toFile());
      }
      builder.environment().putAll(environment);
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
        throw new IllegalStateException(
            "scenario "
                + scenario
                + " did not end within "
                + timeout
                + "; stdout so far:\n"
                + Files.readString(out)
                + "\nstderr:\n"
                + Files.readString(err));
      }
      return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /**
   * Runs the scenario in this JVM, on a new thread named "main" (so per-thread truth uses the same
   * names as in a child JVM). JVM arguments, Java home, jar and environment do not apply.
   */
  public Result runInProcess() throws InterruptedException {
    if (!jvmArgs.isEmpty() || applicationJar != null) {
      throw new IllegalStateException("JVM arguments need a child JVM: use run()");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> argv = argv();
    AtomicReference<Integer> code = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread main =
        new Thread(
            () -> {
              try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                  PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                code.set(Main.run(argv.toArray(new String[0]), o, e));
              } catch (Throwable t) {
                failure.set(t);
              }
            },
            "main");
    main.start();
    main.join(timeout.toMillis());
    if (main.isAlive()) {
      main.interrupt();
      throw new IllegalStateException("scenario " + scenario + " did not end within " + timeout);
    }
    if (failure.get() != null) {
      throw new IllegalStateException("scenario " + scenario + " threw", failure.get());
    }
    return new Result(
        code.get(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private List<String> argv() {
    List<String> argv = new ArrayList<>();
    if (scenario != null) {
      argv.add(scenario);
    }
    argv.addAll(args);
    return argv;
  }

  private static String codeSource(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static java.io.File nullDevice() {
    return new java.io.File(
        System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  /** What one run printed and returned. */
  public static final class Result {
    private final int exitCode;
    private final String stdout;
    private final String stderr;
    private final JsonNode truthLine;

    Result(int exitCode, String stdout, String stderr) {
      this.exitCode = exitCode;
      this.stdout = stdout;
      this.stderr = stderr;
      this.truthLine = parseTruthLine(stdout);
    }

    /** The exit code: 0 ok, 1 the scenario failed, 2 bad usage. */
    public int exitCode() {
      return exitCode;
    }

    /** Everything printed on stdout. */
    public String stdout() {
      return stdout;
    }

    /** Everything printed on stderr. */
    public String stderr() {
      return stderr;
    }

    /** Stdout lines without the truth line: identical across runs, with or without an agent. */
    public List<String> stdoutWithoutTruth() {
      List<String> lines = new ArrayList<>(stdout.lines().toList());
      if (truthLine != null) {
        lines.remove(lines.size() - 1);
      }
      return lines;
    }

    /** The parsed last stdout line, or null if the last line is not a truth line. */
    public JsonNode truthLine() {
      return truthLine;
    }

    /** The truth line's {@code result}: identical across runs. */
    public JsonNode result() {
      return requireTruthLine().get("result");
    }

    /** The truth line's {@code truth} object. */
    public JsonNode truth() {
      return requireTruthLine().get("truth");
    }

    /** One flat truth kind as key → value (e.g. thread name → ns); empty if the kind is absent. */
    public Map<String, Long> truthPerKey(String kind) {
      return longs(truth().path(kind));
    }

    /** One grouped truth kind's group (e.g. {@code region_busy_ns}, region) as key → value. */
    public Map<String, Long> truthPerKey(String kind, String group) {
      return longs(truth().path(kind).path(group));
    }

    /** Sum of a flat truth kind over all keys. */
    public long truthTotal(String kind) {
      return truthPerKey(kind).values().stream().mapToLong(Long::longValue).sum();
    }

    private JsonNode requireTruthLine() {
      if (truthLine == null) {
        throw new IllegalStateException(
            "no truth line (exit " + exitCode + "); stdout:\n" + stdout + "\nstderr:\n" + stderr);
      }
      return truthLine;
    }

    private static Map<String, Long> longs(JsonNode node) {
      Map<String, Long> values = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        values.put(e.getKey(), e.getValue().asLong());
      }
      return values;
    }

    private static JsonNode parseTruthLine(String stdout) {
      List<String> lines = stdout.lines().toList();
      if (lines.isEmpty() || !lines.get(lines.size() - 1).startsWith("{\"scenario\":")) {
        return null;
      }
      try {
        return JSON.readTree(lines.get(lines.size() - 1));
      } catch (IOException e) {
        throw new UncheckedIOException("truth line is not JSON: " + lines.get(lines.size() - 1), e);
      }
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\nstdout:\n" + stdout + "stderr:\n" + stderr;
    }
  }
}
