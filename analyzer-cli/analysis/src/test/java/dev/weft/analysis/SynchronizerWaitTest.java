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
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Waits in synchronizers that programs build on AbstractQueuedSynchronizer: a condition wait of
 * their own kind, unless another construct's wait is open around them (a program's own Lock called
 * as a Lock), whose wait they are; likewise a park inside a library's Future.get.
 */
class SynchronizerWaitTest {
  @TempDir Path tmp;

  /**
   * main submits task 7 to pool-1 at 100 and waits for it at Future.get (line 51); the pool's
   * worker begins it at 110.
   */
  private static final class Submitted {
    final TraceFixture f;
    final int get;
    final StreamWriter main;
    final StreamWriter worker;

    Submitted(Path dir) {
      f = TraceFixture.create(dir);
      int submit = f.region("ExecutorService.submit", ConstructKind.EXECUTOR, 50);
      get = f.region("Future.get", ConstructKind.FUTURE_GET, 51);
      f.pool(1, "pool-1", 1);
      main = f.thread("main", 0);
      worker = f.worker("pool-1-thread-1", 1, 0);
      main.taskCreate(100, submit, 7, 1);
      worker.taskBegin(110, 7);
    }
  }

  private static final long LOCK = 12;

  @Test
  void aSynchronizerWaitIsAConditionWaitOrTheOuterLocksWait() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int latch = f.region("CountUpDownLatch$Sync.acquireShared", ConstructKind.SYNCHRONIZER, 40);
    int lock = f.region("Lock.lock", ConstructKind.REENTRANT_LOCK, 41);
    int mutex = f.region("OwnLock$Sync.acquire", ConstructKind.SYNCHRONIZER, 42);
    f.object(LOCK, ConstructKind.REENTRANT_LOCK, 0);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);

    // a waits 300 at its own latch.
    a.waitEnter(100, latch, WaitKind.SYNCHRONIZER);
    a.waitExit(400, latch);
    // a holds an own Lock; b asks for it as a Lock, and the Lock waits in its synchronizer.
    a.lockRequest(500, lock, LOCK);
    a.lockAcquired(500, LOCK, 0);
    b.lockRequest(510, lock, LOCK);
    b.waitEnter(520, mutex, WaitKind.SYNCHRONIZER);
    a.lockReleased(700, LOCK);
    b.waitExit(720, mutex);
    b.lockAcquired(730, LOCK, 0);
    b.lockReleased(800, LOCK);
    a.threadEnd(1000);
    b.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(300, severity(r, "condition_wait"));
    assertEquals(300, cause(r, "condition_wait", "synchronizer_ns"));
    assertEquals(300, onThread(r, "condition_wait", "a"));
    assertEquals(
        300, atPath(r, "condition_wait", label("CountUpDownLatch$Sync.acquireShared", 40)));
    // b's whole request, the synchronizer's wait inside it included, is the lock's contention.
    assertEquals(220, onThread(r, "lock_api_contention", "b"));
    assertEquals(190, cause(r, "lock_api_contention", "waiting_for_holder_ns"));
    assertEquals(30, cause(r, "lock_api_contention", "handoff_latency_ns"));
    assertEquals(0, onThread(r, "condition_wait", "b"));
    Check.partition(r, Map.of("a", 1000L, "b", 1000L));
  }

  @Test
  void aParkInsideAJoinWaitIsTheJoinsWaitAndItsCostTheTaskRunners() {
    Submitted t = new Submitted(tmp.resolve("t"));
    TraceFixture f = t.f;
    StreamWriter main = t.main;
    StreamWriter worker = t.worker;
    int get = t.get;
    int park = f.region("LockSupport.park", ConstructKind.PARK, 52);
    // main waits for the task in a library's Future.get, which parks until the task ends.
    main.joinWaitEnter(120, get, 7);
    main.waitEnter(130, park, WaitKind.PARK);
    worker.taskEnd(600, 7);
    main.waitExit(620, park);
    main.joinWaitExit(630, get);
    main.threadEnd(1000);
    worker.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(510, onThread(r, "join_wait", "main"));
    assertEquals(0, severity(r, "condition_wait"));
    assertEquals(480, onThread(r, "delay_cost_join", "pool-1-thread-1"));
  }

  @Test
  void anObjectWaitInsideAJoinWaitIsTheJoinsWaitAndGivesItsMonitorBack() {
    Submitted t = new Submitted(tmp.resolve("t"));
    TraceFixture f = t.f;
    StreamWriter main = t.main;
    StreamWriter worker = t.worker;
    int get = t.get;
    int sync = f.region("synchronized", ConstructKind.MONITOR, 52);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 53);
    int notify = f.region("Object.notifyAll", ConstructKind.NOTIFY, 54);
    long promise = 21;
    f.object(promise, ConstructKind.MONITOR, 0);
    // A library's Future.get: synchronized on the promise, Object.wait until the task completes it.
    main.joinWaitEnter(120, get, 7);
    main.lockRequest(125, sync, promise);
    main.lockAcquired(125, promise, 0);
    main.lockReleased(130, promise);
    main.waitEnter(130, wait, WaitKind.OBJECT_WAIT);
    worker.lockRequest(590, sync, promise);
    worker.lockAcquired(590, promise, 0);
    worker.notify(595, notify, promise, WaitKind.OBJECT_WAIT);
    worker.lockReleased(598, promise);
    worker.taskEnd(600, 7);
    main.waitExit(610, wait);
    main.lockRequest(610, wait, promise);
    main.lockAcquired(610, promise, LockFlags.AFTER_WAIT);
    main.lockReleased(615, promise);
    main.joinWaitExit(630, get);
    // The monitor is free again: a later request of the worker finds it so.
    worker.lockRequest(700, sync, promise);
    worker.lockAcquired(700, promise, 0);
    worker.lockReleased(710, promise);
    main.threadEnd(1000);
    worker.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(510, onThread(r, "join_wait", "main")); // the whole call
    assertEquals(0, severity(r, "condition_wait"));
    assertEquals(0, severity(r, "lock_contention"));
    assertEquals(0, severity(r, "delay_cost_condition"));
    assertEquals(480, onThread(r, "delay_cost_join", "pool-1-thread-1"));
    Check.partition(r, Map.of("main", 1000L, "pool-1-thread-1", 1000L));
  }

  @Test
  void aJoinInsideAJoinKeepsTheProgramsCallPath() {
    Submitted t = new Submitted(tmp.resolve("t"));
    TraceFixture f = t.f;
    StreamWriter main = t.main;
    StreamWriter worker = t.worker;
    int get = t.get;
    int superGet = f.region("Future.get", ConstructKind.FUTURE_GET, 91);
    main.joinWaitEnter(120, get, 7);
    main.joinWaitEnter(125, superGet, 7); // a library's get calling its superclass's
    worker.taskEnd(600, 7);
    main.joinWaitExit(620, superGet);
    main.joinWaitExit(630, get);
    main.threadEnd(1000);
    worker.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(510, onThread(r, "join_wait", "main"));
    assertEquals(510, atPath(r, "join_wait", label("Future.get", 51)));
  }
}
