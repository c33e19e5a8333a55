package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.WaitsApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.LockFlags;
import dev.weft.trace.RegionDef;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Waits ({@link WaitsApp}): a wait gives up its lock and takes it back (LOCK_RELEASED, WAIT_ENTER
 * ... WAIT_EXIT, LOCK_REQUEST, LOCK_ACQUIRED with AFTER_WAIT), notifications name the lock, sleeps
 * and parks last as long as they did, and spin loops become one spin each.
 */
@Tag("child-jvm")
class WaitsIT {
  private static final Class<?> APP = WaitsApp.class;

  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void waitsGiveUpTheirLockAndTakeItBack(Path jdk) {
    TraceFacts t = SyncTraces.run(jdk, tmp, "", APP).trace();

    // wait/notify on a monitor
    long monitor = lockAt(t, "monitor-ping", "synchronized", "// ping-pong synchronized site");
    int waits = 0;
    for (String player : List.of("monitor-ping", "monitor-pong")) {
      waits +=
          assertWaitsReleaseAndRetake(
              t, player, monitor, WaitKind.OBJECT_WAIT, "Object.wait", "// wait site");
      assertBalanced(t, player, monitor);
    }
    assertTrue(waits >= 1, "the first player waits for the second");
    assertNotifications(
        t,
        monitor,
        WaitKind.OBJECT_WAIT,
        "Object.notifyAll",
        "// notify site",
        2 * WaitsApp.ROUNDS);

    // await/signal on a ReentrantLock's condition: the lock is given up and taken back
    long lock = lockAt(t, "condition-ping", "ReentrantLock.lock", "// condition lock site");
    waits = 0;
    for (String player : List.of("condition-ping", "condition-pong")) {
      waits +=
          assertWaitsReleaseAndRetake(
              t, player, lock, WaitKind.CONDITION_AWAIT, "Condition.await", "// await site");
      assertBalanced(t, player, lock);
    }
    assertTrue(waits >= 1, "the first player waits for the second");
    assertNotifications(
        t,
        lock,
        WaitKind.CONDITION_AWAIT,
        "Condition.signalAll",
        "// signal site",
        2 * WaitsApp.ROUNDS);

    // sleeps
    int main = SyncTraces.stream(t, "main");
    assertWait(t, main, WaitKind.SLEEP, "Thread.sleep", "// sleep site", 30);
    assertWait(t, main, WaitKind.SLEEP, "TimeUnit.sleep", "// time unit sleep site", 20);

    // park and unpark
    int parker = SyncTraces.stream(t, "parker");
    Event park = SyncTraces.events(t, parker, EventKind.WAIT_ENTER_ON).get(0);
    assertEquals(WaitKind.PARK, park.get(Field.WAIT_KIND));
    assertSite(t, park, "LockSupport.park", ConstructKind.PARK, "// park site");
    Event unpark =
        SyncTraces.events(t, main, EventKind.NOTIFY).stream()
            .filter(e -> e.get(Field.WAIT_KIND) == WaitKind.PARK)
            .findFirst()
            .orElseThrow();
    assertSite(t, unpark, "LockSupport.unpark", ConstructKind.NOTIFY, "// unpark site");
    assertEquals("java.lang.Thread", t.definitions.object(unpark.get(Field.OBJECT)).className());
    // The park names its thread as the unpark does: the unpark is its waker, timed within it.
    assertEquals(park.get(Field.OBJECT), unpark.get(Field.OBJECT));
    List<Event> parks = SyncTraces.events(t, parker, EventKind.WAIT_ENTER_ON);
    List<Event> parkEnds = SyncTraces.events(t, parker, EventKind.WAIT_EXIT);
    boolean woken = false;
    for (int i = 0; i < parks.size() && i < parkEnds.size(); i++) {
      woken |= unpark.time() >= parks.get(i).time() && unpark.time() <= parkEnds.get(i).time();
    }
    assertTrue(woken, "the unpark within a park: " + parks + parkEnds + unpark);

    // spins: a loop is recorded as one spin (or a few pieces, when the host deschedules the
    // spinning thread in a way the JVM cannot tell from work), never as its thousands of calls;
    // the work between the loops is not spinning; the next event ends the spin.
    int spinner = SyncTraces.stream(t, "spinner");
    List<Event> spinnerEvents = t.eventsByStream.get(spinner);
    List<long[]> onSpin = new ArrayList<>();
    List<long[]> yield = new ArrayList<>();
    Event open = null;
    for (Event e : spinnerEvents) {
      if (e.kind() == EventKind.SPIN_ENTER) {
        assertEquals(null, open, "spins do not nest");
        open = e;
      } else if (e.kind() == EventKind.SPIN_EXIT) {
        assertEquals(open.get(Field.REGION), e.get(Field.REGION));
        RegionDef r = SyncTraces.regionOf(t, open);
        assertEquals(ConstructKind.SPIN, r.kind());
        (r.name().equals("Thread.onSpinWait") ? onSpin : yield)
            .add(new long[] {open.time(), e.time()});
        if (r.name().equals("Thread.onSpinWait")) {
          assertSite(t, open, "Thread.onSpinWait", ConstructKind.SPIN, "// spin site");
        } else {
          assertSite(t, open, "Thread.yield", ConstructKind.SPIN, "// yield site");
        }
        open = null;
      } else {
        assertEquals(null, open, "any other event ends a spin: " + e);
      }
    }
    assertTrue(onSpin.size() >= 1 && onSpin.size() <= 50, onSpin.size() + " onSpinWait pieces");
    assertTrue(yield.size() >= 1 && yield.size() <= 50, yield.size() + " yield pieces");
    long spinMs = WaitsApp.SPIN_MS * 1_000_000;
    long onSpinEnd = onSpin.get(onSpin.size() - 1)[1];
    long yieldStart = yield.get(0)[0];
    // the app makes the spin begin before main's sleep and go on after it (see WaitsApp.spinning)
    long[] sleep = waitAt(t, main, "// spin release sleep");
    assertTrue(
        onSpin.get(0)[0] < sleep[0] && onSpinEnd > sleep[1],
        "spun while main slept: spin "
            + (onSpin.get(0)[0] - sleep[0])
            + ".."
            + (onSpinEnd - sleep[0])
            + " ns from the start of main's sleep of "
            + (sleep[1] - sleep[0])
            + " ns");
    assertTrue(yield.get(yield.size() - 1)[1] - yieldStart >= spinMs * 9 / 10, "yielded SPIN_MS");
    assertTrue(
        yieldStart - onSpinEnd >= WaitsApp.WORK_MS * 1_000_000 * 98 / 100,
        "the work between the loops is not spinning");
  }

  /** The lock requested by thread {@code name} at the site marked {@code marker}. */
  private static long lockAt(TraceFacts t, String name, String regionName, String marker) {
    int stream = SyncTraces.stream(t, name);
    for (Event e : SyncTraces.events(t, stream, EventKind.LOCK_REQUEST)) {
      RegionDef r = SyncTraces.regionOf(t, e);
      if (r.name().equals(regionName) && r.firstLine() == SyncTraces.lineOf(APP, marker)) {
        return e.get(Field.OBJECT);
      }
    }
    throw new AssertionError("no request at " + marker + " on " + name);
  }

  /**
   * Every wait of {@code kind} on thread {@code name}: LOCK_RELEASED of {@code lock} just before
   * WAIT_ENTER; after WAIT_EXIT, LOCK_REQUEST and LOCK_ACQUIRED (AFTER_WAIT) of it. Returns the
   * number of waits.
   */
  private static int assertWaitsReleaseAndRetake(
      TraceFacts t, String name, long lock, long kind, String regionName, String marker) {
    List<Event> events = t.eventsByStream.get(SyncTraces.stream(t, name));
    int waits = 0;
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      if (e.kind() != EventKind.WAIT_ENTER) {
        continue;
      }
      waits++;
      assertEquals(kind, e.get(Field.WAIT_KIND));
      assertSite(t, e, regionName, kindOf(kind), marker);
      Event before = events.get(i - 1);
      assertEquals(EventKind.LOCK_RELEASED, before.kind());
      assertEquals(lock, before.get(Field.OBJECT));
      Event exit = events.get(i + 1);
      assertEquals(EventKind.WAIT_EXIT, exit.kind());
      assertEquals(e.get(Field.REGION), exit.get(Field.REGION));
      Event request = events.get(i + 2);
      assertEquals(EventKind.LOCK_REQUEST, request.kind());
      assertEquals(lock, request.get(Field.OBJECT));
      assertEquals(e.get(Field.REGION), request.get(Field.REGION));
      Event acquired = events.get(i + 3);
      assertEquals(EventKind.LOCK_ACQUIRED, acquired.kind());
      assertEquals(lock, acquired.get(Field.OBJECT));
      assertEquals(LockFlags.AFTER_WAIT, acquired.get(Field.FLAGS));
    }
    return waits;
  }

  private static ConstructKind kindOf(long waitKind) {
    return waitKind == WaitKind.OBJECT_WAIT
        ? ConstructKind.OBJECT_WAIT
        : ConstructKind.CONDITION_AWAIT;
  }

  /** As many acquisitions of {@code lock} as releases on thread {@code name}, never negative. */
  private static void assertBalanced(TraceFacts t, String name, long lock) {
    int held = 0;
    for (Event e : t.eventsByStream.get(SyncTraces.stream(t, name))) {
      if (e.kind() == EventKind.LOCK_ACQUIRED && e.get(Field.OBJECT) == lock) {
        held++;
      } else if (e.kind() == EventKind.LOCK_RELEASED && e.get(Field.OBJECT) == lock) {
        held--;
        assertTrue(held >= 0, "released more than acquired on " + name);
      }
    }
    assertEquals(0, held, "balanced on " + name);
  }

  private static void assertNotifications(
      TraceFacts t, long lock, long kind, String regionName, String marker, int count) {
    int seen = 0;
    for (Event e : t.all()) {
      if (e.kind() == EventKind.NOTIFY && e.get(Field.WAIT_KIND) == kind) {
        assertEquals(lock, e.get(Field.OBJECT), "the notification names the lock");
        assertSite(t, e, regionName, ConstructKind.NOTIFY, marker);
        seen++;
      }
    }
    assertEquals(count, seen);
  }

  private static void assertWait(
      TraceFacts t, int stream, long kind, String regionName, String marker, long atLeastMs) {
    List<Event> events = t.eventsByStream.get(stream);
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      if (e.kind() == EventKind.WAIT_ENTER
          && SyncTraces.regionOf(t, e).firstLine() == SyncTraces.lineOf(APP, marker)) {
        assertEquals(kind, e.get(Field.WAIT_KIND));
        assertSite(t, e, regionName, ConstructKind.SLEEP, marker);
        Event exit = events.get(i + 1);
        assertEquals(EventKind.WAIT_EXIT, exit.kind());
        assertTrue(exit.time() - e.time() >= atLeastMs * 1_000_000 * 98 / 100, regionName);
        return;
      }
    }
    throw new AssertionError("no " + regionName);
  }

  /** When the wait at the site marked {@code marker} on {@code stream} began and ended. */
  private static long[] waitAt(TraceFacts t, int stream, String marker) {
    List<Event> events = t.eventsByStream.get(stream);
    for (int i = 0; i + 1 < events.size(); i++) {
      Event e = events.get(i);
      if (e.kind() == EventKind.WAIT_ENTER
          && SyncTraces.regionOf(t, e).firstLine() == SyncTraces.lineOf(APP, marker)) {
        assertEquals(EventKind.WAIT_EXIT, events.get(i + 1).kind());
        return new long[] {e.time(), events.get(i + 1).time()};
      }
    }
    throw new AssertionError("no wait at " + marker);
  }

  private static void assertSite(
      TraceFacts t, Event e, String name, ConstructKind kind, String marker) {
    RegionDef r = SyncTraces.regionOf(t, e);
    assertEquals(name, r.name());
    assertEquals(kind, r.kind());
    assertEquals("WaitsApp.java", r.file());
    assertEquals(SyncTraces.lineOf(APP, marker), r.firstLine(), r.toString());
  }
}
