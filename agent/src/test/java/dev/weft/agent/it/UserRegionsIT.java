package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm.Result;
import dev.weft.agentit.apps.ManyThreadsApp;
import dev.weft.agentit.apps.RegionsApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.ThreadDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** User regions, {@code @Traced} and on/off, recorded by the shaded agent in a child JVM. */
@Tag("child-jvm")
class UserRegionsIT {
  private static final Path SOURCE = Path.of("src/test/java/dev/weft/agentit/apps/RegionsApp.java");
  private static final String APP = RegionsApp.class.getName();

  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  /** The 1-based line of the test app's source that contains {@code marker}. */
  private static int lineOf(String marker) throws IOException {
    List<String> lines = Files.readAllLines(SOURCE);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(marker)) {
        return i + 1;
      }
    }
    throw new AssertionError(marker + " not in " + SOURCE);
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void regionsAreRecordedWithNamesLinesAndNesting(Path jdk) throws IOException {
    Path trace = tmp.resolve("trace");
    String cp = ChildJvm.classPath();
    Result plain = ChildJvm.run(ChildJvm.command(jdk, null, cp, APP), tmp);
    Result traced = ChildJvm.run(ChildJvm.command(jdk, "out=" + trace, cp, APP), tmp);

    assertEquals(0, plain.exitCode(), plain.stderr());
    assertEquals(0, traced.exitCode(), traced.stderr());
    assertEquals(plain.stdout(), traced.stdout(), "the agent must not change the output");
    assertEquals("", traced.stderr(), "nothing on stderr when out= is given");
    assertEquals("", plain.stderr());
    assertTrue(traced.stdout().contains("recording while off: false"), traced.stdout());

    TraceFacts t = TraceFacts.read(trace);
    assertTrue(t.definitions.closedCleanly());
    assertEquals(List.of(), t.warnings);
    for (StreamCursor.State s : t.states.values()) {
      assertEquals(StreamCursor.State.COMPLETE, s);
    }

    RegionDef outer = t.region("outer");
    assertEquals(ConstructKind.USER_REGION, outer.kind());
    assertEquals("RegionsApp.java", outer.file());
    assertEquals(APP, outer.declaringClass());
    assertEquals("main", outer.method());
    assertEquals(lineOf("// outer site"), outer.firstLine());
    assertEquals("RegionsApp.java:" + lineOf("// outer site"), outer.location());
    RegionDef inner = t.region("inner");
    assertEquals(lineOf("// inner site"), inner.firstLine());
    assertEquals(5, t.count(EventKind.ENTER, inner.id()));
    assertEquals(5, t.count(EventKind.EXIT, inner.id()));

    // A name computed at run time: one region per distinct name, all at the same call site.
    for (String name : List.of("item-0", "item-1", "item-2")) {
      RegionDef item = t.region(name);
      assertEquals(lineOf("// computed-name site"), item.firstLine());
      assertEquals("sumTo", item.method());
      assertEquals(2, t.count(EventKind.ENTER, item.id()), name);
    }

    RegionDef square = t.region("RegionsApp.square");
    assertEquals(ConstructKind.TRACED_METHOD, square.kind());
    assertEquals(lineOf("return x * x;"), square.firstLine());
    assertEquals(
        7, t.count(EventKind.ENTER, square.id()), "5 on main + 2 on the worker, 0 while off");
    assertEquals(7, t.count(EventKind.EXIT, square.id()));
    RegionDef failing = t.region("failing");
    assertEquals(lineOf("if (x > 0) {"), failing.firstLine());
    assertEquals(lineOf("return x;"), failing.lastLine());
    assertEquals(3, t.count(EventKind.ENTER, failing.id()));
    assertEquals(3, t.count(EventKind.EXIT, failing.id()), "exits also when an exception leaves");
    RegionDef make = t.region("make");
    assertEquals("<init>", make.method());
    assertEquals(1, t.count(EventKind.ENTER, make.id()));
    assertEquals(1, t.count(EventKind.EXIT, make.id()));
    assertEquals(1, t.count(EventKind.ENTER, t.region("RegionsApp.sumTo").id()));

    // While off nothing is recorded: the region exists (woven) but was never entered.
    assertEquals(0, t.count(EventKind.ENTER, t.region("while-off").id()));
    assertEquals(1, t.count(EventKind.MEASUREMENT_OFF));
    assertEquals(1, t.count(EventKind.MEASUREMENT_ON));

    int mainStream = streamNamed(t, "main");
    List<Event> main = t.eventsByStream.get(mainStream);
    int off = indexOf(main, EventKind.MEASUREMENT_OFF);
    assertEquals(EventKind.MEASUREMENT_ON, main.get(off + 1).kind(), "no events while off");
    assertProperlyNested(t, mainStream);
    assertEquals("+outer", t.enterExitNames(mainStream).get(0));

    // The worker renamed itself between its two regions.
    int workerStream = streamNamed(t, "renamed-worker");
    ThreadDef worker = t.definitions.thread(workerStream);
    assertEquals(
        List.of("first-name", "renamed-worker"),
        worker.names().stream().map(ThreadDef.Rename::name).toList());
    assertEquals(
        List.of(
            "+worker-before",
            "+RegionsApp.square",
            "-RegionsApp.square",
            "-worker-before",
            "+worker-after",
            "+RegionsApp.square",
            "-RegionsApp.square",
            "-worker-after"),
        t.enterExitNames(workerStream));
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void constructsOptionTurnsRegionsOff(Path jdk) {
    Path trace = tmp.resolve("trace");
    Result r =
        ChildJvm.run(
            ChildJvm.command(
                jdk, "out=" + trace + ",constructs=-regions", ChildJvm.classPath(), APP),
            tmp);
    assertEquals(0, r.exitCode(), r.stderr());
    assertEquals("", r.stderr());
    TraceFacts t = TraceFacts.read(trace);
    // Other families (threads, joins) still weave the app; none of its regions is a user region.
    assertTrue(
        t.definitions.regions().stream()
            .noneMatch(
                d ->
                    d.kind() == ConstructKind.USER_REGION
                        || d.kind() == ConstructKind.TRACED_METHOD),
        "no user region woven");
    assertTrue(
        t.all().stream()
            .noneMatch(
                e ->
                    e.kind() == EventKind.ENTER
                        || e.kind() == EventKind.EXIT
                        || e.kind() == EventKind.MEASUREMENT_OFF
                        || e.kind() == EventKind.MEASUREMENT_ON),
        "no region entered, measurement untouched");
    assertFalse(r.stdout().contains("recording while off: true"));
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void manyThreadsRecordConcurrentlyIntoTheirOwnStreams(Path jdk) {
    Path trace = tmp.resolve("trace");
    String app = ManyThreadsApp.class.getName();
    String cp = ChildJvm.classPath();
    Result plain = ChildJvm.run(ChildJvm.command(jdk, null, cp, app), tmp);
    // Regions only: the threads family would add each thread's THREAD_BEGIN/END.
    Result traced =
        ChildJvm.run(ChildJvm.command(jdk, "out=" + trace + ",constructs=regions", cp, app), tmp);
    assertEquals(0, traced.exitCode(), traced.stderr());
    assertEquals(plain.stdout(), traced.stdout());
    assertEquals("", traced.stderr());

    TraceFacts t = TraceFacts.read(trace);
    assertEquals(List.of(), t.warnings);
    assertTrue(t.definitions.closedCleanly());
    int longLived = t.region("long-lived").id();
    int shortLived = t.region("short-lived").id();
    int leaf = t.region("ManyThreadsApp.leaf").id();
    int longStreams = 0;
    int shortStreams = 0;
    for (ThreadDef d : t.definitions.threads()) {
      assertEquals(StreamCursor.State.COMPLETE, t.states.get(d.stream()), d.name());
      assertProperlyNested(t, d.stream());
      List<Event> events = t.eventsByStream.get(d.stream());
      if (d.name().startsWith("long-")) {
        longStreams++;
        assertEquals(80_000, events.size(), d.name() + ": 20000 x (region + leaf) x 2");
        assertEquals(20_000, events.stream().filter(e -> e.field(0) == longLived).count() / 2);
      } else if (d.name().startsWith("short-")) {
        shortStreams++;
        assertEquals(4, events.size(), d.name());
        assertEquals(shortLived, events.get(0).field(0));
        assertEquals(leaf, events.get(1).field(0));
      }
    }
    assertEquals(8, longStreams);
    assertEquals(300, shortStreams);
  }

  private static int streamNamed(TraceFacts t, String name) {
    for (ThreadDef d : t.definitions.threads()) {
      if (d.name().equals(name)) {
        return d.stream();
      }
    }
    throw new AssertionError("no thread named " + name + " in " + t.definitions.threads());
  }

  private static int indexOf(List<Event> events, EventKind kind) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).kind() == kind) {
        return i;
      }
    }
    throw new AssertionError("no " + kind);
  }

  /** Every EXIT closes the innermost open ENTER, and nothing stays open. */
  private static void assertProperlyNested(TraceFacts t, int stream) {
    Deque<Long> open = new ArrayDeque<>();
    for (Event e : t.eventsByStream.get(stream)) {
      if (e.kind() == EventKind.ENTER) {
        open.push(e.field(0));
      } else if (e.kind() == EventKind.EXIT) {
        assertFalse(open.isEmpty(), "exit without enter: " + e);
        assertEquals(open.pop(), e.field(0), "exit does not match the innermost enter");
      }
    }
    assertTrue(open.isEmpty(), "regions left open: " + open);
  }
}
