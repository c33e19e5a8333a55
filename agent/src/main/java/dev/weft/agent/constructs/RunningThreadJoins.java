package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import java.util.Map;
import java.util.Set;

/**
 * {@code Thread.join} in frames that were running when the agent attached (family {@code joins}):
 * hooks in every {@code join} method of {@code Thread}, which such frames call afresh. Only an
 * attached agent weaves them; the recorder keeps the user's calls that call-site weaving did not
 * see.
 */
public final class RunningThreadJoins implements ConstructInstrumentation {
  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          "java/lang/Thread",
          Map.of(
              "join()V", RunningFrames.THREAD_JOIN,
              "join(J)V", RunningFrames.THREAD_JOIN,
              "join(JI)V", RunningFrames.THREAD_JOIN,
              "join(Ljava/time/Duration;)Z", RunningFrames.THREAD_JOIN));

  @Override
  public Family family() {
    return Family.JOINS;
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
