package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.agent.it.ChildJvm.Result;
import dev.weft.agentit.apps.ManyThreadsApp;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventKind;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceVerifier;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A many-thread program recording onto a disk that runs out: the program runs as without the agent,
 * the agent says one line, every thread has exactly one stream, the definitions are whole and
 * closed, every event refers to defined things, and every event is either in the trace or counted
 * as dropped. The disk is simulated ({@code test.diskfree=}, works everywhere) or a real tmpfs
 * (skipped without the right to mount one).
 */
@Tag("child-jvm")
class DiskFullIT {
  /** ManyThreadsApp with {@code constructs=regions}: 8 × 20000 × 4 + 300 × 4 events. */
  private static final long REGION_EVENTS = 8L * 20_000 * 4 + 300 * 4;

  private static final String APP = ManyThreadsApp.class.getName();

  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  private Result run(Path jdk, String options) {
    return ChildJvm.run(ChildJvm.command(jdk, options, ChildJvm.classPath(), APP), tmp);
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void simulatedFullDiskKeepsOneStreamPerThreadAndAccountsForEveryEvent(Path jdk) throws Exception {
    Path trace = tmp.resolve("trace");
    // 4 KiB windows: room for a part of each of the first threads' events, then none.
    Result traced = run(jdk, "out=" + trace + ",constructs=regions,buffer=4k,test.diskfree=1m");
    assertUnharmedWithOneWarning(run(jdk, null), traced);
    checkTrace(trace, true);
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void simulatedFullDiskWithEveryConstructVerifiesWithoutErrors(Path jdk) throws Exception {
    Path trace = tmp.resolve("trace");
    Result traced = run(jdk, "out=" + trace + ",buffer=4k,test.diskfree=512k");
    assertUnharmedWithOneWarning(run(jdk, null), traced);
    checkTrace(trace, false);
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void realFullTmpfs(Path jdk) throws Exception {
    Path mount = Files.createDirectories(tmp.resolve("tmpfs"));
    mount(mount, "4m");
    try {
      // Leave 1.5 MiB: the reserve, some windows, then ENOSPC.
      try (OutputStream out = Files.newOutputStream(mount.resolve("filler"))) {
        out.write(new byte[(4 << 20) - (3 << 19)]);
      }
      Path trace = mount.resolve("trace");
      Result traced = run(jdk, "out=" + trace + ",constructs=regions,buffer=16k");
      assertUnharmedWithOneWarning(run(jdk, null), traced);
      checkTrace(trace, true);
    } finally {
      command("umount", "-l", mount.toString());
    }
  }

  private static void assertUnharmedWithOneWarning(Result plain, Result traced) {
    assertEquals(plain.exitCode(), traced.exitCode(), traced.stderr());
    assertEquals(plain.stdout(), traced.stdout());
    List<String> lines = traced.stderrLines();
    assertEquals(1, lines.size(), "exactly one line on stderr, got: " + traced.stderr());
    assertTrue(lines.get(0).startsWith("weft: "), lines.get(0));
    assertTrue(lines.get(0).contains("is incomplete"), lines.get(0));
  }

  private static void checkTrace(Path dir, boolean countEvents) throws IOException {
    assertFalse(Files.exists(dir.resolve("defs.reserve")), "the reserve is deleted at close");
    try (Stream<Path> files = Files.list(dir.resolve("events"))) {
      for (Path f : (Iterable<Path>) files::iterator) {
        assertTrue(Files.size(f) > 32, f + ": no stub left by a failed open");
      }
    }
    TraceFacts facts = TraceFacts.read(dir);
    Definitions d = facts.definitions;
    assertFalse(d.cut(), "no half record in defs.wdf");
    assertTrue(d.closedCleanly(), "the end record found room");
    Map<Long, Integer> streamsPerThread = new HashMap<>();
    for (ThreadDef t : d.threads()) {
      streamsPerThread.merge(t.javaId(), 1, Integer::sum);
    }
    streamsPerThread.forEach(
        (javaId, n) -> assertEquals(1, n, "thread " + javaId + " has one stream"));
    assertTrue(d.threads().size() >= 308, d.threads().size() + " threads");
    long drops = d.drops().values().stream().mapToLong(Long::longValue).sum();
    assertTrue(drops > 0, "drops are counted in the definitions: " + d.drops());
    try (Trace t = Trace.open(dir)) {
      TraceVerifier.VerifyReport report = TraceVerifier.verify(t);
      assertTrue(report.ok(), report.errors().toString());
      assertFalse(report.cut(), report.warnings().toString());
      assertTrue(
          report.dropped() > 0
              || report.warnings().stream().anyMatch(w -> w.contains("has no event file")),
          report.warnings().toString());
    }
    if (countEvents) {
      long kept = facts.all().stream().filter(e -> e.kind() != EventKind.DROPPED).count();
      long undefined =
          Long.parseLong(d.attributes().getOrDefault("agent.events_dropped_undefined", "0"));
      assertEquals(
          REGION_EVENTS,
          kept + drops + undefined,
          "every event is kept or counted (kept " + kept + ", dropped " + drops + ")");
    }
  }

  private static void mount(Path dir, String size) throws Exception {
    assumeTrue(
        System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux"),
        "tmpfs is Linux's");
    String out = command("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString());
    assumeTrue(out == null, "cannot mount a tmpfs (needs root and mount rights): " + out);
  }

  /** Runs a command; null when it succeeded, else what it said. */
  private static String command(String... command) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return e.getMessage();
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return "timed out";
    }
    return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out;
  }
}
