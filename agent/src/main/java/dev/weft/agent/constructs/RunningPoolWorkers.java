package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * The tasks of {@code ThreadPoolExecutor} workers whose loop was running when the agent attached
 * (family {@code executors}): hooks at the entry of {@code beforeExecute(thread, task)} and {@code
 * afterExecute(task, thrown)}, which {@code runWorker} calls afresh around every task, reporting
 * the task. A worker's {@code runWorker} never returns, so without them its tasks were not seen and
 * its idle time between them counted as execution ({@link ExecutorTasks} records the tasks of
 * workers that run the woven loop; the recorder keeps to the others). Only an attached agent weaves
 * them. A pool that overrides either method without calling {@code super} hides its tasks from
 * them.
 */
public final class RunningPoolWorkers extends CalleeHookFamily {
  /** A pool's hooks, by method: the same in a library's copy of the class (Tomcat's). */
  static final Map<String, Integer> POOL_HOOKS =
      Map.of(
          "beforeExecute(Ljava/lang/Thread;Ljava/lang/Runnable;)V",
          RunningFrames.POOL_TASK_BEGIN,
          "afterExecute(Ljava/lang/Runnable;Ljava/lang/Throwable;)V",
          RunningFrames.POOL_TASK_END);

  /** Both hooks at their entry only. */
  static final Set<Integer> ENTRY_ONLY =
      Set.of(RunningFrames.POOL_TASK_BEGIN, RunningFrames.POOL_TASK_END);

  /** The task: beforeExecute's second argument, afterExecute's first. */
  static final Map<Integer, Integer> TASK_SLOTS =
      Map.of(RunningFrames.POOL_TASK_BEGIN, 2, RunningFrames.POOL_TASK_END, 1);

  public RunningPoolWorkers() {
    super(
        Family.EXECUTORS,
        Map.of("java/util/concurrent/ThreadPoolExecutor", POOL_HOOKS),
        ENTRY_ONLY,
        TASK_SLOTS);
  }
}
