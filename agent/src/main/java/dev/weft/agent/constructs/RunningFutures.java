package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code Future.get} on a {@code FutureTask} (what executors return) and {@code get} and {@code
 * join} of a {@code CompletableFuture}, in frames that were running when the agent attached (family
 * {@code futures}): hooks in those methods, which such frames call afresh. Only an attached agent
 * weaves them; the recorder keeps the user's calls that call-site weaving did not see.
 */
public final class RunningFutures extends CalleeHookFamily {
  private static final String GET_TIMED = "get(JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;";

  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          "java/util/concurrent/FutureTask",
          Map.of(
              "get()Ljava/lang/Object;",
              RunningFrames.FUTURE_GET,
              GET_TIMED,
              RunningFrames.FUTURE_GET),
          "java/util/concurrent/CompletableFuture",
          Map.of(
              "get()Ljava/lang/Object;",
              RunningFrames.COMPLETABLE_GET,
              GET_TIMED,
              RunningFrames.COMPLETABLE_GET,
              "join()Ljava/lang/Object;",
              RunningFrames.COMPLETABLE_GET));

  public RunningFutures() {
    super(Family.FUTURES, OPERATIONS, Set.of());
  }
}
