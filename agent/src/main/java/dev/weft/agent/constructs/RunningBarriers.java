package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import java.util.Map;
import java.util.Set;

/**
 * {@code CyclicBarrier.await} in frames that were running when the agent attached (family {@code
 * barriers}): hooks in both {@code await} methods, which such frames call afresh. Only an attached
 * agent weaves them; the recorder keeps the user's calls that call-site weaving did not see.
 */
public final class RunningBarriers implements ConstructInstrumentation {
  private static final String CYCLIC_BARRIER = "java/util/concurrent/CyclicBarrier";

  private static final Map<String, Integer> OPERATIONS =
      Map.of(
          "await()I", RunningFrames.BARRIER_AWAIT,
          "await(JLjava/util/concurrent/TimeUnit;)I", RunningFrames.BARRIER_AWAIT);

  @Override
  public Family family() {
    return Family.BARRIERS;
  }

  @Override
  public Set<String> jdkClasses() {
    return CalleeHooks.whenAttached(Set.of(CYCLIC_BARRIER));
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    return CalleeHooks.weave(target, OPERATIONS, Set.of());
  }
}
