package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.cause;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.analysis.AnalysisResult.RegionResult;
import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BarrierWaitTest {
  @TempDir Path tmp;

  /**
   * Three threads, two generations of a CyclicBarrier with staggered arrivals. Generation 0: a at
   * 100, b at 200, c at 300 (last); departures c 310, b 320, a 330. Generation 1: c 400, b 450, a
   * 600 (last); departures a 605, b 610, c 640.
   */
  private AnalysisResult staggered() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int solve = f.region("solve", ConstructKind.USER_REGION, 10);
    int await = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 40);
    f.object(100, ConstructKind.CYCLIC_BARRIER, 3);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    StreamWriter c = f.thread("c", 0);
    for (StreamWriter s : new StreamWriter[] {a, b, c}) {
      s.enter(0, solve);
    }
    a.barrierEnter(100, await, 100, 0);
    b.barrierEnter(200, await, 100, 0);
    c.barrierEnter(300, await, 100, 0);
    c.barrierExit(310, await, 100, 0, BarrierOutcome.LAST);
    b.barrierExit(320, await, 100, 0, 0);
    a.barrierExit(330, await, 100, 0, 0);
    c.barrierEnter(400, await, 100, 1);
    b.barrierEnter(450, await, 100, 1);
    a.barrierEnter(600, await, 100, 1);
    a.barrierExit(605, await, 100, 1, BarrierOutcome.LAST);
    b.barrierExit(610, await, 100, 1, 0);
    c.barrierExit(640, await, 100, 1, 0);
    for (StreamWriter s : new StreamWriter[] {a, b, c}) {
      s.exit(900, solve);
      s.threadEnd(1000);
    }
    return Analyzer.analyze(f.close(1000));
  }

  @Test
  void splitsWaitingForLastArrivalFromReleaseLatency() {
    AnalysisResult r = staggered();
    // gen 0: a 230 (200 + 30), b 120 (100 + 20), c 10 (0 + 10)
    // gen 1: c 240 (200 + 40), b 160 (150 + 10), a 5 (0 + 5)
    assertEquals(235, onThread(r, "barrier_wait", "a"));
    assertEquals(280, onThread(r, "barrier_wait", "b"));
    assertEquals(250, onThread(r, "barrier_wait", "c"));
    assertEquals(765, severity(r, "barrier_wait"));
    assertEquals(650, cause(r, "barrier_wait", "waiting_for_last_ns"));
    assertEquals(115, cause(r, "barrier_wait", "release_latency_ns"));
    assertEquals(
        765, atPath(r, "barrier_wait", label("solve", 10), label("CyclicBarrier.await", 40)));
    assertEquals(3000, r.timeNs());
    assertEquals(3000 - 765, severity(r, "execution"));
    Check.partition(r, Map.of("a", 1000L, "b", 1000L, "c", 1000L));
    Check.allPresent(r);
  }

  @Test
  void barrierRegionBusyTimeIsArrivalMinusPreviousDepartureMinusWaits() {
    AnalysisResult r = staggered();
    RegionResult g = Check.region(r, "CyclicBarrier.await");
    assertEquals("Main.java:40", g.location());
    assertEquals(2, g.instances());
    // busy: a 100 + (600-330) = 370; b 200 + (450-320) = 330; c 300 + (400-310) = 390
    assertEquals(Map.of("a", 370L, "b", 330L, "c", 390L), g.busyNsByThread());
    double mean = (370 + 330 + 390) / 3.0;
    assertEquals(Math.round((390 - mean) / mean * 10_000) / 10_000.0, g.imbalance(), 1e-9);
    // Per generation, each loses the busiest's busy time minus its own, at most its wait for the
    // last arrival. gen 0 busy a 100, b 200, c 300: a 200, b 100. gen 1 busy a 270, b 130, c 90:
    // b 140, c 180.
    assertEquals(200 + 100 + 140 + 180, g.lostNs());
    assertEquals(620, severity(r, "work_imbalance"));
    assertEquals(240, onThread(r, "work_imbalance", "b"));
  }

  /**
   * The recorder opens a thread's stream (defines it) at its start and only then writes
   * THREAD_BEGIN: the time in between is the recorder's, not the thread's work, and must not make
   * the thread look busier (b's stream took 80 ns to open).
   */
  @Test
  void aThreadBeginsAtThreadBeginNotAtItsDefinition() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int await = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 40);
    f.object(7, ConstructKind.CYCLIC_BARRIER, 2);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 20);
    a.threadBegin(0);
    b.threadBegin(100);
    a.barrierEnter(300, await, 7, 0);
    b.barrierEnter(400, await, 7, 0);
    b.barrierExit(400, await, 7, 0, BarrierOutcome.LAST);
    a.barrierExit(410, await, 7, 0, 0);
    a.threadEnd(500);
    b.threadEnd(500);
    AnalysisResult r = Analyzer.analyze(f.close(500));
    RegionResult g = Check.region(r, "CyclicBarrier.await");
    assertEquals(Map.of("a", 300L, "b", 300L), g.busyNsByThread());
    assertEquals(0, g.lostNs());
    Check.partition(r, Map.of("a", 500L, "b", 400L));
  }

  @Test
  void timeoutsAndBrokenBarriersStillCountAsWait() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int await = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 40);
    f.object(7, ConstructKind.CYCLIC_BARRIER, 2);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    a.barrierEnter(100, await, 7, 0);
    a.barrierExit(150, await, 7, 0, BarrierOutcome.TIMEOUT);
    b.barrierEnter(200, await, 7, 0);
    b.barrierExit(201, await, 7, 0, BarrierOutcome.BROKEN);
    AnalysisResult r = Analyzer.analyze(f.close(300));
    assertEquals(50, onThread(r, "barrier_wait", "a"));
    assertEquals(1, onThread(r, "barrier_wait", "b"));
    Check.partition(r, Map.of("a", 300L, "b", 300L));
  }

  /**
   * A CG-like solver: threads and a CyclicBarrier, no pool. Each thread's busy time is its
   * execution between departures and arrivals; a lock wait inside an interval is not busy.
   */
  @Test
  void barrierBusyTimeExcludesWaitsBetweenArrivals() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int await = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 40);
    int sync = f.region("synchronized", ConstructKind.MONITOR, 41);
    f.object(100, ConstructKind.CYCLIC_BARRIER, 2);
    f.object(200, ConstructKind.MONITOR, 0);
    StreamWriter a = f.thread("cg-0", 0);
    StreamWriter b = f.thread("cg-1", 0);
    // generation 0: a works 0..100, b holds the lock 20..60 while a waits for it 30..60
    b.lockRequest(20, sync, 200);
    b.lockAcquired(20, 200, 0);
    a.lockRequest(30, sync, 200);
    b.lockReleased(60, 200);
    a.lockAcquired(60, 200, 0);
    a.lockReleased(70, 200);
    a.barrierEnter(100, await, 100, 0);
    b.barrierEnter(150, await, 100, 0);
    b.barrierExit(150, await, 100, 0, BarrierOutcome.LAST);
    a.barrierExit(155, await, 100, 0, 0);
    // generation 1: a 155..355, b 150..250
    b.barrierEnter(250, await, 100, 1);
    a.barrierEnter(355, await, 100, 1);
    a.barrierExit(355, await, 100, 1, BarrierOutcome.LAST);
    b.barrierExit(360, await, 100, 1, 0);
    AnalysisResult r = Analyzer.analyze(f.close(400));
    RegionResult g = Check.region(r, "CyclicBarrier.await");
    // a: 100 - 30 (lock wait) + 200; b: 150 + 100
    assertEquals(Map.of("cg-0", 270L, "cg-1", 250L), g.busyNsByThread());
    assertEquals(Math.round((270 - 260.0) / 260.0 * 10_000) / 10_000.0, g.imbalance(), 1e-9);
    // gen 0: a's lock wait is not busy, but a waited only 50 at the barrier, so it lost 50 there
    // (the rest is monitor_contention); gen 1: b lost 100.
    assertEquals(50 + 100, g.lostNs());
    assertEquals(30, onThread(r, "monitor_contention", "cg-0"));
    Check.partition(r, Map.of("cg-0", 400L, "cg-1", 400L));
  }
}
