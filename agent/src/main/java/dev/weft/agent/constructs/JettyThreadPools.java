package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Jetty's {@code QueuedThreadPool} (the thread pool of every Jetty server, and so of the
 * applications embedding one), family {@code executors}: a pool of its own, neither a {@code
 * ThreadPoolExecutor} nor a {@code ForkJoinPool}, whose jobs are recorded as a pool's tasks:
 *
 * <ul>
 *   <li>TASK_CREATE at the entry of {@code execute(Runnable)}, in the pool {@code this}, at a
 *       region {@code QueuedThreadPool.execute}; when {@code execute} throws (the job queue is
 *       full, the pool is stopping: {@code RejectedExecutionException}) the job is withdrawn;
 *   <li>TASK_BEGIN/TASK_END around {@code runJob(Runnable)}, the one place a worker runs a job,
 *       also when the job throws; not for the pool's own no-op job, which its stop puts in the
 *       queue to wake the workers.
 * </ul>
 *
 * <p>The workers it starts ({@code startThread}'s {@code thread.start()}) are announced as its
 * members ({@link Threads}). A worker waits for its next job in {@code _jobs.poll(timeout)}, whose
 * result is cast to a job: an idle wait for a next task already ({@link TaskQueueTakes}). Without
 * this family a Jetty server's requests were no tasks: no pool queue wait, no hand-over from the
 * selector thread that dispatched them on the critical path, and a worker's request handling was
 * execution outside any task.
 *
 * <p>Not tasks: what {@code tryExecute} hands to a reserved thread (it runs inside that thread's
 * own job, a {@code ReservedThreadExecutor}'s loop, which is one long task). At an attach the jobs
 * executed after it are recorded as above (each is a fresh {@code runJob} call); the workers alive
 * then are found as the pool's from their {@code Runner} ({@code PoolWorkers}).
 *
 * <p>The names are those of Jetty 10 to 12 (checked against 12.0.16).
 */
public final class JettyThreadPools implements ConstructInstrumentation {
  /** The pool, whose {@code startThread} starts its workers ({@link Threads}). */
  static final String POOL = "org/eclipse/jetty/util/thread/QueuedThreadPool";

  /** The method in which the pool starts a worker. */
  static final String STARTS_WORKERS = "startThread";

  private static final String RUNNABLE = "Ljava/lang/Runnable;";
  private static final String RUNNABLE_ARG = "(" + RUNNABLE + ")V";

  /** The pool's static no-op job, which wakes its workers at its stop. */
  private static final String NOOP = "NOOP";

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
    // Fields are visited before methods: runJob knows whether the pool has its no-op job.
    DeclaredField noop = new DeclaredField(next, true, NOOP, RUNNABLE);
    return JdkMethods.byMethod(
        noop,
        (mv, access, name, descriptor, version) -> {
          if ((access & Opcodes.ACC_STATIC) != 0 || !descriptor.equals(RUNNABLE_ARG)) {
            return mv;
          }
          if (name.equals("execute")) {
            int region =
                ExecutorTasks.region(
                    target, ConstructKind.EXECUTOR, "QueuedThreadPool.execute", "execute");
            return new SubmitHook(mv, target, access, name, descriptor, version, region);
          }
          if (name.equals("runJob")) {
            target.changed();
            return noop.seen
                ? new RunJob(mv, target, access, name, descriptor, version)
                : new TaskRunHook(mv, target, access, name, descriptor, version, 1);
          }
          return mv;
        });
  }

  /**
   * {@code runJob(job)}: TASK_BEGIN/TASK_END around it, but for the pool's own no-op job ({@code
   * NOOP}), which its {@code doStop} puts straight in the queue, one per worker, to wake the
   * workers: no task of the program's, and never created through {@code execute}.
   */
  private static final class RunJob extends HookedMethod {
    private final String owner;

    RunJob(
        MethodVisitor mv,
        WeaveTarget target,
        int access,
        String name,
        String descriptor,
        int version) {
      super(mv, target.internalName(), access, name, descriptor, version);
      this.owner = target.internalName();
    }

    @Override
    protected boolean shouldHook() {
      return true;
    }

    @Override
    protected void onEnter() {
      unlessNoop(Bridge.TASK_BEGIN);
    }

    @Override
    protected void onReturn(int opcode) {
      unlessNoop(Bridge.TASK_END); // runJob is void: the stack is empty
    }

    @Override
    protected void onThrow() {
      unlessNoop(Bridge.TASK_END, "java/lang/Throwable");
    }

    /** {@code if (job != NOOP) call(job);}, with {@code stack} on the operand stack throughout. */
    private void unlessNoop(Bridge call, Object... stack) {
      Label skip = new Label();
      mv.visitVarInsn(Opcodes.ALOAD, 1);
      mv.visitFieldInsn(Opcodes.GETSTATIC, owner, NOOP, RUNNABLE);
      mv.visitJumpInsn(Opcodes.IF_ACMPEQ, skip);
      mv.visitVarInsn(Opcodes.ALOAD, 1);
      call.call(mv);
      mv.visitLabel(skip);
      parameterFrame(stack);
    }
  }
}
