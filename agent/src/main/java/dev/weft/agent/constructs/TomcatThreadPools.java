package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import java.util.List;
import org.objectweb.asm.ClassVisitor;

/**
 * Tomcat's own copy of {@code ThreadPoolExecutor} ({@code
 * org.apache.tomcat.util.threads.ThreadPoolExecutor}, the executor of every Tomcat connector),
 * family {@code executors}: the JDK's class, copied and changed, so the JDK's weaving never sees
 * it. Its tasks (a connector's socket processors: a connection's processing, one or more requests
 * as they come on it) are recorded as the JDK pool's ({@link ExecutorTasks}):
 *
 * <ul>
 *   <li>TASK_CREATE at the entry of {@code execute(Runnable)}, in the pool {@code this};
 *   <li>TASK_BEGIN/TASK_END around the {@code task.run()} call in {@code runWorker};
 *   <li>the workers {@code addWorker} starts are announced as the pool's members ({@link Threads}).
 * </ul>
 *
 * <p>The workers' waits for their next task ({@code workQueue.poll}/{@code take} in {@code
 * getTask}, whose result is cast to a task) are idle waits for a next task already ({@link
 * TaskQueueTakes}). Without this family a connector's requests were no tasks: no pool queue wait,
 * no submission → begin hand-over on the critical path, and a worker's request handling was
 * execution outside any task.
 *
 * <p>At an attach its workers alive then keep the original {@code runWorker} loop: their tasks are
 * reported by hooks at the entry of the copy's {@code beforeExecute} and {@code afterExecute}, as
 * for the JDK's pool ({@link RunningPoolWorkers}), and the recorder makes them the pool's members
 * ({@code PoolWorkers}).
 *
 * <p>Not recorded: a task the pool rejects; Tomcat's {@code execute} then puts it in the queue
 * after all ({@code TaskQueue.force}), so it runs and is no withdrawal. The names are those of
 * Tomcat 9 to 11 (checked against 11.0.27).
 */
public final class TomcatThreadPools implements ConstructInstrumentation {
  /** The pool, whose {@code addWorker} starts its workers ({@link Threads}). */
  static final String POOL = "org/apache/tomcat/util/threads/ThreadPoolExecutor";

  @Override
  public Family family() {
    return Family.EXECUTORS;
  }

  @Override
  public List<String> applicationHints() {
    return List.of(POOL);
  }

  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return target.internalName().equals(POOL);
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    if (!target.internalName().equals(POOL)) {
      return next;
    }
    // Attached: the workers running since before keep the original runWorker loop, whose tasks
    // beforeExecute and afterExecute report, as for the JDK's pool (RunningPoolWorkers).
    JdkMethods.Weaver running =
        CalleeHooks.hooks(
            target,
            RunningPoolWorkers.POOL_HOOKS,
            RunningPoolWorkers.ENTRY_ONLY,
            RunningPoolWorkers.TASK_SLOTS);
    return JdkMethods.byMethod(
        next, ExecutorTasks.threadPoolTasks(target, "Tomcat ThreadPoolExecutor.execute", running));
  }
}
