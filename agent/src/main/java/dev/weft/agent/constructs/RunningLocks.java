package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code ReentrantLock} acquisitions and releases in frames that were running when the agent
 * attached (family {@code locks}): hooks in {@code lock}, {@code lockInterruptibly}, both {@code
 * tryLock}s and {@code unlock} themselves, which such frames call afresh. Only an attached agent
 * weaves them; the recorder keeps the user's calls that call-site weaving did not see.
 */
public final class RunningLocks extends CalleeHookFamily {
  private static final String REENTRANT_LOCK = "java/util/concurrent/locks/ReentrantLock";

  /** The {@code Lock} methods, also those of a read/write lock's views. */
  static final Map<String, Integer> LOCK_API =
      Map.of(
          "lock()V", RunningFrames.LOCK,
          "lockInterruptibly()V", RunningFrames.LOCK_INTERRUPTIBLY,
          "tryLock()Z", RunningFrames.TRY_LOCK,
          "tryLock(JLjava/util/concurrent/TimeUnit;)Z", RunningFrames.TRY_LOCK_TIMED,
          "unlock()V", RunningFrames.UNLOCK);

  public RunningLocks() {
    super(Family.LOCKS, Map.of(REENTRANT_LOCK, LOCK_API), Set.of(RunningFrames.UNLOCK));
  }
}
