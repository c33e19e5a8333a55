package dev.weft.cli;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.ProcessDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.nio.file.Path;

/** Small traces with known contents, written with the real {@link TraceWriter}. */
final class TestTraces {
  static final long LOCK_A = 0xabcL;
  static final long LOCK_B = 0xdefL;
  static final long BARRIER = 0xbeefL;
  static final long TASK = 0x77L;
  static final String WORKER = "ForkJoinPool-1-worker-1";

  /** Events of the main thread in {@link #sample}. */
  static final int MAIN_EVENTS = 17;

  /** Events of the worker in {@link #sample}. */
  static final int WORKER_EVENTS = 10;

  private TestTraces() {}

  /**
   * A main thread and one pool worker. The main thread forks a parallel region, creates task 0x77,
   * takes lock A then lock B and releases them in the same order (hand-over-hand), waits at a
   * barrier and joins the task. The worker runs the task, waits for lock A (handed over by main),
   * arrives last at the barrier, and enters a region it never leaves.
   */
  static Path sample(Path dir) throws IOException {
    return write(dir, false);
  }

  /**
   * The same as {@link #sample}, except that the worker leaves its region before it ends: a trace
   * that {@code weft verify} finds well formed, with {@link #MAIN_EVENTS} + {@link #WORKER_EVENTS}
   * + 1 events.
   */
  static Path wellFormed(Path dir) throws IOException {
    return write(dir, true);
  }

  private static Path write(Path dir, boolean leaveRegion) throws IOException {
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.defineProcess(
          new ProcessDef(
              4242,
              "testhost",
              "17.0.15",
              "OpenJDK 64-Bit Server VM",
              2,
              "java -cp app.jar demo.Main",
              "demo.Main",
              "out=/tmp/t"));
      w.defineRegion(region(1, ConstructKind.USER_REGION, "work", 10, 20));
      w.defineRegion(region(2, ConstructKind.FORK_JOIN_POOL, "ForkJoinPool.invoke", 30, 0));
      w.defineRegion(region(3, ConstructKind.REENTRANT_LOCK, "ReentrantLock.lock", 40, 0));
      w.defineRegion(region(4, ConstructKind.CYCLIC_BARRIER, "CyclicBarrier.await", 50, 0));
      w.defineRegion(region(5, ConstructKind.FORK_JOIN_TASK, "ForkJoinTask.fork", 60, 0));
      w.defineRegion(region(6, ConstructKind.FUTURE_GET, "ForkJoinTask.join", 61, 0));
      w.definePool(new PoolDef(1, ConstructKind.FORK_JOIN_POOL, "ForkJoinPool-1", 2));
      w.defineObject(
          new ObjectDef(
              LOCK_A, ConstructKind.REENTRANT_LOCK, "java.util.concurrent.locks.ReentrantLock", 0));
      w.defineObject(
          new ObjectDef(
              LOCK_B, ConstructKind.REENTRANT_LOCK, "java.util.concurrent.locks.ReentrantLock", 0));
      w.defineObject(
          new ObjectDef(
              BARRIER, ConstructKind.CYCLIC_BARRIER, "java.util.concurrent.CyclicBarrier", 2));
      StreamWriter main = w.openStream(1, "main", 0, 0, 1000);
      StreamWriter worker = w.openStream(21, WORKER, ThreadDef.DAEMON, 1, 1500);
      main.threadBegin(1000);
      main.enter(1000, 1);
      main.fork(2000, 2, 1, 2);
      main.taskCreate(2100, 5, TASK, 1);
      main.lockRequest(2200, 3, LOCK_A);
      main.lockAcquired(2300, LOCK_A, 0);
      main.lockRequest(2350, 3, LOCK_B);
      main.lockAcquired(2400, LOCK_B, 0);
      main.lockReleased(5000, LOCK_A);
      main.lockReleased(5010, LOCK_B);
      main.barrierEnter(5100, 4, BARRIER, 0);
      main.barrierExit(9000, 4, BARRIER, 0, 0);
      main.joinWaitEnter(9100, 6, TASK);
      main.joinWaitExit(12000, 6);
      main.join(12100, 2, 1);
      main.exit(13000, 1);
      main.threadEnd(13100);

      worker.threadBegin(1500);
      worker.taskBegin(2500, TASK);
      worker.lockRequest(2600, 3, LOCK_A);
      worker.lockAcquired(5050, LOCK_A, 0);
      worker.lockReleased(6000, LOCK_A);
      worker.barrierEnter(8800, 4, BARRIER, 0);
      worker.barrierExit(8900, 4, BARRIER, 0, BarrierOutcome.LAST);
      worker.taskEnd(11000, TASK);
      worker.enter(11100, 1); // never left: export must close it at the thread's end
      if (leaveRegion) {
        worker.exit(11500, 1);
      }
      worker.threadEnd(11600);
      w.close(14000);
    }
    return dir;
  }

  /**
   * A submission handed on by an executor that wraps another: main's {@code execute} at
   * Demo.java:143 calls one at :263, which calls one at :47, inside which the JDK records the
   * task's creation (a fork in {@code ForkJoinPool}); a worker runs the task. Every output names
   * the task by the outer call: {@code task Demo.run:143}.
   */
  static Path wrappedSubmission(Path dir) throws IOException {
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.defineRegion(region(1, ConstructKind.EXECUTOR, "ExecutorService.execute", 143, 0));
      w.defineRegion(region(2, ConstructKind.EXECUTOR, "ExecutorService.execute", 263, 0));
      w.defineRegion(region(3, ConstructKind.EXECUTOR, "ExecutorService.execute", 47, 0));
      w.defineRegion(
          new RegionDef(
              4,
              ConstructKind.FORK_JOIN_TASK,
              "ForkJoinTask.fork",
              "java.util.concurrent.ForkJoinPool",
              "",
              "",
              0,
              0));
      w.definePool(new PoolDef(1, ConstructKind.FORK_JOIN_POOL, "dispatcher", 1));
      StreamWriter main = w.openStream(1, "main", 0, 0, 1000);
      StreamWriter worker = w.openStream(21, "dispatcher-1", ThreadDef.DAEMON, 1, 1000);
      main.threadBegin(1000);
      main.enter(1100, 1);
      main.enter(1200, 2);
      main.enter(1300, 3);
      main.taskCreate(1400, 4, TASK, 1);
      main.exit(1500, 3);
      main.exit(1600, 2);
      main.exit(1700, 1);
      main.threadEnd(3000);
      worker.threadBegin(1000);
      worker.taskBegin(2000, TASK);
      worker.taskEnd(2500, TASK);
      worker.threadEnd(3000);
      w.close(4000);
    }
    return dir;
  }

  private static RegionDef region(int id, ConstructKind kind, String name, int first, int last) {
    return new RegionDef(id, kind, name, "demo.Demo", "run", "Demo.java", first, last);
  }
}
