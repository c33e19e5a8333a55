package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.AttachSyncApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Monitors when the agent attaches to a running JVM ({@link AttachSyncApp}): a synchronized method
 * of a class loaded before the attach keeps its modifier (retransformation cannot change it), so
 * its acquisitions are recorded without their wait; one of a class loaded after is rewritten and
 * its wait is recorded; synchronized blocks are recorded either way; detaching leaves the program
 * running as before.
 */
@Tag("child-jvm")
class AttachSyncIT {
  private static final Class<?> APP = AttachSyncApp.class;
  private static final long HOLD_NS = AttachSyncApp.HOLD_MS * 1_000_000;

  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  private ChildJvm.Result run(Path jdk, String... args) {
    ChildJvm.Result r = ChildJvm.run(ChildJvm.selfAttachCommand(jdk, APP.getName(), args), tmp);
    assertEquals(0, r.exitCode(), r.stderr());
    assertEquals("", r.stderr());
    return r;
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void attachCoversBlocksAndHoldsOfMethodsLoadedBefore(Path jdk) {
    Path trace = tmp.resolve("trace");
    ChildJvm.Result plain = run(jdk, "none");
    ChildJvm.Result attached = run(jdk, ChildJvm.AGENT_JAR.toString(), "out=" + trace);
    assertEquals(plain.stdout(), attached.stdout());

    TraceFacts t = TraceFacts.read(trace);
    assertTrue(t.definitions.closedCleanly());
    assertEquals("true", t.definitions.attributes().get("agent.attached"));
    assertEquals("true", t.definitions.attributes().get("agent.detached"));
    assertNull(t.definitions.attributes().get("agent.weave_errors"));
    SyncTraces.assertRecorderNeverTracedItself(t);

    long early =
        heldOnce(t, "synchronized AttachSyncApp$Early.method", "// early synchronized method");
    assertTrue(early < HOLD_NS / 5, "a method loaded before the attach shows no wait: " + early);
    long late =
        heldOnce(t, "synchronized AttachSyncApp$Late.method", "// late synchronized method");
    assertTrue(late >= HOLD_NS / 2, "a method loaded after the attach shows its wait: " + late);
    heldOnce(t, "synchronized", "// early synchronized block");
  }

  /**
   * The one acquisition on main at the region named {@code name} whose lines include {@code
   * marker}'s (a synchronized method's region spans its body, a block's is its line): its lock is
   * released afterwards; returns its wait.
   */
  private static long heldOnce(TraceFacts t, String name, String marker) {
    int line = SyncTraces.lineOf(APP, marker);
    int main = SyncTraces.stream(t, "main");
    List<SyncTraces.Acquisition> found =
        SyncTraces.acquisitions(t, anyLockAt(t, name, line)).stream()
            .filter(a -> a.stream == main && a.requestRegion > 0)
            .filter(a -> covers(t.definitions.region(a.requestRegion), name, line))
            .toList();
    assertEquals(1, found.size(), name + ": recorded once, before the detach: " + found);
    SyncTraces.Acquisition a = found.get(0);
    assertEquals(0, a.flags);
    assertTrue(a.released >= a.acquired, "released: " + a);
    return a.waited();
  }

  private static boolean covers(RegionDef r, String name, int line) {
    return r.name().equals(name) && r.firstLine() <= line + 1 && line <= r.lastLine() + 1;
  }

  private static long anyLockAt(TraceFacts t, String name, int line) {
    for (Event e : t.all()) {
      if (e.kind() == EventKind.LOCK_REQUEST) {
        RegionDef r = SyncTraces.regionOf(t, e);
        if (covers(r, name, line)) {
          assertTrue(
              r.kind() == ConstructKind.MONITOR || r.kind() == ConstructKind.SYNCHRONIZED_METHOD);
          return e.get(Field.OBJECT);
        }
      }
    }
    throw new AssertionError("no " + name + " near line " + line);
  }
}
