package dev.weft.agent.record;

import static dev.weft.agent.record.RunningFrames.ACCEPT;
import static dev.weft.agent.record.RunningFrames.BARRIER_AWAIT;
import static dev.weft.agent.record.RunningFrames.COMPLETABLE_GET;
import static dev.weft.agent.record.RunningFrames.CONDITION_AWAIT;
import static dev.weft.agent.record.RunningFrames.FORK_JOIN_INVOKE;
import static dev.weft.agent.record.RunningFrames.FORK_JOIN_JOIN;
import static dev.weft.agent.record.RunningFrames.FORK_JOIN_POOL_INVOKE;
import static dev.weft.agent.record.RunningFrames.FUTURE_GET;
import static dev.weft.agent.record.RunningFrames.LATCH_AWAIT;
import static dev.weft.agent.record.RunningFrames.LATCH_AWAIT_TIMED;
import static dev.weft.agent.record.RunningFrames.LATCH_COUNT_DOWN;
import static dev.weft.agent.record.RunningFrames.PHASER_ARRIVE;
import static dev.weft.agent.record.RunningFrames.PHASER_ARRIVE_AND_AWAIT;
import static dev.weft.agent.record.RunningFrames.PHASER_AWAIT_ADVANCE;
import static dev.weft.agent.record.RunningFrames.SELECT;
import static dev.weft.agent.record.RunningFrames.SEMAPHORE_ACQUIRE;
import static dev.weft.agent.record.RunningFrames.SEMAPHORE_TRY;
import static dev.weft.agent.record.RunningFrames.SEMAPHORE_TRY_TIMED;
import static dev.weft.agent.record.RunningFrames.STAMPED_READ;
import static dev.weft.agent.record.RunningFrames.STAMPED_TRY_READ;
import static dev.weft.agent.record.RunningFrames.STAMPED_TRY_READ_TIMED;
import static dev.weft.agent.record.RunningFrames.STAMPED_TRY_WRITE;
import static dev.weft.agent.record.RunningFrames.STAMPED_TRY_WRITE_TIMED;
import static dev.weft.agent.record.RunningFrames.STAMPED_WRITE;
import static dev.weft.agent.record.RunningFrames.THREAD_JOIN;
import static dev.weft.agent.record.RunningFrames.THREAD_START;
import static dev.weft.agent.record.RunningFrames.TRY_LOCK;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import java.lang.StackWalker.StackFrame;
import java.net.ServerSocket;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;

/**
 * What {@link RunningFrames} needs to know of each hooked operation: the JDK class whose method it
 * is, the region's kind and name (as call-site weaving names them), what is read at entry, and how
 * a result becomes an outcome or a lock flag.
 */
final class RunningOperations {
  private RunningOperations() {}

  /** The class of the hooked method (a lock operation's depends on the lock: a read/write view). */
  static Class<?> hookedClass(int op, Object target) {
    switch (op) {
      case BARRIER_AWAIT:
        return CyclicBarrier.class;
      case CONDITION_AWAIT:
        return AbstractQueuedSynchronizer.ConditionObject.class;
      case SEMAPHORE_ACQUIRE:
      case SEMAPHORE_TRY:
      case SEMAPHORE_TRY_TIMED:
        return Semaphore.class;
      case LATCH_AWAIT:
      case LATCH_AWAIT_TIMED:
      case LATCH_COUNT_DOWN:
        return CountDownLatch.class;
      case PHASER_ARRIVE_AND_AWAIT:
      case PHASER_AWAIT_ADVANCE:
      case PHASER_ARRIVE:
        return Phaser.class;
      case THREAD_JOIN:
      case THREAD_START:
        return Thread.class;
      case FORK_JOIN_JOIN:
      case FORK_JOIN_INVOKE:
        return ForkJoinTask.class;
      case FORK_JOIN_POOL_INVOKE:
        return ForkJoinPool.class;
      case SELECT:
        return Selector.class;
      case ACCEPT:
        return target instanceof ServerSocket ? ServerSocket.class : ServerSocketChannel.class;
      case FUTURE_GET:
        return FutureTask.class;
      case COMPLETABLE_GET:
        return CompletableFuture.class;
      case STAMPED_READ:
      case STAMPED_WRITE:
      case STAMPED_TRY_READ:
      case STAMPED_TRY_WRITE:
      case STAMPED_TRY_READ_TIMED:
      case STAMPED_TRY_WRITE_TIMED:
        return StampedLock.class;
      default:
        if (target instanceof ReentrantReadWriteLock.ReadLock) {
          return ReentrantReadWriteLock.ReadLock.class;
        }
        if (target instanceof ReentrantReadWriteLock.WriteLock) {
          return ReentrantReadWriteLock.WriteLock.class;
        }
        return ReentrantLock.class;
    }
  }

  /** The kind of the user's call site. */
  static ConstructKind kind(int op, Object target) {
    switch (op) {
      case BARRIER_AWAIT:
        return ConstructKind.CYCLIC_BARRIER;
      case CONDITION_AWAIT:
        return ConstructKind.CONDITION_AWAIT;
      case SEMAPHORE_ACQUIRE:
      case SEMAPHORE_TRY:
      case SEMAPHORE_TRY_TIMED:
        return ConstructKind.SEMAPHORE;
      case LATCH_AWAIT:
      case LATCH_AWAIT_TIMED:
      case LATCH_COUNT_DOWN:
        return ConstructKind.COUNT_DOWN_LATCH;
      case PHASER_ARRIVE_AND_AWAIT:
      case PHASER_AWAIT_ADVANCE:
      case PHASER_ARRIVE:
        return ConstructKind.PHASER;
      case THREAD_JOIN:
        return ConstructKind.THREAD_JOIN;
      case THREAD_START:
        return ConstructKind.THREAD_START;
      case FORK_JOIN_JOIN:
      case FORK_JOIN_INVOKE:
        return ConstructKind.FORK_JOIN_TASK;
      case FORK_JOIN_POOL_INVOKE:
        return ConstructKind.FORK_JOIN_POOL;
      case SELECT:
        return ConstructKind.SELECTOR;
      case ACCEPT:
        return ConstructKind.SOCKET;
      case FUTURE_GET:
        return ConstructKind.FUTURE_GET;
      case COMPLETABLE_GET:
        return ConstructKind.COMPLETABLE_FUTURE;
      default:
        if (target instanceof StampedLock) {
          return ConstructKind.STAMPED_LOCK;
        }
        return target instanceof ReentrantLock
            ? ConstructKind.REENTRANT_LOCK
            : ConstructKind.READ_WRITE_LOCK;
    }
  }

  /**
   * The region's name, as the call site's: the type the user called and the hooked method's name
   * ({@code Semaphore.acquireUninterruptibly}, {@code ReadLock.tryLock}); {@code Condition.await}
   * for every condition wait.
   */
  static String regionName(int op, Object target, StackFrame hooked) {
    switch (op) {
      case CONDITION_AWAIT:
        return "Condition.await";
      case FUTURE_GET:
        return "Future." + hooked.getMethodName();
      default:
        return hookedClass(op, target).getSimpleName() + "." + hooked.getMethodName();
    }
  }

  /**
   * Read at entry when the wait is recorded: a phaser's phase before the arrival (the generation),
   * {@code LAST} for the count-down that opens its latch (the count is 1 before it), 0 otherwise.
   */
  static long before(Object target, int op) {
    switch (op) {
      case PHASER_ARRIVE_AND_AWAIT:
      case PHASER_AWAIT_ADVANCE:
        return ((Phaser) target).getPhase();
      case LATCH_COUNT_DOWN:
        return ((CountDownLatch) target).getCount() == 1 ? BarrierOutcome.LAST : 0;
      default:
        return 0;
    }
  }

  /**
   * The outcome of a latch or phaser wait that returned {@code result}: a timed latch await that
   * returned false timed out; a phaser whose arrival phase is negative was terminated.
   */
  static int outcome(int op, int result, long aux) {
    switch (op) {
      case LATCH_AWAIT_TIMED:
        return result == 0 ? BarrierOutcome.TIMEOUT : 0;
      case LATCH_COUNT_DOWN:
        return (int) aux;
      case PHASER_ARRIVE_AND_AWAIT:
        return result < 0 ? BarrierOutcome.BROKEN : 0;
      default:
        return 0;
    }
  }

  /**
   * A semaphore's permits and a stamped lock's read lock are shared: their acquisitions are SHARED,
   * as at call sites.
   */
  static int sharedFlag(int op) {
    switch (op) {
      case SEMAPHORE_ACQUIRE:
      case SEMAPHORE_TRY:
      case SEMAPHORE_TRY_TIMED:
      case STAMPED_READ:
      case STAMPED_TRY_READ:
      case STAMPED_TRY_READ_TIMED:
        return LockFlags.SHARED;
      default:
        return 0;
    }
  }

  /** The flags of a try that returned false: an untimed one FAILED, a timed one ABORTED. */
  static int failedFlags(int op) {
    boolean untimed =
        op == TRY_LOCK || op == SEMAPHORE_TRY || op == STAMPED_TRY_READ || op == STAMPED_TRY_WRITE;
    int failed = untimed ? LockFlags.FAILED : LockFlags.ABORTED;
    return failed | sharedFlag(op);
  }
}
