package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code CyclicBarrier.await} in frames that were running when the agent attached (family {@code
 * barriers}): hooks in both {@code await} methods, which such frames call afresh. Only an attached
 * agent weaves them; the recorder keeps the user's calls that call-site weaving did not see.
 */
public final class RunningBarriers extends CalleeHookFamily {
  private static final String CYCLIC_BARRIER = "java/util/concurrent/CyclicBarrier";

  private static final Map<String, Integer> OPERATIONS =
      Map.of(
          "await()I", RunningFrames.BARRIER_AWAIT,
          "await(JLjava/util/concurrent/TimeUnit;)I", RunningFrames.BARRIER_AWAIT);

  public RunningBarriers() {
    super(Family.BARRIERS, Map.of(CYCLIC_BARRIER, OPERATIONS), Set.of());
  }
}
