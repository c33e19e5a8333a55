package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import java.util.Map;
import java.util.Set;

/**
 * {@code CountDownLatch.await} and {@code countDown} in frames that were running when the agent
 * attached (family {@code barriers}): hooks in both {@code await} methods and {@code countDown},
 * which such frames call afresh. Only an attached agent weaves them; the recorder keeps the user's
 * calls that call-site weaving did not see.
 */
public final class RunningLatches implements ConstructInstrumentation {
  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          "java/util/concurrent/CountDownLatch",
          Map.of(
              "await()V", RunningFrames.LATCH_AWAIT,
              "await(JLjava/util/concurrent/TimeUnit;)Z", RunningFrames.LATCH_AWAIT_TIMED,
              "countDown()V", RunningFrames.LATCH_COUNT_DOWN));

  @Override
  public Family family() {
    return Family.BARRIERS;
  }

  @Override
  public Set<String> jdkClasses() {
    return CalleeHooks.whenAttached(OPERATIONS.keySet());
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    return CalleeHooks.weave(target, OPERATIONS.get(target.internalName()), Set.of());
  }
}
