package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code StampedLock} acquisitions and releases in frames that were running when the agent attached
 * (family {@code locks}): hooks in its {@code readLock} and {@code writeLock} methods (plain,
 * interruptible, try and timed try) and its {@code unlock*}, recorded as {@link StampedLocks}
 * records their call sites (read acquisitions SHARED; a zero stamp is FAILED, or ABORTED for a
 * timed try). Optimistic reads and conversions are not locks here either. Only an attached agent
 * weaves them.
 */
public final class RunningStampedLocks extends CalleeHookFamily {
  private static final String STAMPED_LOCK = "java/util/concurrent/locks/StampedLock";
  private static final String TIMED = "(JLjava/util/concurrent/TimeUnit;)J";

  private static final Map<String, Integer> OPERATIONS =
      Map.ofEntries(
          Map.entry("readLock()J", RunningFrames.STAMPED_READ),
          Map.entry("readLockInterruptibly()J", RunningFrames.STAMPED_READ),
          Map.entry("writeLock()J", RunningFrames.STAMPED_WRITE),
          Map.entry("writeLockInterruptibly()J", RunningFrames.STAMPED_WRITE),
          Map.entry("tryReadLock()J", RunningFrames.STAMPED_TRY_READ),
          Map.entry("tryWriteLock()J", RunningFrames.STAMPED_TRY_WRITE),
          Map.entry("tryReadLock" + TIMED, RunningFrames.STAMPED_TRY_READ_TIMED),
          Map.entry("tryWriteLock" + TIMED, RunningFrames.STAMPED_TRY_WRITE_TIMED),
          // No holder, as a semaphore's permits: released as a semaphore is.
          Map.entry("unlockRead(J)V", RunningFrames.SEMAPHORE_RELEASE),
          Map.entry("unlockWrite(J)V", RunningFrames.SEMAPHORE_RELEASE),
          Map.entry("unlock(J)V", RunningFrames.SEMAPHORE_RELEASE));

  public RunningStampedLocks() {
    super(Family.LOCKS, Map.of(STAMPED_LOCK, OPERATIONS), Set.of(RunningFrames.SEMAPHORE_RELEASE));
  }
}
