package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.cause;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * delay_cost_long_term: the part of a wait during which its causer was itself waiting goes to the
 * thread that caused that wait, down the chain; short-term and long-term parts sum to the waits.
 */
class DelayCostLongTermTest {
  @TempDir Path tmp;

  /**
   * a computes 0..900 (region compute) and arrives last at barrier 1, where b waits 0..900; b works
   * 910..1000 and arrives last at barrier 2, where c has waited since 100. Of c's 900 for b,
   * 100..900 is b's own wait for a: long-term cost of a, at compute; only 900..1000 is b's.
   */
  @Test
  void aBarrierWaitDuringTheLastArrivalsOwnWaitIsChargedToItsCause() {
    AnalysisResult r = Analyzer.analyze(barrierChain(tmp.resolve("t")));
    assertEquals(900, onThread(r, "delay_cost_barrier", "a"));
    assertEquals(100, onThread(r, "delay_cost_barrier", "b"));
    assertEquals(800, onThread(r, "delay_cost_long_term", "a"));
    assertEquals(0, onThread(r, "delay_cost_long_term", "b"));
    assertEquals(800, atPath(r, "delay_cost_long_term", label("compute", 20)));
    assertEquals(800, cause(r, "delay_cost_long_term", "barrier_ns"));
    // short-term plus long-term: the waits they explain, each once
    assertEquals(1800, cause(r, "barrier_wait", "waiting_for_last_ns"));
    assertEquals(1800, severity(r, "delay_cost"));
  }

  /**
   * A chain through three kinds of wait. d holds a lock 0..300 (region update); e requests it at 10
   * and gets it at 310; e notifies f at 400 (f waiting since 5); f, woken at 410, arrives last at a
   * barrier at 500, where g has waited since 50.
   *
   * <ul>
   *   <li>e's lock wait 10..300: d's, short-term (290);
   *   <li>f's condition wait 5..400 for e: 10..300 was e's wait for d (long-term d 290), the rest
   *       e's (105);
   *   <li>g's barrier wait 50..500 for f: 50..300 goes to d (250) and 300..400 to e (100) through
   *       f's history, 400..500 is f's (100).
   * </ul>
   */
  @Test
  void aChainOfLockConditionAndBarrierWaitsEndsAtTheHolderThatBeganIt() {
    AnalysisResult r = Analyzer.analyze(mixedChain(tmp.resolve("t"), true));
    assertEquals(290, onThread(r, "delay_cost_lock", "d"));
    assertEquals(105, onThread(r, "delay_cost_condition", "e"));
    assertEquals(100, onThread(r, "delay_cost_barrier", "f"));
    assertEquals(540, onThread(r, "delay_cost_long_term", "d"));
    assertEquals(100, onThread(r, "delay_cost_long_term", "e"));
    assertEquals(0, onThread(r, "delay_cost_long_term", "f"));
    assertEquals(540, atPath(r, "delay_cost_long_term", label("update", 20)));
    assertEquals(290, cause(r, "delay_cost_long_term", "condition_ns"));
    assertEquals(350, cause(r, "delay_cost_long_term", "barrier_ns"));
    assertEquals(0, cause(r, "delay_cost_long_term", "lock_ns"));
    long explained =
        cause(r, "lock_contention", "waiting_for_holder_ns")
            + (severity(r, "condition_wait") - 10) // less f's wake-up latency 400..410
            + cause(r, "barrier_wait", "waiting_for_last_ns");
    assertEquals(1135, explained);
    assertEquals(explained, severity(r, "delay_cost"));
  }

  /**
   * The same chain cut before g leaves the barrier: g's wait is open at the cut and charged to
   * nobody, the finished part of the chain is.
   */
  @Test
  void aCutTraceChargesOnlyTheWaitsThatEnded() {
    AnalysisResult r = Analyzer.analyze(mixedChain(tmp.resolve("t"), false));
    assertEquals(AnalysisResult.Status.CUT, r.status());
    assertEquals(290, onThread(r, "delay_cost_long_term", "d"));
    assertEquals(0, onThread(r, "delay_cost_long_term", "e"));
    assertEquals(0, severity(r, "delay_cost_barrier"));
    assertEquals(290 + 105 + 290, severity(r, "delay_cost"));
  }

  /**
   * b waits for a's lock 3000 times (5 each, between holds of its own) while c waits at a barrier
   * for b the whole run: b keeps only its latest explained waits, so the oldest part of c's wait is
   * charged to b short-term, and a note says so. Nothing is counted twice.
   */
  @Test
  void aWaitReachingBeyondTheKeptHistoryIsChargedShortTermAndNoted() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int lock = f.region("ReentrantLock.lock", ConstructKind.REENTRANT_LOCK, 30);
    int await = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 40);
    f.object(9, ConstructKind.CYCLIC_BARRIER, 2);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    StreamWriter c = f.thread("c", 0);
    c.barrierEnter(0, await, 9, 0);
    long t = 0;
    int rounds = 3000;
    for (int i = 0; i < rounds; i++) {
      a.lockRequest(t, lock, 7);
      a.lockAcquired(t, 7, 0);
      b.lockRequest(t + 1, lock, 7);
      a.lockReleased(t + 6, 7);
      b.lockAcquired(t + 7, 7, 0);
      b.lockReleased(t + 9, 7);
      t += 10;
    }
    b.barrierEnter(t, await, 9, 0);
    b.barrierExit(t, await, 9, 0, BarrierOutcome.LAST);
    c.barrierExit(t, await, 9, 0, 0);
    AnalysisResult r = Analyzer.analyze(f.close(t + 10));
    long longTerm = onThread(r, "delay_cost_long_term", "a");
    assertTrue(longTerm > 0 && longTerm < 5L * rounds, "long-term " + longTerm);
    assertEquals(t, longTerm + onThread(r, "delay_cost_barrier", "b"));
    assertEquals(5L * rounds, onThread(r, "delay_cost_lock", "a"));
    List<String> notes =
        r.notes().stream().filter(n -> n.contains("latest explained waits")).toList();
    assertEquals(1, notes.size(), r.notes().toString());
    assertTrue(notes.get(0).startsWith("1 waits were charged to a thread"), notes.get(0));
  }

  static Path barrierChain(Path dir) {
    TraceFixture f = TraceFixture.create(dir);
    int compute = f.region("compute", ConstructKind.USER_REGION, 20);
    int await1 = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 40);
    int await2 = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 50);
    f.object(1, ConstructKind.CYCLIC_BARRIER, 2);
    f.object(2, ConstructKind.CYCLIC_BARRIER, 2);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    StreamWriter c = f.thread("c", 0);
    a.enter(0, compute);
    b.barrierEnter(0, await1, 1, 0);
    c.barrierEnter(100, await2, 2, 0);
    a.barrierEnter(900, await1, 1, 0);
    a.barrierExit(900, await1, 1, 0, BarrierOutcome.LAST);
    a.exit(905, compute);
    b.barrierExit(910, await1, 1, 0, 0);
    b.barrierEnter(1000, await2, 2, 0);
    b.barrierExit(1000, await2, 2, 0, BarrierOutcome.LAST);
    c.barrierExit(1010, await2, 2, 0, 0);
    return f.close(1100);
  }

  /** See {@link #aChainOfLockConditionAndBarrierWaitsEndsAtTheHolderThatBeganIt}. */
  static Path mixedChain(Path dir, boolean closed) {
    TraceFixture f = TraceFixture.create(dir);
    int update = f.region("update", ConstructKind.USER_REGION, 20);
    int lock = f.region("ReentrantLock.lock", ConstructKind.REENTRANT_LOCK, 30);
    int sync = f.region("synchronized", ConstructKind.MONITOR, 31);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 32);
    int notify = f.region("Object.notify", ConstructKind.NOTIFY, 33);
    int await = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 40);
    f.object(12, ConstructKind.MONITOR, 0);
    f.object(9, ConstructKind.CYCLIC_BARRIER, 2);
    StreamWriter d = f.thread("d", 0);
    StreamWriter e = f.thread("e", 0);
    StreamWriter fw = f.thread("f", 0);
    StreamWriter g = f.thread("g", 0);
    d.enter(0, update);
    d.lockRequest(0, lock, 7);
    d.lockAcquired(0, 7, 0);
    fw.lockRequest(4, sync, 12);
    fw.lockAcquired(4, 12, 0);
    fw.lockReleased(5, 12);
    fw.waitEnter(5, wait, WaitKind.OBJECT_WAIT);
    e.lockRequest(10, lock, 7);
    g.barrierEnter(50, await, 9, 0);
    d.lockReleased(300, 7);
    d.exit(301, update);
    e.lockAcquired(310, 7, 0);
    e.lockReleased(320, 7);
    e.lockRequest(400, sync, 12);
    e.lockAcquired(400, 12, 0);
    e.notify(400, notify, 12, WaitKind.OBJECT_WAIT);
    e.lockReleased(401, 12);
    fw.waitExit(410, wait);
    fw.lockRequest(410, sync, 12);
    fw.lockAcquired(410, 12, LockFlags.AFTER_WAIT);
    fw.lockReleased(411, 12);
    fw.barrierEnter(500, await, 9, 0);
    if (!closed) {
      return f.abandon();
    }
    fw.barrierExit(500, await, 9, 0, BarrierOutcome.LAST);
    g.barrierExit(510, await, 9, 0, 0);
    return f.close(600);
  }
}
