package dev.weft.cli.fuzz;

import dev.weft.api.Weft;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ProcessDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The traces the fuzz test mutates: two real recordings of {@link FuzzApp} under the agent (one
 * closed cleanly, one cut by {@code kill -9}), and one synthetic trace written with {@link
 * TraceWriter}.
 */
final class Recordings {
  /** Agent options: small windows, so that every stream has several blocks. */
  static final String AGENT_OPTIONS = "buffer=4k,include=" + FuzzApp.class.getName();

  private Recordings() {}

  /**
   * The packaged agent: system property {@code weft.agent.jar}, else the agent module's jar next to
   * this module (the reactor packages it before this module's tests run).
   */
  static Path agentJar() {
    Path jar = Path.of(System.getProperty("weft.agent.jar", "../../agent/target/weft-agent.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "the fuzz test records with the packaged agent, "
              + jar.toAbsolutePath().normalize()
              + ", which is missing: build it first ('mvn -B verify', or once 'mvn -B -pl"
              + " analyzer-cli/cli -am package -DskipTests')");
    }
    return jar.toAbsolutePath().normalize();
  }

  /** Records {@link FuzzApp} until it exits by itself: a trace closed cleanly. */
  static Path recordClean(Path out, Path logs) throws IOException, InterruptedException {
    Process p = start(out, logs, "clean");
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("FuzzApp did not finish in 60 s: " + log(logs, "clean"));
    }
    if (p.exitValue() != 0 || !Files.isRegularFile(out.resolve("defs.wdf"))) {
      throw new IllegalStateException(
          "FuzzApp failed (exit " + p.exitValue() + "): " + log(logs, "clean"));
    }
    return out;
  }

  /**
   * Records {@link FuzzApp} with threads in open waits and kills it ({@code kill -9}) while it
   * runs: a cut trace.
   */
  static Path recordCut(Path out, Path logs) throws IOException, InterruptedException {
    Process p = start(out, logs, "hang");
    Path stdout = logs.resolve("hang.out");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    try {
      while (!Files.readString(stdout).startsWith("ready")) {
        if (!p.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "FuzzApp hang did not get ready (alive " + p.isAlive() + "): " + log(logs, "hang"));
        }
        Thread.sleep(10);
      }
    } finally {
      p.destroyForcibly();
      p.waitFor(60, TimeUnit.SECONDS);
    }
    return out;
  }

  private static Process start(Path out, Path logs, String mode) throws IOException {
    Files.createDirectories(logs);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-javaagent:" + agentJar() + "=out=" + out + "," + AGENT_OPTIONS);
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Xshare:auto");
    command.add("-cp");
    command.add(location(FuzzApp.class) + File.pathSeparator + location(Weft.class));
    command.add(FuzzApp.class.getName());
    command.add(mode);
    return new ProcessBuilder(command)
        .redirectOutput(logs.resolve(mode + ".out").toFile())
        .redirectError(logs.resolve(mode + ".err").toFile())
        .start();
  }

  private static String log(Path logs, String mode) throws IOException {
    return Files.readString(logs.resolve(mode + ".out"))
        + Files.readString(logs.resolve(mode + ".err"));
  }

  private static Path location(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A well-formed trace whose one thread enters a region {@code depth} times before leaving it as
   * often: what a deep recursion of a {@code @Traced} method records.
   */
  static Path deepNesting(Path dir, int depth) throws IOException {
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.defineProcess(
          new ProcessDef(1, "fuzzhost", "17", "VM", 2, "java Deep", "Deep", "out=" + dir));
      w.defineRegion(
          new RegionDef(
              1,
              ConstructKind.TRACED_METHOD,
              "recurse",
              "demo.Deep",
              "recurse",
              "Deep.java",
              5,
              9));
      StreamWriter s = w.openStream(1, "main", 0, 0, 1000);
      long t = 1000;
      s.threadBegin(t);
      for (int i = 0; i < depth; i++) {
        s.enter(t += 10, 1);
      }
      for (int i = 0; i < depth; i++) {
        s.exit(t += 10, 1);
      }
      s.threadEnd(t += 10);
      w.close(t + 10);
    }
    return dir;
  }
}
