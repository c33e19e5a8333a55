package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.cause;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LockContentionTest {
  @TempDir Path tmp;

  private static final long MONITOR = 11;
  private static final long LOCK = 12;
  private static final long RW = 13;

  @Test
  void handoffChainCountsOnlyAcquisitionsThatWaitedForAnotherHolder() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 30);
    int lock = f.region("ReentrantLock.lock", ConstructKind.REENTRANT_LOCK, 31);
    int read = f.region("ReadLock.lock", ConstructKind.READ_WRITE_LOCK, 32);
    int write = f.region("WriteLock.lock", ConstructKind.READ_WRITE_LOCK, 33);
    f.object(MONITOR, ConstructKind.MONITOR, 0);
    f.object(LOCK, ConstructKind.REENTRANT_LOCK, 0);
    f.object(RW, ConstructKind.READ_WRITE_LOCK, 0);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    StreamWriter c = f.thread("c", 0);
    StreamWriter d = f.thread("d", 0);

    // Monitor hand-off chain a -> b -> c; d finds it free.
    a.lockRequest(100, sync, MONITOR);
    a.lockAcquired(100, MONITOR, 0);
    b.lockRequest(150, sync, MONITOR); // held by a: waits 150 for a, 20 hand-off
    c.lockRequest(200, sync, MONITOR); // waits for b's release at 400: 200, then 10 hand-off
    a.lockReleased(300, MONITOR);
    b.lockAcquired(320, MONITOR, 0);
    b.lockReleased(400, MONITOR);
    c.lockAcquired(410, MONITOR, 0);
    c.lockReleased(500, MONITOR);
    d.lockRequest(600, sync, MONITOR); // free: nothing
    d.lockAcquired(605, MONITOR, 0);
    d.lockReleased(606, MONITOR);

    // Re-entrant acquisition by the holder: nothing.
    a.lockRequest(700, sync, MONITOR);
    a.lockAcquired(700, MONITOR, 0);
    a.lockRequest(710, sync, MONITOR);
    a.lockAcquired(715, MONITOR, LockFlags.REENTRANT);
    a.lockReleased(720, MONITOR);
    a.lockReleased(730, MONITOR);

    // A failed tryLock while another thread holds the lock: nothing.
    a.lockRequest(800, lock, LOCK);
    a.lockAcquired(800, LOCK, 0);
    b.lockRequest(810, lock, LOCK);
    b.lockAcquired(850, LOCK, LockFlags.FAILED);
    a.lockReleased(900, LOCK);

    // Read/write: readers share; a writer waits for both readers; a later reader waits for it.
    a.lockRequest(1000, read, RW);
    a.lockAcquired(1000, RW, LockFlags.SHARED);
    b.lockRequest(1010, read, RW); // only a reader holds it: no wait
    b.lockAcquired(1012, RW, LockFlags.SHARED);
    c.lockRequest(1020, write, RW); // waits for b's release at 1120, hand-off 30
    a.lockReleased(1100, RW);
    b.lockReleased(1120, RW);
    d.lockRequest(1130, read, RW); // the writer goes first: waits for its release at 1180
    c.lockAcquired(1150, RW, 0);
    c.lockReleased(1180, RW);
    d.lockAcquired(1200, RW, LockFlags.SHARED);
    d.lockReleased(1210, RW);

    for (StreamWriter s : new StreamWriter[] {a, b, c, d}) {
      s.threadEnd(2000);
    }
    AnalysisResult r = Analyzer.analyze(f.close(2000));

    assertEquals(170, onThread(r, "monitor_contention", "b"));
    assertEquals(210, onThread(r, "monitor_contention", "c"));
    assertEquals(0, onThread(r, "monitor_contention", "a"));
    assertEquals(0, onThread(r, "monitor_contention", "d"));
    assertEquals(380, severity(r, "monitor_contention"));
    assertEquals(350, cause(r, "monitor_contention", "waiting_for_holder_ns"));
    assertEquals(30, cause(r, "monitor_contention", "handoff_latency_ns"));

    assertEquals(130, onThread(r, "lock_api_contention", "c"));
    assertEquals(70, onThread(r, "lock_api_contention", "d"));
    assertEquals(0, onThread(r, "lock_api_contention", "b")); // failed tryLock and shared read
    assertEquals(200, severity(r, "lock_api_contention"));
    assertEquals(150, cause(r, "lock_api_contention", "waiting_for_holder_ns"));
    assertEquals(50, cause(r, "lock_api_contention", "handoff_latency_ns"));

    assertEquals(580, severity(r, "lock_contention"));
    assertEquals(0, Check.property(r, "lock_contention").exclusiveNs());
    assertEquals(500, cause(r, "lock_contention", "waiting_for_holder_ns"));
    assertEquals(80, cause(r, "lock_contention", "handoff_latency_ns"));
    assertEquals(380, atPath(r, "monitor_contention", label("synchronized", 30)));
    assertEquals(130, atPath(r, "lock_api_contention", label("WriteLock.lock", 33)));
    assertEquals(70, atPath(r, "lock_api_contention", label("ReadLock.lock", 32)));
    Check.partition(r, Map.of("a", 2000L, "b", 2000L, "c", 2000L, "d", 2000L));
  }

  @Test
  void objectWaitGivesUpTheMonitorAndIsAConditionWait() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 30);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 35);
    int sleep = f.region("Thread.sleep", ConstructKind.SLEEP, 36);
    int spin = f.region("Thread.onSpinWait", ConstructKind.SPIN, 37);
    f.object(MONITOR, ConstructKind.MONITOR, 0);
    StreamWriter a = f.thread("consumer", 0);
    StreamWriter b = f.thread("producer", 0);
    a.lockRequest(100, sync, MONITOR);
    a.lockAcquired(100, MONITOR, 0);
    b.lockRequest(150, sync, MONITOR); // a holds it until its wait gives it up at 200
    a.waitEnter(200, wait, dev.weft.trace.WaitKind.OBJECT_WAIT);
    b.lockAcquired(210, MONITOR, 0);
    b.lockReleased(300, MONITOR);
    a.waitExit(320, wait);
    a.lockAcquired(320, MONITOR, LockFlags.AFTER_WAIT);
    a.lockReleased(330, MONITOR);
    b.lockRequest(340, sync, MONITOR); // free again: the monitor was re-taken and released
    b.lockAcquired(341, MONITOR, 0);
    b.lockReleased(342, MONITOR);
    b.waitEnter(400, sleep, dev.weft.trace.WaitKind.SLEEP);
    b.waitExit(500, sleep);
    b.spinEnter(600, spin);
    b.spinExit(640, spin);
    a.threadEnd(1000);
    b.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    assertEquals(60, onThread(r, "monitor_contention", "producer"));
    assertEquals(50, cause(r, "monitor_contention", "waiting_for_holder_ns"));
    assertEquals(120, onThread(r, "condition_wait", "consumer"));
    assertEquals(120, cause(r, "condition_wait", "object_wait_ns"));
    assertEquals(0, onThread(r, "condition_wait", "producer")); // sleeping is execution
    assertEquals(40, onThread(r, "spin_wait", "producer"));
    assertEquals(100, atPath(r, "execution", label("Thread.sleep", 36)));
    Check.partition(r, Map.of("consumer", 1000L, "producer", 1000L));
  }

  /**
   * The agent's sequence for Object.wait inside two nested synchronized blocks: LOCK_RELEASED of
   * the inner monitor just before WAIT_ENTER, then LOCK_REQUEST (at the wait's call site) and
   * LOCK_ACQUIRED with AFTER_WAIT after WAIT_EXIT. Only the inner monitor is given up; the
   * re-acquisition waits for the notifier's release like any contended acquisition.
   */
  @Test
  void recordedReleaseBeforeObjectWaitGivesUpThatMonitorOnly() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 30);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 35);
    long outer = 21;
    f.object(MONITOR, ConstructKind.MONITOR, 0);
    f.object(outer, ConstructKind.MONITOR, 0);
    StreamWriter a = f.thread("waiter", 0);
    StreamWriter b = f.thread("notifier", 0);
    StreamWriter c = f.thread("outsider", 0);
    a.lockRequest(100, sync, outer);
    a.lockAcquired(100, outer, 0);
    a.lockRequest(110, sync, MONITOR);
    a.lockAcquired(110, MONITOR, 0);
    a.lockReleased(200, MONITOR); // the agent's release for the wait
    a.waitEnter(201, wait, dev.weft.trace.WaitKind.OBJECT_WAIT);
    b.lockRequest(210, sync, MONITOR); // free: the waiter gave it up
    b.lockAcquired(212, MONITOR, 0);
    c.lockRequest(220, sync, outer); // still held by the waiter: waits until 420
    a.waitExit(300, wait); // notified at 290; the notifier still holds the monitor
    a.lockRequest(301, wait, MONITOR);
    b.lockReleased(350, MONITOR);
    a.lockAcquired(360, MONITOR, LockFlags.AFTER_WAIT); // waited 49 for the holder, 10 hand-off
    a.lockReleased(400, MONITOR);
    a.lockReleased(420, outer);
    c.lockAcquired(430, outer, 0);
    c.lockReleased(440, outer);
    b.lockRequest(500, sync, MONITOR); // free: the waiter's re-taken monitor was released at 400
    b.lockAcquired(501, MONITOR, 0);
    b.lockReleased(502, MONITOR);
    a.threadEnd(1000);
    b.threadEnd(1000);
    c.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    assertEquals(0, onThread(r, "monitor_contention", "notifier"));
    assertEquals(59, onThread(r, "monitor_contention", "waiter"));
    assertEquals(210, onThread(r, "monitor_contention", "outsider"));
    assertEquals(49 + 200, cause(r, "monitor_contention", "waiting_for_holder_ns"));
    assertEquals(10 + 10, cause(r, "monitor_contention", "handoff_latency_ns"));
    assertEquals(99, onThread(r, "condition_wait", "waiter"));
    assertEquals(59, atPath(r, "monitor_contention", label("Object.wait", 35)));
    assertEquals(
        0, r.notes().stream().filter(n -> n.contains("release")).count(), r.notes()::toString);
    Check.partition(r, Map.of("waiter", 1000L, "notifier", 1000L, "outsider", 1000L));
  }

  /**
   * A wait on a monitor entered twice gives it up entirely, though only one release is recorded.
   */
  @Test
  void recordedReleaseBeforeWaitOnAReentrantMonitorGivesItUpEntirely() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 30);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 35);
    f.object(MONITOR, ConstructKind.MONITOR, 0);
    StreamWriter a = f.thread("waiter", 0);
    StreamWriter b = f.thread("notifier", 0);
    a.lockRequest(100, sync, MONITOR);
    a.lockAcquired(100, MONITOR, 0);
    a.lockRequest(110, sync, MONITOR);
    a.lockAcquired(110, MONITOR, LockFlags.REENTRANT);
    a.lockReleased(200, MONITOR);
    a.waitEnter(201, wait, dev.weft.trace.WaitKind.OBJECT_WAIT);
    b.lockRequest(210, sync, MONITOR); // free during the wait
    b.lockAcquired(211, MONITOR, 0);
    b.lockReleased(250, MONITOR);
    a.waitExit(300, wait);
    a.lockRequest(301, wait, MONITOR);
    a.lockAcquired(302, MONITOR, LockFlags.AFTER_WAIT);
    a.lockReleased(400, MONITOR); // the inner block ends
    b.lockRequest(410, sync, MONITOR); // still held (the outer block): waits until 500
    a.lockReleased(500, MONITOR);
    b.lockAcquired(505, MONITOR, 0);
    b.lockReleased(506, MONITOR);
    a.threadEnd(1000);
    b.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    assertEquals(95, onThread(r, "monitor_contention", "notifier"));
    assertEquals(0, onThread(r, "monitor_contention", "waiter"));
    assertEquals(
        0, r.notes().stream().filter(n -> n.contains("release")).count(), r.notes()::toString);
    Check.partition(r, Map.of("waiter", 1000L, "notifier", 1000L));
  }

  @Test
  void semaphorePermitWaitsForAnotherThreadsRelease() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int acquire = f.region("Semaphore.acquire", ConstructKind.SEMAPHORE, 50);
    f.object(20, ConstructKind.SEMAPHORE, 1);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    a.lockRequest(10, acquire, 20);
    a.lockAcquired(10, 20, LockFlags.SHARED);
    b.lockRequest(20, acquire, 20); // no permit left until a releases at 80
    a.lockReleased(80, 20);
    b.lockAcquired(85, 20, LockFlags.SHARED);
    b.lockReleased(90, 20);
    AnalysisResult r = Analyzer.analyze(f.close(100));
    assertEquals(65, onThread(r, "lock_api_contention", "b"));
    assertEquals(60, cause(r, "lock_api_contention", "waiting_for_holder_ns"));
    assertEquals(0, onThread(r, "lock_api_contention", "a"));
  }

  /**
   * A semaphore used as a signal (no permits; a thread that holds none releases one to wake a
   * waiter, as Jetty's reserved threads wait for a job): the waiter waited for the signal, not for
   * a holder, so its wait is a condition wait with no lock delay cost; the hand-over from the
   * signalling thread stays on the critical path.
   */
  @Test
  void aSemaphoreReleasedByAThreadThatHeldNoPermitIsASignalNotContention() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int acquire = f.region("Semaphore.tryAcquire", ConstructKind.SEMAPHORE, 51);
    f.object(21, ConstructKind.SEMAPHORE, 0);
    StreamWriter waiter = f.thread("waiter", 0);
    StreamWriter signaller = f.thread("signaller", 0);
    waiter.lockRequest(10, acquire, 21); // no permit until the signal at 600
    signaller.lockReleased(600, 21);
    waiter.lockAcquired(610, 21, LockFlags.SHARED);
    waiter.lockRequest(700, acquire, 21); // consumed the first signal; waits for the next
    signaller.lockReleased(900, 21);
    waiter.lockAcquired(905, 21, LockFlags.SHARED);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    assertEquals(0, severity(r, "lock_contention"));
    assertEquals(0, severity(r, "delay_cost_lock"));
    assertEquals(805, onThread(r, "condition_wait", "waiter"));
    assertEquals(805, cause(r, "condition_wait", "semaphore_signal_ns"));
    Check.partition(r, Map.of("waiter", 1000L, "signaller", 1000L));
    // The waiter's chain took the signaller's over at each signal: the path runs through both.
    assertEquals(2, r.criticalPath().byThread().size(), r.criticalPath().byThread().toString());
  }

  /**
   * A convoy: w0 holds the lock 0..100; w1, w2 and w3 request it at 10, 20 and 30 and get it in
   * turn, each holding it 100 after a hand-over of 5. Each wait is split at the releases during it:
   * w1's 90 all goes to w0; w2's 180 to w0 (80) and w1 (100); w3's 270 to w0 (70), w1 and w2 (100
   * each). The pieces sum to the waiting_for_holder cause.
   */
  @Test
  void convoyChargesEachHolderTheWaitsItsHoldCaused() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int lock = f.region("ReentrantLock.lock", ConstructKind.REENTRANT_LOCK, 31);
    f.object(LOCK, ConstructKind.REENTRANT_LOCK, 0);
    StreamWriter[] w = new StreamWriter[4];
    for (int i = 0; i < 4; i++) {
      w[i] = f.thread("w" + i, 0);
    }
    w[0].lockRequest(0, lock, LOCK);
    w[0].lockAcquired(0, LOCK, 0);
    for (int i = 1; i < 4; i++) {
      w[i].lockRequest(10 * i, lock, LOCK);
    }
    w[0].lockReleased(100, LOCK);
    for (int i = 1; i < 4; i++) {
      w[i].lockAcquired(100 * i + 5, LOCK, 0);
      w[i].lockReleased(100 * i + 100, LOCK);
    }
    AnalysisResult r = Analyzer.analyze(f.close(500));
    assertEquals(240, onThread(r, "delay_cost_lock", "w0"));
    assertEquals(200, onThread(r, "delay_cost_lock", "w1"));
    assertEquals(100, onThread(r, "delay_cost_lock", "w2"));
    assertEquals(0, onThread(r, "delay_cost_lock", "w3"));
    assertEquals(
        cause(r, "lock_contention", "waiting_for_holder_ns"), severity(r, "delay_cost_lock"));
    assertEquals(540, severity(r, "delay_cost_lock"));
  }
}
