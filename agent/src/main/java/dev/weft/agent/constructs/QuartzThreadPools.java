package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Quartz's own thread pool ({@code org.quartz.simpl.SimpleThreadPool}, the scheduler's default),
 * family {@code executors}: a pool neither a {@code ThreadPoolExecutor} nor a {@code ForkJoinPool},
 * whose jobs are recorded as a pool's tasks:
 *
 * <ul>
 *   <li>TASK_CREATE where the scheduler thread hands a job to an idle worker ({@code
 *       WorkerThread.run(Runnable)}, called from {@code runInThread}), naming the worker's pool, at
 *       a region {@code SimpleThreadPool.runInThread};
 *   <li>TASK_BEGIN/TASK_END around the job's run ({@code JobRunShell.run()}, the runnable the
 *       scheduler hands over), also when the job throws.
 * </ul>
 *
 * <p>The workers the pool starts ({@code wt.start()} in its own methods) are announced as its
 * members ({@link Threads}). A worker waits for its next job in {@code lock.wait(500)} inside
 * {@code WorkerThread.run()}, and the scheduler thread waits for its next trigger's time in {@code
 * sigLock.wait(ms)} ({@code QuartzSchedulerThread.run()}): {@link Waits} records the first as the
 * idle wait for a next task ({@code next_task}) and the second as a timer's wait until its task is
 * due ({@code timer_due}), both giving up their monitor as any {@code Object.wait}. Without this
 * family the workers' idle time was {@code condition_wait} (60 % of a scheduler's threads' time),
 * charged as delay cost to the scheduler thread, whose own wait for the next trigger was a
 * condition wait too, and no job was a task.
 *
 * <p>The names are those of Quartz 2.x (checked against 2.5.2); where a version lacks the worker's
 * pool field, jobs are not created as tasks.
 */
public final class QuartzThreadPools implements ConstructInstrumentation {
  /** The pool, whose own methods start its workers ({@link Threads}). */
  static final String POOL = "org/quartz/simpl/SimpleThreadPool";

  /** A pool's worker thread, whose {@code Object.wait} is its idle wait ({@link Waits}). */
  static final String WORKER = POOL + "$WorkerThread";

  /** The job's runnable, which a worker runs. */
  private static final String JOB_RUN_SHELL = "org/quartz/core/JobRunShell";

  private static final String POOL_FIELD = "tp";
  private static final String POOL_DESCRIPTOR = "L" + POOL + ";";

  @Override
  public Family family() {
    return Family.EXECUTORS;
  }

  @Override
  public List<String> applicationHints() {
    return List.of(WORKER, JOB_RUN_SHELL);
  }

  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return target.internalName().equals(WORKER) || target.internalName().equals(JOB_RUN_SHELL);
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    if (target.internalName().equals(WORKER)) {
      // run(Runnable) creates the task, once the pool field is known to exist (fields are visited
      // before methods).
      DeclaredField pool = new DeclaredField(next, false, POOL_FIELD, POOL_DESCRIPTOR);
      return JdkMethods.byMethod(
          pool,
          (mv, access, name, descriptor, version) -> {
            if (pool.seen
                && (access & Opcodes.ACC_STATIC) == 0
                && name.equals("run")
                && descriptor.equals("(Ljava/lang/Runnable;)V")) {
              int region =
                  ExecutorTasks.region(
                      target,
                      ConstructKind.EXECUTOR,
                      "SimpleThreadPool.runInThread",
                      "runInThread");
              return TaskCreateHook.ofParameter(
                  mv,
                  target,
                  access,
                  name,
                  descriptor,
                  version,
                  region,
                  1,
                  POOL_FIELD,
                  POOL_DESCRIPTOR);
            }
            return mv;
          });
    }
    if (target.internalName().equals(JOB_RUN_SHELL)) {
      return JdkMethods.byMethod(
          next,
          (mv, access, name, descriptor, version) -> {
            if ((access & Opcodes.ACC_STATIC) == 0
                && name.equals("run")
                && descriptor.equals("()V")) {
              target.changed();
              return new TaskRunHook(mv, target, access, name, descriptor, version, 0);
            }
            return mv;
          });
    }
    return next;
  }
}
