package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.LockContentionApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.RegionDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Contended locks: N workers take one lock in turn, each holding it for a known time (see {@link
 * LockContentionApp}). The recorded acquisitions must be a total order consistent with their
 * timestamps, and each worker's recorded wait (request to acquisition) must lie within the wait the
 * worker measured itself around its call, and add up to the same total. A ReentrantLock found free
 * is acquired with one timestamp for request and acquisition, a taken one with two.
 */
@Tag("child-jvm")
class LockContentionIT {
  private static final int WORKERS = 4;
  private static final long HOLD_MS = 40;

  /**
   * How much shorter a recorded wait may be than the one the worker measured around its call: the
   * agent's own calls, plus a descheduling on a busy host.
   */
  private static final long SLACK_NS = 5_000_000;

  @TempDir Path tmp;

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Path jdk : SyncTraces.jdks()) {
      for (String mode : List.of("reentrant", "block", "method")) {
        out.add(Arguments.of(jdk, mode));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{1} on {0}")
  @MethodSource("cases")
  void waitsAddUpAndAcquisitionsAreTotallyOrdered(Path jdk, String mode) throws IOException {
    Path measuredFile = tmp.resolve("waits.txt");
    TraceFacts t =
        SyncTraces.run(
                jdk,
                tmp,
                "",
                LockContentionApp.class,
                mode,
                Integer.toString(WORKERS),
                Long.toString(HOLD_MS),
                measuredFile.toString())
            .trace();
    Map<String, Long> measured = new HashMap<>();
    for (String line : Files.readAllLines(measuredFile)) {
      String[] parts = line.split(" ");
      measured.put(parts[0], Long.parseLong(parts[1]));
    }
    assertEquals(WORKERS, measured.size());

    // Every worker's request names the same lock, at the worker's call site.
    long lock = -1;
    for (int k = 0; k < WORKERS; k++) {
      int stream = SyncTraces.stream(t, "worker-" + k);
      List<Event> requests = SyncTraces.events(t, stream, EventKind.LOCK_REQUEST);
      assertEquals(1, requests.size(), "one request per worker: " + requests);
      assertSite(t, mode, SyncTraces.regionOf(t, requests.get(0)));
      long id = requests.get(0).get(Field.OBJECT);
      assertTrue(lock == -1 || lock == id, "one lock");
      lock = id;
    }
    ObjectDef def = t.definitions.object(lock);
    if (mode.equals("reentrant")) {
      assertEquals(ConstructKind.REENTRANT_LOCK, def.kind(), def.toString());
      assertEquals("java.util.concurrent.locks.ReentrantLock", def.className());
    } else {
      // Defined where first seen: main takes the monitor with a block in both modes.
      assertEquals(ConstructKind.MONITOR, def.kind(), def.toString());
    }

    List<SyncTraces.Acquisition> all = SyncTraces.acquisitions(t, lock);
    assertEquals(WORKERS + 1, all.size(), "main and each worker acquired once: " + all);
    all.sort(Comparator.comparingLong(a -> a.acquired));
    Set<Integer> streams = new HashSet<>();
    for (int i = 0; i < all.size(); i++) {
      SyncTraces.Acquisition a = all.get(i);
      assertEquals(0, a.flags, "neither re-entrant nor failed: " + a);
      assertTrue(a.request >= 0 && a.request <= a.acquired, "request before acquisition: " + a);
      assertTrue(a.released > a.acquired, "released after it was acquired: " + a);
      assertTrue(streams.add(a.stream));
      if (i > 0) {
        assertTrue(
            a.acquired >= all.get(i - 1).released,
            "acquired only after the previous holder released: " + all.get(i - 1) + " then " + a);
      }
    }

    if (mode.equals("reentrant")) {
      // The free lock is acquired at its first attempt: request and acquisition at one time. A
      // taken lock makes the thread wait: the request has its own time, before main's last hold.
      SyncTraces.Acquisition first = all.get(0);
      assertEquals(SyncTraces.stream(t, "main"), first.stream, "main first: " + first);
      assertEquals(0, first.waited(), "main's acquisition of the free lock: " + first);
      for (SyncTraces.Acquisition a : all.subList(1, all.size())) {
        assertTrue(a.waited() >= HOLD_MS * 1_000_000 * 98 / 100, "a worker waited: " + a);
      }
    }

    // Recorded waits lie within the measured ones and add up to the same total.
    long recordedTotal = 0;
    long measuredTotal = 0;
    for (int k = 0; k < WORKERS; k++) {
      String name = "worker-" + k;
      int stream = SyncTraces.stream(t, name);
      SyncTraces.Acquisition a =
          all.stream().filter(x -> x.stream == stream).findFirst().orElseThrow();
      long m = measured.get(name);
      assertTrue(a.waited() <= m, name + " recorded " + a.waited() + " > measured " + m);
      assertTrue(m - a.waited() <= SLACK_NS, name + " recorded " + a.waited() + ", measured " + m);
      assertTrue(
          a.released - a.acquired >= HOLD_MS * 1_000_000 * 98 / 100, "held as long as it slept");
      recordedTotal += a.waited();
      measuredTotal += m;
    }
    assertTrue(
        Math.abs(measuredTotal - recordedTotal) <= WORKERS * SLACK_NS,
        "recorded " + recordedTotal + " vs measured " + measuredTotal);
    // The k-th worker to get the lock waited for main's hold and the k-1 holds before its own.
    long atLeast = HOLD_MS * 1_000_000 * WORKERS * (WORKERS + 1) / 2;
    assertTrue(recordedTotal >= atLeast * 98 / 100, "recorded " + recordedTotal + " < " + atLeast);
  }

  private static ConstructKind expectedKind(String mode) {
    switch (mode) {
      case "reentrant":
        return ConstructKind.REENTRANT_LOCK;
      case "block":
        return ConstructKind.MONITOR;
      default:
        return ConstructKind.SYNCHRONIZED_METHOD;
    }
  }

  private static void assertSite(TraceFacts t, String mode, RegionDef r) {
    Class<?> app = LockContentionApp.class;
    assertEquals(expectedKind(mode), r.kind());
    assertEquals("LockContentionApp.java", r.file());
    switch (mode) {
      case "reentrant":
        assertEquals("ReentrantLock.lock", r.name());
        assertEquals(SyncTraces.lineOf(app, "// worker lock site"), r.firstLine());
        break;
      case "block":
        assertEquals("synchronized", r.name());
        assertEquals(SyncTraces.lineOf(app, "// worker synchronized site"), r.firstLine());
        break;
      default:
        assertEquals("synchronized LockContentionApp$Shared.hold", r.name());
        assertEquals("hold", r.method());
        assertEquals(app.getName() + "$Shared", r.declaringClass());
        assertEquals(SyncTraces.lineOf(app, "record(askedAt);"), r.firstLine());
        break;
    }
  }
}
