package dev.weft.agent.constructs;

import static dev.weft.agent.constructs.LockCalls.Result.ACQUIRES;
import static dev.weft.agent.constructs.LockCalls.Result.NONZERO_IF_ACQUIRED;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import java.util.List;

/**
 * Calls of {@code StampedLock} in application code, a {@code locks} family: {@code writeLock},
 * {@code readLock} (SHARED) and their interruptible and try variants (a zero stamp is FAILED, or
 * ABORTED for a timed try), and {@code unlockWrite}, {@code unlockRead}, {@code unlock}. Optimistic
 * reads are not locks and are not recorded; nor are {@code tryConvertTo*} and {@code tryUnlock*}. A
 * stamped lock has no owner: it is never re-entrant, and any thread may release it.
 */
public final class StampedLocks extends ApplicationCallSites {
  private static final String TIMED = "(JLjava/util/concurrent/TimeUnit;)J";

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.exactly("java/util/concurrent/locks/StampedLock"))
          .call("writeLock()J", c -> acquire(c, ACQUIRES, 0, false))
          .call("readLock()J", c -> acquire(c, ACQUIRES, 0, false))
          .call("writeLockInterruptibly()J", c -> acquire(c, ACQUIRES, 0, true))
          .call("readLockInterruptibly()J", c -> acquire(c, ACQUIRES, 0, true))
          .call("tryWriteLock()J", c -> acquire(c, NONZERO_IF_ACQUIRED, LockFlags.FAILED, false))
          .call("tryReadLock()J", c -> acquire(c, NONZERO_IF_ACQUIRED, LockFlags.FAILED, false))
          .call(
              "tryWriteLock" + TIMED, c -> acquire(c, NONZERO_IF_ACQUIRED, LockFlags.ABORTED, true))
          .call(
              "tryReadLock" + TIMED, c -> acquire(c, NONZERO_IF_ACQUIRED, LockFlags.ABORTED, true))
          .call("unlockWrite(J)V", StampedLocks::release)
          .call("unlockRead(J)V", StampedLocks::release)
          .call("unlock(J)V", StampedLocks::release)
          .build();

  @Override
  public Family family() {
    return Family.LOCKS;
  }

  /** Every class: the shared {@link ClassScan} finds the calls, once for all families. */
  @Override
  public List<String> applicationHints() {
    return List.of("");
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
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
