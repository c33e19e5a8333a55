package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code CountDownLatch.await} and {@code countDown} in frames that were running when the agent
 * attached (family {@code barriers}): hooks in both {@code await} methods and {@code countDown},
 * which such frames call afresh. Only an attached agent weaves them; the recorder keeps the user's
 * calls that call-site weaving did not see.
 */
public final class RunningLatches extends CalleeHookFamily {
  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          "java/util/concurrent/CountDownLatch",
          Map.of(
              "await()V", RunningFrames.LATCH_AWAIT,
              "await(JLjava/util/concurrent/TimeUnit;)Z", RunningFrames.LATCH_AWAIT_TIMED,
              "countDown()V", RunningFrames.LATCH_COUNT_DOWN));

  public RunningLatches() {
    super(Family.BARRIERS, OPERATIONS, Set.of());
  }
}
