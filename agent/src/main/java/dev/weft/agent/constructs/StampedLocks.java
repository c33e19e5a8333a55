package dev.weft.agent.constructs;

import static dev.weft.agent.constructs.LockCalls.Result.ACQUIRES;
import static dev.weft.agent.constructs.LockCalls.Result.NONZERO_IF_ACQUIRED;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import java.util.Set;

/**
 * Calls of {@code StampedLock} in application code, a {@code locks} family: {@code writeLock},
 * {@code readLock} (SHARED) and their interruptible and try variants (a zero stamp is FAILED, or
 * ABORTED for a timed try), and {@code unlockWrite}, {@code unlockRead}, {@code unlock}. Optimistic
 * reads are not locks and are not recorded; nor are {@code tryConvertTo*} and {@code tryUnlock*}. A
 * stamped lock has no owner: it is never re-entrant, and any thread may release it.
 */
public final class StampedLocks extends ApplicationCallSites {
  private static final String TIMED = "(JLjava/util/concurrent/TimeUnit;)J";

  // Rows of the table, made by bracket(row, call).
  private static final int LOCK = 0;
  private static final int LOCK_INTERRUPTIBLY = 1;
  private static final int TRY_LOCK = 2;
  private static final int TRY_LOCK_TIMED = 3;
  private static final int UNLOCK = 4;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(Set.of("java/util/concurrent/locks/StampedLock")))
          .call("writeLock()J", LOCK)
          .call("readLock()J", LOCK)
          .call("writeLockInterruptibly()J", LOCK_INTERRUPTIBLY)
          .call("readLockInterruptibly()J", LOCK_INTERRUPTIBLY)
          .call("tryWriteLock()J", TRY_LOCK)
          .call("tryReadLock()J", TRY_LOCK)
          .call("tryWriteLock" + TIMED, TRY_LOCK_TIMED)
          .call("tryReadLock" + TIMED, TRY_LOCK_TIMED)
          .call("unlockWrite(J)V", UNLOCK)
          .call("unlockRead(J)V", UNLOCK)
          .call("unlock(J)V", UNLOCK)
          .build();

  @Override
  public Family family() {
    return Family.LOCKS;
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case LOCK:
        return acquire(c, ACQUIRES, 0, false);
      case LOCK_INTERRUPTIBLY:
        return acquire(c, ACQUIRES, 0, true);
      case TRY_LOCK:
        return acquire(c, NONZERO_IF_ACQUIRED, LockFlags.FAILED, false);
      case TRY_LOCK_TIMED:
        return acquire(c, NONZERO_IF_ACQUIRED, LockFlags.ABORTED, true);
      case UNLOCK:
        return release(c);
      default:
        return null;
    }
  }

  private static Bracket acquire(
      ApplicationCallSites.Call c, LockCalls.Result result, int failFlag, boolean interruptible) {
    int shared = c.name.startsWith("read") || c.name.startsWith("tryRead") ? LockFlags.SHARED : 0;
    int region = c.region(ConstructKind.STAMPED_LOCK, "StampedLock." + c.name);
    return LockCalls.acquire(region, shared, result, failFlag, interruptible);
  }

  private static Bracket release(ApplicationCallSites.Call c) {
    return LockCalls.release(c, ConstructKind.STAMPED_LOCK, "StampedLock." + c.name);
  }
}
