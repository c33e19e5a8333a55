package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.trace.Event;
import dev.weft.trace.EventCursor;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder in-process, behind the (unshaded) bridge. */
class RecorderTest {
  @TempDir Path tmp;

  @AfterEach
  void uninstall() {
    WeftBridge.install(null);
  }

  private List<Event> events(Path dir) {
    List<Event> out = new ArrayList<>();
    try (Trace t = Trace.open(dir)) {
      EventCursor c = t.events();
      while (c.next()) {
        out.add(c.snapshot());
      }
    }
    return out;
  }

  private static void defineRegions(TraceWriter writer, int... ids) throws java.io.IOException {
    for (int id : ids) {
      writer.defineRegion(
          new dev.weft.trace.RegionDef(
              id, dev.weft.trace.ConstructKind.USER_REGION, "r" + id, "C", "m", "C.java", id, 0));
    }
  }

  /** A pool whose overridden getter does something traced, as user code may. */
  private static final class TracedGetterPool extends ThreadPoolExecutor {
    TracedGetterPool() {
      super(2, 2, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
    }

    @Override
    public int getCorePoolSize() {
      WeftBridge.enter(99); // as if this method were @Traced
      return super.getCorePoolSize();
    }
  }

  @Test
  void whatTheRecorderCausesIsNotRecorded() throws Exception {
    Path dir = tmp.resolve("t");
    TraceWriter writer = TraceWriter.create(dir, TraceWriter.Options.defaults());
    defineRegions(writer, 1, 2, 99); // events name them: a reader rejects undefined regions
    Recorder r = new Recorder(writer, new RegionRegistry(writer), true, 0, null, false);
    WeftBridge.install(r);
    TracedGetterPool pool = new TracedGetterPool();
    WeftBridge.fork(1, pool, 2); // the recorder describes the pool: it calls getCorePoolSize()
    WeftBridge.join(1, pool);
    r.close(Map.of());
    pool.shutdown();
    List<String> seen = new ArrayList<>();
    for (Event e : events(dir)) {
      seen.add(e.kind().id());
    }
    assertEquals(
        List.of("fork", "join"), seen, "the getter's event, raised inside, is not recorded");
    try (Trace t = Trace.open(dir)) {
      assertEquals(2, t.definitions().pools().iterator().next().parallelism());
    }
  }

  @Test
  void threadsEndingBeforeTheJvmBaselineAreCountedAsMissedAndLaterOnesGetTheirCounts()
      throws Exception {
    Path dir = tmp.resolve("t");
    TraceWriter writer = TraceWriter.create(dir, TraceWriter.Options.defaults());
    defineRegions(writer, 1);
    Recorder r = new Recorder(writer, new RegionRegistry(writer), true, 0, null, false);
    WeftBridge.install(r);
    Thread early = runsARegion(r, "early");
    r.takeJvmBaseline();
    Thread late = runsARegion(r, "late");
    r.close(Map.of());
    try (Trace t = Trace.open(dir)) {
      assertEquals("1", t.definitions().attributes().get("agent.jvm_counts_missed"));
      int lateStream = -1;
      int earlyStream = -1;
      for (ThreadDef d : t.definitions().threads()) {
        if (d.name().equals(late.getName())) {
          lateStream = d.stream();
        } else if (d.name().equals(early.getName())) {
          earlyStream = d.stream();
        }
      }
      assertTrue(t.definitions().jvmCounts(lateStream) != null, "the later thread is counted");
      assertNull(t.definitions().jvmCounts(earlyStream), "the early one has no record");
    }
  }

  @Test
  void startingARecorderTakesNoNumberFromTheJvmsThreadNames() throws Exception {
    // An application printing its unnamed threads' names ("Thread-N") prints the same with the
    // agent: the recorder's start does not create an unnamed thread.
    int before = threadNumber(new Thread(() -> {}));
    TraceWriter writer = TraceWriter.create(tmp.resolve("t"), TraceWriter.Options.defaults());
    Recorder r = new Recorder(writer, new RegionRegistry(writer), true, 0, null, false);
    int after = threadNumber(new Thread(() -> {}));
    r.close(Map.of());
    assertEquals(before + 1, after);
  }

  private static int threadNumber(Thread t) {
    return Integer.parseInt(t.getName().substring("Thread-".length()));
  }

  /** A thread created now that enters and exits region 1, then ends (its run() hook). */
  private static Thread runsARegion(Recorder r, String name) throws InterruptedException {
    Thread t =
        new Thread(
            () -> {
              r.enter(1);
              r.exit(1);
              r.threadEnd();
            },
            name);
    t.start();
    t.join();
    return t;
  }

  @Test
  void userRegionsStayBalancedAcrossOnAndOff() throws Exception {
    Path dir = tmp.resolve("t");
    TraceWriter writer = TraceWriter.create(dir, TraceWriter.Options.defaults());
    defineRegions(writer, 1, 2, 99); // events name them: a reader rejects undefined regions
    Recorder r = new Recorder(writer, new RegionRegistry(writer), true, 0, null, false);
    WeftBridge.install(r);
    WeftBridge.userRegionExit(); // nothing open: nothing happens
    WeftBridge.userRegionEnter(1);
    WeftBridge.measurementOff();
    WeftBridge.userRegionEnter(2); // not recorded, and so its exit is not either
    WeftBridge.measurementOn();
    WeftBridge.userRegionExit(); // exits 2: nothing recorded
    WeftBridge.userRegionExit(); // exits 1
    r.close(Map.of());
    List<String> seen = new ArrayList<>();
    for (Event e : events(dir)) {
      seen.add(e.kind().id() + (e.kind().fieldCount() > 0 ? " " + e.field(0) : ""));
    }
    assertEquals(List.of("enter 1", "measurement_off", "measurement_on", "exit 1"), seen);
    assertFalse(r.isRecording());
  }

  /** The kinds and first fields of a trace's events, in order. */
  private List<String> kinds(Path dir) {
    List<String> seen = new ArrayList<>();
    for (Event e : events(dir)) {
      seen.add(e.kind().id() + (e.kind().fieldCount() > 0 ? " " + e.field(0) : ""));
    }
    return seen;
  }

  private Recorder recorder(Path dir) throws java.io.IOException {
    TraceWriter writer = TraceWriter.create(dir, TraceWriter.Options.defaults());
    defineRegions(writer, 1, 2, 3);
    return new Recorder(writer, new RegionRegistry(writer), true, 0, null, false);
  }

  /**
   * Each recorder finds its own state of a thread, though the states of recent threads are kept in
   * one table for all recorders (EventPath.state): two recorders in turn on one thread, then one
   * after the other closed (as at a detach and a new attach), each write to their own trace only.
   */
  @Test
  void recordersOnOneThreadEachRecordIntoTheirOwnTrace() throws Exception {
    Recorder first = recorder(tmp.resolve("first"));
    Recorder second = recorder(tmp.resolve("second"));
    first.userRegionEnter(1);
    second.userRegionEnter(2);
    first.userRegionExit();
    second.userRegionExit();
    first.close(Map.of());
    second.userRegionEnter(2);
    second.userRegionExit();
    second.close(Map.of());
    Recorder third = recorder(tmp.resolve("third"));
    third.userRegionEnter(3);
    third.userRegionExit();
    third.close(Map.of());
    assertEquals(List.of("enter 1", "exit 1"), kinds(tmp.resolve("first")));
    assertEquals(List.of("enter 2", "exit 2", "enter 2", "exit 2"), kinds(tmp.resolve("second")));
    assertEquals(List.of("enter 3", "exit 3"), kinds(tmp.resolve("third")));
  }

  /**
   * Threads of one recorder, more than the table of recent states holds, keep their own streams.
   */
  @Test
  void manyThreadsEachRecordIntoTheirOwnStream() throws Exception {
    Path dir = tmp.resolve("t");
    Recorder r = recorder(dir);
    int threads = 1100; // more than EventPath's table: the first and the last share slots
    int held = 80;
    List<Thread> started = new ArrayList<>();
    java.util.concurrent.CountDownLatch lastDone = new java.util.concurrent.CountDownLatch(1);
    for (int i = 0; i < threads; i++) {
      int region = 1 + i % 3;
      boolean first = i < held;
      boolean last = i == threads - 1;
      Thread t =
          new Thread(
              () -> {
                r.userRegionEnter(region);
                if (first) {
                  try {
                    // Alive, in their slots, while the last threads (ids 1,024 on) take theirs.
                    lastDone.await(30, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    throw new AssertionError(e);
                  }
                }
                r.userRegionExit();
                if (last) {
                  lastDone.countDown();
                }
              });
      started.add(t);
    }
    for (Thread t : started) {
      t.start();
    }
    for (Thread t : started) {
      t.join();
    }
    r.close(Map.of());
    try (Trace t = Trace.open(dir)) {
      java.util.Collection<ThreadDef> defined = t.definitions().threads();
      for (ThreadDef d : defined) {
        List<String> seen = new ArrayList<>();
        EventCursor c = t.stream(d.stream());
        while (c.next()) {
          seen.add(c.kind().id());
        }
        assertEquals(List.of("enter", "exit"), seen, "thread " + d.javaId());
      }
      assertEquals(threads, defined.size());
    }
  }

  @Test
  void aFailingRecorderIsUninstalledAndClosesTheTrace() throws Exception {
    Path dir = tmp.resolve("t");
    TraceWriter writer = TraceWriter.create(dir, TraceWriter.Options.defaults());
    defineRegions(writer, 1, 2, 99); // events name them: a reader rejects undefined regions
    Recorder r = new Recorder(writer, new RegionRegistry(writer), true, 3, null, false);
    WeftBridge.install(r);
    for (int i = 0; i < 5; i++) {
      WeftBridge.enter(1); // the third throws inside the recorder; the bridge swallows it
    }
    assertNull(WeftBridge.installed());
    assertTrue(r.isClosed());
    try (Trace t = Trace.open(dir)) {
      assertTrue(t.definitions().closedCleanly());
      assertTrue(t.definitions().attributes().get("agent.stopped_by").contains("test.fail=3"));
    }
    assertEquals(2, events(dir).size());
  }
}
