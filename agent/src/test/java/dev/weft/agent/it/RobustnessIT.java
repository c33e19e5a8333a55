package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm.Result;
import dev.weft.agentit.apps.BusyApp;
import dev.weft.agentit.apps.DeepRecursionApp;
import dev.weft.agentit.apps.HelloApp;
import dev.weft.agentit.apps.RegionsApp;
import dev.weft.trace.EventKind;
import dev.weft.trace.Trace;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The host program always runs as without the agent: failures inside the agent, a size limit, an
 * unusable directory, bad options and SIGKILL. The agent says at most one line, on stderr.
 */
@Tag("child-jvm")
class RobustnessIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  private Result plain(Path jdk, String main, String... args) {
    Result r = ChildJvm.run(ChildJvm.command(jdk, null, ChildJvm.classPath(), main, args), tmp);
    assertEquals(0, r.exitCode(), r.stderr());
    assertEquals("", r.stderr());
    return r;
  }

  private Result withAgent(Path jdk, String options, String main, String... args) {
    return ChildJvm.run(ChildJvm.command(jdk, options, ChildJvm.classPath(), main, args), tmp);
  }

  /** Same exit code and stdout as without the agent; exactly one "weft: " line on stderr. */
  private static void assertUnharmedWithOneLine(Result plain, Result traced, String expected) {
    assertEquals(plain.exitCode(), traced.exitCode(), traced.stderr());
    assertEquals(plain.stdout(), traced.stdout());
    List<String> lines = traced.stderrLines();
    assertEquals(1, lines.size(), "exactly one line on stderr, got: " + traced.stderr());
    assertTrue(lines.get(0).startsWith("weft: "), lines.get(0));
    assertTrue(lines.get(0).contains(expected), lines.get(0));
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void recorderThatThrowsStopsRecordingButNotTheProgram(Path jdk) {
    Path trace = tmp.resolve("trace");
    String app = RegionsApp.class.getName();
    Result traced = withAgent(jdk, "out=" + trace + ",test.fail=4", app);
    assertUnharmedWithOneLine(plain(jdk, app), traced, "internal error");
    TraceFacts t = TraceFacts.read(trace);
    assertTrue(t.definitions.closedCleanly(), "the failure path closes the trace");
    assertEquals(3, t.all().size(), "the three events before the failing one");
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void stackOverflowInsideTheRecorderLosesOneEventNotTheRecording(Path jdk) {
    Path trace = tmp.resolve("trace");
    String app = DeepRecursionApp.class.getName();
    Result traced = withAgent(jdk, "out=" + trace, app);
    Result plain = plain(jdk, app);
    assertEquals(0, traced.exitCode(), traced.stderr());
    assertEquals(plain.stdout(), traced.stdout());
    assertEquals("overflows 20, deep: true\n", traced.stdout());
    assertEquals("", traced.stderr());
    TraceFacts t = TraceFacts.read(trace);
    assertEquals(1, t.count(EventKind.ENTER, t.region("after-overflows").id()), "still recording");
    assertTrue(t.count(EventKind.ENTER, t.region("DeepRecursionApp.down").id()) > 20_000);
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void sizeLimitDropsEventsAndWarnsOnce(Path jdk) {
    Path trace = tmp.resolve("trace");
    String app = BusyApp.class.getName();
    Result traced = withAgent(jdk, "out=" + trace + ",maxsize=128k,buffer=64k", app, "200000");
    assertUnharmedWithOneLine(plain(jdk, app, "200000"), traced, "size limit");
    TraceFacts t = TraceFacts.read(trace);
    long dropped = t.definitions.drops().values().stream().mapToLong(Long::longValue).sum();
    assertTrue(dropped > 0, "drops are counted");
    assertTrue(t.count(EventKind.ENTER) > 1000, "events before the limit are kept");
    long kept = t.all().stream().filter(e -> e.kind() != EventKind.DROPPED).count();
    assertEquals(
        800_001,
        kept + dropped,
        "every one of the 800000 events, and main's THREAD_END as it exits, is kept or counted");
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void unwritableDirectoryLeavesTheAgentOff(Path jdk) throws Exception {
    Path file = Files.writeString(tmp.resolve("a-file"), "not a directory");
    String app = RegionsApp.class.getName();
    Result traced = withAgent(jdk, "out=" + file.resolve("trace"), app);
    assertUnharmedWithOneLine(plain(jdk, app), traced, "cannot write a trace to");
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void nonEmptyDirectoryIsRefused(Path jdk) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("used"));
    Files.writeString(dir.resolve("keep.txt"), "mine");
    String app = HelloApp.class.getName();
    Result traced = withAgent(jdk, "out=" + dir, app);
    assertUnharmedWithOneLine(plain(jdk, app), traced, "not empty");
    assertEquals(List.of(dir.resolve("keep.txt")), Files.list(dir).toList());
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void badOptionsLeaveTheAgentOff(Path jdk) {
    String app = HelloApp.class.getName();
    Result plain = plain(jdk, app);
    assertUnharmedWithOneLine(plain, withAgent(jdk, "bogus=1", app), "unknown option 'bogus'");
    assertUnharmedWithOneLine(plain, withAgent(jdk, "buffer=3k", app), "buffer=3k");
    assertUnharmedWithOneLine(
        plain, withAgent(jdk, "constructs=-locks,-nonsense", app), "unknown family 'nonsense'");
    assertUnharmedWithOneLine(plain, withAgent(jdk, "maxsize=lots", app), "maxsize=lots");
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void nothingPrintedWhenTheDirectoryIsGiven(Path jdk) {
    String app = HelloApp.class.getName();
    Result traced = withAgent(jdk, "out=" + tmp.resolve("trace"), app, "a", "b");
    Result plain = plain(jdk, app, "a", "b");
    assertEquals(0, traced.exitCode());
    assertEquals(plain.stdout(), traced.stdout());
    assertEquals("", traced.stderr());
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void defaultDirectoryIsAnnouncedInOneLine(Path jdk) throws Exception {
    String app = HelloApp.class.getName();
    Result traced = withAgent(jdk, "", app);
    assertEquals(plain(jdk, app).stdout(), traced.stdout());
    List<String> lines = traced.stderrLines();
    assertEquals(1, lines.size(), traced.stderr());
    String prefix =
        "weft: recording to " + tmp.toRealPath().resolve("weft-traces") + "/" + app + "-";
    assertTrue(lines.get(0).startsWith(prefix), lines.get(0) + " should start with " + prefix);
    assertTrue(lines.get(0).matches(".*-[0-9]+-[0-9]{8}-[0-9]{6}"), lines.get(0));
    Path dir = Path.of(lines.get(0).substring("weft: recording to ".length()));
    try (Trace t = Trace.open(dir)) {
      assertTrue(t.definitions().closedCleanly());
      assertEquals(app, t.definitions().process().mainClass());
    }
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void killedProgramLeavesAReadableTraceWithWhatItReported(Path jdk) throws Exception {
    Path trace = tmp.resolve("trace");
    List<String> cmd =
        ChildJvm.command(
            jdk, "out=" + trace, ChildJvm.classPath(), BusyApp.class.getName(), "forever");
    Process p = new ProcessBuilder(cmd).directory(tmp.toFile()).start();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ChildJvm.drain(p.getErrorStream(), err);
    long reported = 0;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (reported < 50_000 && (line = out.readLine()) != null) {
        if (line.startsWith("entered ")) {
          reported = Long.parseLong(line.substring("entered ".length()));
        }
      }
      p.destroyForcibly(); // SIGKILL: no shutdown hook runs
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    }
    assertEquals(137, p.exitValue(), "killed by SIGKILL");
    assertTrue(reported >= 50_000, "the program reported progress; stderr: " + err);

    try (Trace t = Trace.open(trace)) {
      assertFalse(t.definitions().closedCleanly());
      assertTrue(
          t.warnings().stream().anyMatch(w -> w.contains("not closed cleanly")),
          "the cut is reported");
      long enters = 0;
      var c = t.events();
      while (c.next()) {
        if (c.kind() == EventKind.ENTER) {
          enters++;
        }
      }
      assertTrue(enters >= reported, enters + " enters recorded, " + reported + " reported");
    }
  }
}
