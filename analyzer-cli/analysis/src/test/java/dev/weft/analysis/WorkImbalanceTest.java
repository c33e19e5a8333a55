package dev.weft.analysis;

import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.AnalysisResult.RegionResult;
import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** work_imbalance per instance, each with its own team. */
class WorkImbalanceTest {
  @TempDir Path tmp;

  /**
   * Busy times balance over the whole run (1100 each), but in every round one thread works 900 and
   * the two others 100 then wait 800 for it: 2 × 800 lost per thread.
   */
  @Test
  void aRotatingStragglerLosesTimeInEveryRound() {
    AnalysisResult r = Analyzer.analyze(TraceFixture.rotatingStraggler(tmp.resolve("t")));
    RegionResult g = Check.region(r, "CyclicBarrier.await");
    assertEquals(Map.of("a", 1100L, "b", 1100L, "c", 1100L), g.busyNsByThread());
    assertEquals(0, g.imbalance(), 1e-9);
    assertEquals(3 * 1600, g.lostNs());
    for (String t : List.of("a", "b", "c")) {
      assertEquals(1600, onThread(r, "work_imbalance", t));
    }
  }

  /**
   * Like jsr166 LockLoops: main meets one worker, sleeps, then meets three new workers, at one
   * barrier call site with a new barrier object per test. Each test has a start gate (generation 0)
   * and an end (generation 1) while main only waits.
   */
  @Test
  void theTeamOfEachGenerationIsTheThreadsThatArrivedAndSetupIsNotImbalance() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int await = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 40);
    int sleep = f.region("Thread.sleep", ConstructKind.SLEEP, 50);
    f.object(7, ConstructKind.CYCLIC_BARRIER, 2);
    f.object(8, ConstructKind.CYCLIC_BARRIER, 4);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w1 = f.thread("w1", 100);
    // test 1, gate: busy main 120, w1 10; w1 waits 10 for main
    w1.barrierEnter(110, await, 7, 0);
    m.barrierEnter(120, await, 7, 0);
    m.barrierExit(120, await, 7, 0, BarrierOutcome.LAST);
    w1.barrierExit(125, await, 7, 0, 0);
    // test 1, end: main 10, w1 400; main waits 395, loses 390
    m.barrierEnter(130, await, 7, 1);
    w1.barrierEnter(525, await, 7, 1);
    w1.barrierExit(525, await, 7, 1, BarrierOutcome.LAST);
    m.barrierExit(530, await, 7, 1, 0);
    w1.threadEnd(600);
    m.waitEnter(540, sleep, WaitKind.SLEEP);
    m.waitExit(1540, sleep);
    StreamWriter[] w = {f.thread("w2", 1500), f.thread("w3", 1500), f.thread("w4", 1500)};
    // test 2, gate: main 1040 (its sleep and setup since 530), workers 50, 55, 60; they wait
    // 20, 15, 10 for main: only that is lost
    for (int i = 0; i < 3; i++) {
      w[i].barrierEnter(1550 + 5 * i, await, 8, 0);
    }
    m.barrierEnter(1570, await, 8, 0);
    m.barrierExit(1570, await, 8, 0, BarrierOutcome.LAST);
    for (StreamWriter s : w) {
      s.barrierExit(1575, await, 8, 0, 0);
    }
    // test 2, end: main 10, workers 300 each; main waits 295, loses 290
    m.barrierEnter(1580, await, 8, 1);
    for (int i = 0; i < 3; i++) {
      w[i].barrierEnter(1875, await, 8, 1);
    }
    w[2].barrierExit(1875, await, 8, 1, BarrierOutcome.LAST);
    for (StreamWriter s : List.of(w[0], w[1], m)) {
      s.barrierExit(1880, await, 8, 1, 0);
    }
    for (StreamWriter s : w) {
      s.threadEnd(1900);
    }
    AnalysisResult r = Analyzer.analyze(f.close(2000));
    assertEquals(390 + 290, onThread(r, "work_imbalance", "main"));
    assertEquals(10, onThread(r, "work_imbalance", "w1"));
    assertEquals(20, onThread(r, "work_imbalance", "w2"));
    assertEquals(15, onThread(r, "work_imbalance", "w3"));
    assertEquals(10, onThread(r, "work_imbalance", "w4"));
    assertEquals(735, severity(r, "work_imbalance"));
    assertEquals(735, Check.region(r, "CyclicBarrier.await").lostNs());
    for (String t : List.of("main", "w1", "w2", "w3", "w4")) {
      assertTrue(
          onThread(r, "work_imbalance", t) <= onThread(r, "barrier_wait", t),
          t + ": imbalance above its barrier wait");
    }
  }

  /**
   * A thread that arrives more than once in a generation is one member of its team, its busy times
   * added up, losing at most what it waited from its last arrival: a count-down then an await (a
   * works 10, b 30: a loses 20, not 20 for each of its two arrivals), and a latch that two workers
   * count down 50 times each, as their tasks end, while main awaits it (before, each count-down
   * lost the time to the generation's end again: 50 times a worker's time, above the run's length).
   */
  @Test
  void aThreadArrivingAgainInAGenerationIsOneMember() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int countDown = f.region("CountDownLatch.countDown", ConstructKind.COUNT_DOWN_LATCH, 40);
    int await = f.region("CountDownLatch.await", ConstructKind.COUNT_DOWN_LATCH, 41);
    f.object(9, ConstructKind.COUNT_DOWN_LATCH, 2);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    a.barrierEnter(10, countDown, 9, 0);
    a.barrierExit(10, countDown, 9, 0, 0);
    a.barrierEnter(10, await, 9, 0);
    b.barrierEnter(30, countDown, 9, 0);
    b.barrierExit(30, countDown, 9, 0, BarrierOutcome.LAST);
    b.barrierEnter(30, await, 9, 0);
    b.barrierExit(31, await, 9, 0, 0);
    a.barrierExit(32, await, 9, 0, 0);
    a.threadEnd(100);
    b.threadEnd(100);
    AnalysisResult r = Analyzer.analyze(f.close(100));
    assertEquals(20, onThread(r, "work_imbalance", "a"));
    assertEquals(0, onThread(r, "work_imbalance", "b"));

    TraceFixture g = TraceFixture.create(tmp.resolve("u"));
    int down = g.region("CountDownLatch.countDown", ConstructKind.COUNT_DOWN_LATCH, 40);
    int wait = g.region("CountDownLatch.await", ConstructKind.COUNT_DOWN_LATCH, 41);
    g.object(9, ConstructKind.COUNT_DOWN_LATCH, 100);
    StreamWriter main = g.thread("main", 0);
    StreamWriter w1 = g.thread("w1", 0);
    StreamWriter w2 = g.thread("w2", 0);
    main.barrierEnter(5, wait, 9, 0);
    for (int i = 0; i < 50; i++) {
      long t = 10 + 20L * i;
      w1.barrierEnter(t, down, 9, 0);
      w1.barrierExit(t, down, 9, 0, 0);
      w2.barrierEnter(t + 10, down, 9, 0);
      w2.barrierExit(t + 10, down, 9, 0, i == 49 ? BarrierOutcome.LAST : 0);
    }
    main.barrierExit(1005, wait, 9, 0, 0);
    for (StreamWriter s : List.of(main, w1, w2)) {
      s.threadEnd(1010);
    }
    AnalysisResult q = Analyzer.analyze(g.close(1010));
    // w1 ran 990 to w2's 1000 and arrived last at 990; main arrived at 5 and waited to 1000.
    assertEquals(10, onThread(q, "work_imbalance", "w1"));
    assertEquals(0, onThread(q, "work_imbalance", "w2"));
    assertEquals(995, onThread(q, "work_imbalance", "main"));
  }

  /**
   * ForkJoinPool.invoke: main forks and only waits for the join; of the pool's two workers one runs
   * the task (300) and the other stays idle. The team is the two workers, not main.
   */
  @Test
  void aMasterThatOnlyWaitsForTheJoinIsNotInTheTeam() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int invoke = f.region("ForkJoinPool.invoke", ConstructKind.FORK_JOIN_POOL, 63);
    f.pool(1, "fj-pool", 2);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w1 = f.worker("fj-1", 1, 0);
    f.worker("fj-2", 1, 0);
    m.fork(100, invoke, 1, 1);
    m.joinWaitEnter(100, invoke, 1);
    m.taskCreate(100, invoke, 1, 1);
    w1.taskBegin(200, 1);
    w1.taskEnd(490, 1);
    m.joinWaitExit(500, invoke);
    m.join(500, invoke, 1);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    RegionResult g = Check.region(r, "ForkJoinPool.invoke");
    assertEquals(Map.of("fj-1", 290L, "fj-2", 0L), g.busyNsByThread());
    assertEquals(290, onThread(r, "work_imbalance", "fj-2"));
    assertEquals(0, onThread(r, "work_imbalance", "main"));
    assertEquals(290, severity(r, "work_imbalance"));
  }
}
