package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.PoolWorkers;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * jboss-threads' {@code EnhancedQueueExecutor}, the worker pool of XNIO and so of Undertow, WildFly
 * and Quarkus, family {@code executors}: a pool of its own, neither a {@code ThreadPoolExecutor}
 * nor a {@code ForkJoinPool}. {@code execute(Runnable)} wraps each runnable in a {@code Task} of
 * the pool's (an inner class), which a worker runs; those are recorded as the pool's tasks:
 *
 * <ul>
 *   <li>TASK_CREATE when {@code Task}'s constructor returns (only {@code execute} makes one, on the
 *       submitting thread), naming the pool (its outer instance), at a region {@code
 *       EnhancedQueueExecutor.execute} of the pool's class;
 *   <li>TASK_BEGIN/TASK_END around {@code Task.run()}, also when the task throws;
 *   <li>a task the pool rejects ({@code rejectNoThread}, {@code rejectQueueFull}, {@code
 *       rejectShutdown}, {@code rejectException}: thrown back, or handed to the pool's hand-off
 *       executor, which runs the runnable inside, not the task) is withdrawn.
 * </ul>
 *
 * <p>The workers it starts ({@code doStartThread}'s {@code thread.start()}; not its scheduler
 * thread) are announced as its members ({@link Threads}). A worker waits for its next task by
 * parking in {@code PoolThreadNode.park} ({@link #IDLE_PARKS}); {@link Waits} records those parks
 * as the idle wait for a next task ({@code next_task}), and {@link Spins} leaves out the spins
 * before them (idle too). Without this family an Undertow server's workers spent 41 % of a
 * recording's time in {@code condition_wait} (a park at {@code EnhancedQueueExecutor.java:2434}),
 * ranked first with a diagnosis about slow signallers, and no request was a task: no pool queue
 * wait, no hand-over from the I/O thread that dispatched it.
 *
 * <p>At an attach the tasks made after it are recorded as above (each runs a fresh {@code
 * Task.run()}); the workers alive then are found as the pool's from their {@code ThreadBody}
 * ({@code PoolWorkers}), and one parked then is idle ({@code OpenWaits}).
 *
 * <p>The names are those of jboss-threads 3.x (checked against 3.9.2); where a version lacks the
 * task's pool field, tasks are not created.
 */
public final class JBossThreadPools implements ConstructInstrumentation {
  /** The pool, whose {@code doStartThread} starts its workers ({@link Threads}). */
  static final String POOL = "org/jboss/threads/EnhancedQueueExecutor";

  /** The method in which the pool starts a worker (and nothing else). */
  static final String STARTS_WORKERS = "doStartThread";

  /** The class whose parks are a worker's idle waits for its next task ({@link Waits}). */
  static final String IDLE_PARKS = PoolWorkers.JBOSS_IDLE_PARKS.replace('.', '/');

  private static final String TASK = POOL + "$Task";
  private static final String POOL_FIELD = "this$0";
  private static final String POOL_DESCRIPTOR = "L" + POOL + ";";
  private static final String TASK_DESCRIPTOR = "L" + TASK + ";";

  /** The pool's methods that give up a task it will not run, each with the task first. */
  private static final Set<String> REJECTIONS =
      Set.of("rejectNoThread", "rejectQueueFull", "rejectShutdown", "rejectException");

  @Override
  public Family family() {
    return Family.EXECUTORS;
  }

  @Override
  public List<String> applicationHints() {
    return List.of(TASK);
  }

  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return target.internalName().equals(TASK) || target.internalName().equals(POOL);
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    if (target.internalName().equals(POOL)) {
      return JdkMethods.byMethod(
          next,
          (mv, access, name, descriptor, version) -> {
            if ((access & Opcodes.ACC_STATIC) == 0
                && REJECTIONS.contains(name)
                && descriptor.startsWith("(" + TASK_DESCRIPTOR)) {
              target.changed();
              return new Withdrawn(mv, target, access, name, descriptor, version);
            }
            return mv;
          });
    }
    if (!target.internalName().equals(TASK)) {
      return next;
    }
    // The constructor creates the task once the pool field is known to exist (fields are visited
    // before methods).
    DeclaredField pool = new DeclaredField(next, false, POOL_FIELD, POOL_DESCRIPTOR);
    return JdkMethods.byMethod(
        pool,
        (mv, access, name, descriptor, version) -> {
          if (pool.seen && name.equals("<init>")) {
            // Named after the pool's execute, where the task is made: the task class says less.
            int region =
                ExecutorTasks.region(
                    target,
                    ConstructKind.EXECUTOR,
                    "EnhancedQueueExecutor.execute",
                    POOL.replace('/', '.'),
                    "execute");
            return TaskCreateHook.ofConstructed(
                mv, target, access, name, descriptor, version, region, POOL_FIELD, POOL_DESCRIPTOR);
          }
          if ((access & Opcodes.ACC_STATIC) == 0
              && name.equals("run")
              && descriptor.equals("()V")) {
            target.changed();
            return new TaskRunHook(mv, target, access, name, descriptor, version, 0);
          }
          return mv;
        });
  }

  /** A rejection: the task in its first parameter is withdrawn at the method's start. */
  private static final class Withdrawn extends HookedMethod {
    Withdrawn(
        MethodVisitor mv,
        WeaveTarget target,
        int access,
        String name,
        String descriptor,
        int version) {
      super(mv, target.internalName(), access, name, descriptor, version);
    }

    @Override
    protected boolean shouldHook() {
      return true;
    }

    @Override
    protected void onEnter() {
      mv.visitVarInsn(Opcodes.ALOAD, 1);
      Bridge.TASK_WITHDRAWN.call(mv);
    }
  }
}
