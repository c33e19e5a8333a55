package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.api.Weft;
import dev.weft.cli.apps.FakeTestApps;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft demo} with the packaged agent and a stand-in for the test apps jar, both found
 * through {@code WEFT_HOME} as the launcher sets it.
 */
@Tag("child-jvm")
class DemoCommandIT {
  @TempDir Path tmp;
  Map<String, String> env;

  /**
   * A WEFT_HOME with the real agent and {@link FakeTestApps} as testapps/target/weft-testapps.jar.
   */
  @BeforeEach
  void home() throws IOException {
    Path home = tmp.resolve("home");
    Files.createDirectories(home.resolve("agent/target"));
    Files.copy(ChildJvms.agentJar(), home.resolve("agent/target/weft-agent.jar"));
    Path jar =
        Files.createDirectories(home.resolve("testapps/target")).resolve("weft-testapps.jar");
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeTestApps.class.getName());
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream j = new JarOutputStream(out, m)) {
      add(j, ChildJvms.location(FakeTestApps.class), "dev/weft/cli/apps/FakeTestApps.class");
      add(j, ChildJvms.location(Weft.class), "dev/weft/api/Weft.class");
      add(j, ChildJvms.location(Weft.class), "dev/weft/api/Region.class");
    }
    env = Map.of("WEFT_HOME", home.toString());
  }

  /** Copies one class file from a classes directory or a jar. */
  private static void add(JarOutputStream jar, Path from, String entry) throws IOException {
    jar.putNextEntry(new JarEntry(entry));
    if (Files.isDirectory(from)) {
      Files.copy(from.resolve(entry), jar);
    } else {
      try (var zip = new java.util.zip.ZipFile(from.toFile())) {
        zip.getInputStream(zip.getEntry(entry)).transferTo(jar);
      }
    }
    jar.closeEntry();
  }

  private static long tickEnters(Path trace) {
    try (Trace t = Trace.open(trace)) {
      long n = 0;
      EventCursor c = t.events();
      while (c.next()) {
        if (c.kind() == EventKind.ENTER) {
          n++;
        }
      }
      return n;
    }
  }

  @Test
  void printsTheAnalysisAndDeletesTheTemporaryTrace() throws Exception {
    Path tempRoot = Path.of(System.getProperty("java.io.tmpdir"));
    long demosBefore = demoDirs(tempRoot);
    Cli.Result r = Cli.run(env, "demo", "ticks");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().startsWith("Weft wait-state analysis of "), r.out());
    assertTrue(r.out().contains("Properties (inclusive)"), r.out());
    assertTrue(r.out().contains("1 threads"), r.out());
    assertEquals(
        "weft: demo: running scenario 'ticks' of the test apps with the agent",
        r.errLines().get(0));
    assertTrue(r.errLines().get(1).contains("now deleted; 'weft demo --keep' keeps it"), r.err());
    assertEquals(demosBefore, demoDirs(tempRoot), "no temporary directory is left");
  }

  private static long demoDirs(Path tempRoot) throws IOException {
    try (Stream<Path> s = Files.list(tempRoot)) {
      return s.filter(p -> p.getFileName().toString().startsWith("weft-demo")).count();
    }
  }

  @Test
  void keepsTheTraceWithItsScenarioArguments() throws Exception {
    Path out = tmp.resolve("kept");
    Cli.Result r = Cli.run(env, "demo", "--out", out.toString(), "ticks", "37");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.errLines().get(1).startsWith("weft: demo: trace in " + out), r.err());
    assertTrue(r.err().contains("weft analyze " + out + " --format html"), r.err());
    assertEquals(37, tickEnters(out), "the scenario's own argument reached it");
    assertEquals(0, Cli.run("verify", out.toString()).exit());
  }

  @Test
  void anUnknownScenarioIsTheTestAppsOwnOneLine() {
    Cli.Result r = Cli.run(env, "demo", "no-such-scenario");
    assertEquals(2, r.exit(), r.toString());
    assertEquals(
        "weft: the test app failed (exit 2): weft-testapps: unknown scenario 'no-such-scenario'"
            + " (see --help)",
        r.errLines().get(r.errLines().size() - 1));
    assertFalse(r.err().contains("\tat "), r.err());
  }
}
