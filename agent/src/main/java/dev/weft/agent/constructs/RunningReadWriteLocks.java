package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * The read and write locks of a {@code ReentrantReadWriteLock} in frames that were running when the
 * agent attached (family {@code locks}): hooks in their {@code lock}, {@code lockInterruptibly},
 * {@code tryLock}s and {@code unlock}, which such frames call afresh, recorded as {@link
 * RunningLocks} records a {@code ReentrantLock} (read acquisitions SHARED). Only an attached agent
 * weaves them.
 */
public final class RunningReadWriteLocks extends CalleeHookFamily {
  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          "java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock", RunningLocks.LOCK_API,
          "java/util/concurrent/locks/ReentrantReadWriteLock$WriteLock", RunningLocks.LOCK_API);

  public RunningReadWriteLocks() {
    super(Family.LOCKS, OPERATIONS, Set.of(RunningFrames.UNLOCK));
  }
}
