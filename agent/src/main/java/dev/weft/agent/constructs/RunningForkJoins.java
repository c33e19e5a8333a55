package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * Fork-join joins in frames that were running when the agent attached (family {@code forkjoin}):
 * hooks in {@code ForkJoinTask.join}, {@code quietlyJoin}, {@code get} (untimed and timed), {@code
 * invoke} and {@code quietlyInvoke}, and in {@code ForkJoinPool.invoke(task)}, which such frames
 * call afresh. Only an attached agent weaves them; the recorder keeps the user's calls that
 * call-site weaving ({@link ForkJoinSites}) did not see, and records them as it does: a join wait
 * for the task, and {@code invoke} from outside any pool as a region on the common pool. Tasks the
 * joining thread runs meanwhile are recorded by {@link ForkJoinTasks}, nested in the wait, as under
 * call-site weaving. Not {@code invokeAll} (static: no task to hand to the hook).
 */
public final class RunningForkJoins extends CalleeHookFamily {
  private static final String TIMEOUT = "(JLjava/util/concurrent/TimeUnit;)";

  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          Brackets.FORK_JOIN_TASK,
          Map.of(
              "join()Ljava/lang/Object;",
              RunningFrames.FORK_JOIN_JOIN,
              "quietlyJoin()V",
              RunningFrames.FORK_JOIN_JOIN,
              "get()Ljava/lang/Object;",
              RunningFrames.FORK_JOIN_JOIN,
              "get" + TIMEOUT + "Ljava/lang/Object;",
              RunningFrames.FORK_JOIN_JOIN,
              "quietlyJoin" + TIMEOUT + "Z",
              RunningFrames.FORK_JOIN_JOIN,
              "invoke()Ljava/lang/Object;",
              RunningFrames.FORK_JOIN_INVOKE,
              "quietlyInvoke()V",
              RunningFrames.FORK_JOIN_INVOKE),
          Brackets.FORK_JOIN_POOL,
          Map.of(
              "invoke(Ljava/util/concurrent/ForkJoinTask;)Ljava/lang/Object;",
              RunningFrames.FORK_JOIN_POOL_INVOKE));

  public RunningForkJoins() {
    super(Family.FORKJOIN, OPERATIONS, Set.of());
  }
}
