package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.api.Weft;
import dev.weft.cli.apps.TickApp;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Programs in other JVMs for the attach, demo and analysis integration tests, and the jars they
 * need.
 */
public final class ChildJvms {
  private ChildJvms() {}

  /** The packaged agent (system property {@code weft.agent.jar}, set by the build). */
  public static Path agentJar() {
    Path jar = Path.of(System.getProperty("weft.agent.jar", "../../agent/target/weft-agent.jar"));
    assertTrue(Files.isRegularFile(jar), "the agent jar is built first: " + jar);
    return jar.toAbsolutePath().normalize();
  }

  /** The packaged CLI (system property {@code weft.cli.jar}, set by the build). */
  static Path cliJar() {
    Path jar = Path.of(System.getProperty("weft.cli.jar", "target/weft.jar"));
    assertTrue(Files.isRegularFile(jar), "the CLI jar is packaged first: " + jar);
    return jar.toAbsolutePath().normalize();
  }

  /** The test classes and the api: the class path of the programs in {@code apps}. */
  static String appClassPath() {
    return location(TickApp.class) + java.io.File.pathSeparator + location(Weft.class);
  }

  /** Where a class was loaded from: a classes directory or a jar. */
  public static Path location(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs {@code app} on {@code jdk} under the agent, recording into {@code trace}, and asserts that
   * it ends within two minutes, exits 0 and prints nothing on stderr. Its stdout and stderr go to
   * files beside the trace.
   */
  public static void traceApp(Path jdk, Path trace, Class<?> app, String... args)
      throws IOException, InterruptedException {
    Files.createDirectories(trace.getParent());
    Path out = trace.resolveSibling(trace.getFileName() + ".out");
    Path err = trace.resolveSibling(trace.getFileName() + ".err");
    List<String> command = new ArrayList<>();
    command.add(jdk.resolve("bin").resolve("java").toString());
    command.add("-javaagent:" + agentJar() + "=out=" + trace);
    command.add("-cp");
    command.add(location(app).toString());
    command.add(app.getName());
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the program ends");
    assertTrue(p.exitValue() == 0, read(err));
    assertTrue(read(err).isEmpty(), read(err));
  }

  /** A child's output file, or what kept it from being read (for assertion messages). */
  public static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }

  /** The running JDK's java. */
  static Path java() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** JDK 25's java, or null when it is not installed here. */
  static Path java25() {
    String home = System.getProperty("weft.jdk25.home", "");
    Path java = home.isEmpty() ? null : Path.of(home, "bin", "java");
    return java != null && Files.isRegularFile(java) ? java : null;
  }

  /**
   * A {@link TickApp} running in its own JVM: started, then ready (it said so) once {@link #start}
   * returns. Its stdout and stderr go to files.
   */
  static final class Tick implements AutoCloseable {
    final Process process;
    private final Path out;
    private final Path err;

    private Tick(Process process, Path out, Path err) {
      this.process = process;
      this.out = out;
      this.err = err;
    }

    /**
     * Starts {@code java JVM_OPTIONS -cp ... TickApp [ARGS]} and waits until it is ready.
     *
     * @param java the java to run
     * @param dir for its output files
     */
    static Tick start(Path java, Path dir, List<String> jvmOptions, String... args)
        throws IOException, InterruptedException {
      Files.createDirectories(dir);
      List<String> command = new ArrayList<>();
      command.add(java.toString());
      command.addAll(jvmOptions);
      command.add("-cp");
      command.add(appClassPath());
      command.add(TickApp.class.getName());
      command.addAll(List.of(args));
      Path out = dir.resolve("tick.out");
      Path err = dir.resolve("tick.err");
      Process p =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      Tick tick = new Tick(p, out, err);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.readString(out).startsWith("ready")) {
        assertTrue(p.isAlive(), "TickApp ended early: " + Files.readString(err));
        assertTrue(System.nanoTime() < deadline, "TickApp is not ready after 60 s");
        Thread.sleep(20);
      }
      return tick;
    }

    long pid() {
      return process.pid();
    }

    /** Tells it to finish and returns its last line of output ({@code ticks N sum S correct}). */
    String finish() throws IOException, InterruptedException {
      try (OutputStream in = process.getOutputStream()) {
        in.write("finish\n".getBytes(StandardCharsets.UTF_8));
      }
      return awaitExit();
    }

    /** Waits until it ends by itself and returns its last line of output. */
    String awaitExit() throws IOException, InterruptedException {
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "TickApp did not finish");
      List<String> lines = Files.readAllLines(out);
      return lines.get(lines.size() - 1);
    }

    String stderr() throws IOException {
      return Files.readString(err);
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }
}
