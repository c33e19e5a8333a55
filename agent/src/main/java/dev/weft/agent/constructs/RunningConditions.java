package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code Condition.await} of the JDK's locks in frames that were running when the agent attached
 * (family {@code waits}): hooks in the await methods of {@code
 * AbstractQueuedSynchronizer.ConditionObject}, which such frames call afresh. Only an attached
 * agent weaves them. The wait is recorded as the call-site hooks record it (the lock given up, the
 * wait, the lock taken back), when the thread's hold of the lock was recorded.
 */
public final class RunningConditions extends CalleeHookFamily {
  private static final String CONDITION_OBJECT =
      "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject";

  private static final Map<String, Integer> OPERATIONS =
      Map.of(
          "await()V", RunningFrames.CONDITION_AWAIT,
          "awaitUninterruptibly()V", RunningFrames.CONDITION_AWAIT,
          "awaitNanos(J)J", RunningFrames.CONDITION_AWAIT,
          "await(JLjava/util/concurrent/TimeUnit;)Z", RunningFrames.CONDITION_AWAIT,
          "awaitUntil(Ljava/util/Date;)Z", RunningFrames.CONDITION_AWAIT);

  public RunningConditions() {
    super(Family.WAITS, Map.of(CONDITION_OBJECT, OPERATIONS), Set.of());
  }
}
