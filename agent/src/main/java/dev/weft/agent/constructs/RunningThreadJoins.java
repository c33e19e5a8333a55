package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code Thread.join} in frames that were running when the agent attached (family {@code joins}):
 * hooks in every {@code join} method of {@code Thread}, which such frames call afresh. Only an
 * attached agent weaves them; the recorder keeps the user's calls that call-site weaving did not
 * see.
 */
public final class RunningThreadJoins extends CalleeHookFamily {
  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          "java/lang/Thread",
          Map.of(
              "join()V", RunningFrames.THREAD_JOIN,
              "join(J)V", RunningFrames.THREAD_JOIN,
              "join(JI)V", RunningFrames.THREAD_JOIN,
              "join(Ljava/time/Duration;)Z", RunningFrames.THREAD_JOIN));

  public RunningThreadJoins() {
    super(Family.JOINS, OPERATIONS, Set.of());
  }
}
