package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.api.Weft;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Starts test applications in child JVMs, with or without the shaded agent jar. */
public final class ChildJvm {
  public static final Path AGENT_JAR =
      Path.of(System.getProperty("weft.agent.jar", "target/weft-agent.jar")).toAbsolutePath();
  public static final Path IT_LIBS =
      Path.of(System.getProperty("weft.it.libs", "target/it-libs")).toAbsolutePath();

  /** The jar in {@link #IT_LIBS} whose name starts with {@code prefix}. */
  public static Path itLib(String prefix) throws IOException {
    return itLib(IT_LIBS, prefix);
  }

  /**
   * The jar in {@code dir} (one of {@link #IT_LIBS}' directories) whose name starts with {@code
   * prefix}.
   */
  public static Path itLib(Path dir, String prefix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix)).findFirst().orElseThrow();
    }
  }

  /** The JDKs to test on: the one running the tests (17) and, when installed, JDK 25. */
  public static Stream<Path> jdks() {
    List<Path> out = new ArrayList<>();
    out.add(Path.of(System.getProperty("java.home")));
    String jdk25 = System.getProperty("weft.jdk25.home", "");
    if (!jdk25.isBlank() && Files.isExecutable(Path.of(jdk25, "bin", "java"))) {
      out.add(Path.of(jdk25));
    }
    return out.stream();
  }

  /** The feature release of a JDK (17, 25), from its {@code release} file. */
  public static int featureVersion(Path jdk) {
    try {
      for (String line : Files.readAllLines(jdk.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
          return Integer.parseInt(v.split("[.]")[0]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // fall through
    }
    throw new IllegalStateException("cannot tell the version of " + jdk);
  }

  /** What a finished child printed. */
  public record Result(int exitCode, String stdout, String stderr) {
    /** stderr split into lines. */
    public List<String> stderrLines() {
      return stderr.isEmpty() ? List.of() : List.of(stderr.split("\\R"));
    }
  }

  /** Class path of the test applications: the test classes and the api jar (plus extras). */
  public static String classPath(Path... extra) {
    StringBuilder cp =
        new StringBuilder(Path.of("target", "test-classes").toAbsolutePath().toString());
    cp.append(File.pathSeparator).append(codeSource(Weft.class));
    for (Path p : extra) {
      cp.append(File.pathSeparator).append(p);
    }
    return cp.toString();
  }

  public static String codeSource(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The command line: {@code java [-javaagent:jar=OPTIONS] -cp CP MAIN ARGS}; null options = no
   * agent.
   */
  public static List<String> command(
      Path jdk, String agentOptions, String classPath, String main, String... args) {
    assertTrue(Files.isRegularFile(AGENT_JAR), AGENT_JAR + " missing: run mvn package first");
    List<String> cmd = new ArrayList<>();
    cmd.add(jdk.resolve("bin").resolve("java").toString());
    if (agentOptions != null) {
      cmd.add("-javaagent:" + AGENT_JAR + (agentOptions.isEmpty() ? "" : "=" + agentOptions));
    }
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(main);
    cmd.addAll(List.of(args));
    return cmd;
  }

  /**
   * {@link #command} without the agent, for an app that loads it into itself as {@code weft attach}
   * does (allowed to attach to itself; on JDK 21+ without the dynamic-agent warning).
   */
  public static List<String> selfAttachCommand(Path jdk, String main, String... args) {
    return selfAttachCommandOn(classPath(), jdk, main, args);
  }

  /** As {@link #selfAttachCommand}, with class path {@code cp}. */
  public static List<String> selfAttachCommandOn(String cp, Path jdk, String main, String... args) {
    List<String> cmd = command(jdk, null, cp, main, args);
    cmd.addAll(
        1,
        List.of(
            "-Djdk.attach.allowAttachSelf=true",
            "-XX:+IgnoreUnrecognizedVMOptions",
            "-XX:+EnableDynamicAgentLoading"));
    return cmd;
  }

  /** Runs to completion (at most two minutes) in {@code workDir}. */
  public static Result run(List<String> command, Path workDir) {
    try {
      ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
      pb.environment().keySet().removeIf(k -> k.startsWith("WEFT_"));
      Process p = pb.start();
      p.getOutputStream().close();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      Thread errReader = drain(p.getErrorStream(), err);
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail("child JVM did not finish: " + command);
      }
      errReader.join();
      return new Result(p.exitValue(), out, err.toString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public static Thread drain(InputStream in, ByteArrayOutputStream sink) {
    Thread t =
        new Thread(
            () -> {
              try {
                in.transferTo(sink);
              } catch (IOException ignored) {
                // The child died; what it wrote so far is kept.
              }
            });
    t.setDaemon(true);
    t.start();
    return t;
  }
}
