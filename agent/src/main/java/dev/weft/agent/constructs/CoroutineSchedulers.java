package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.PoolWorkers;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Kotlin coroutines' scheduler ({@code kotlinx.coroutines.scheduling.CoroutineScheduler}, behind
 * {@code Dispatchers.Default} and {@code Dispatchers.IO}), family {@code executors}: a pool of its
 * own, neither a {@code ThreadPoolExecutor} nor a {@code ForkJoinPool}, whose tasks (a resumed
 * coroutine, a {@code Runnable} given to the dispatcher as an executor) are recorded as a pool's:
 *
 * <ul>
 *   <li>TASK_CREATE where {@code createTask(block, …)} returns the task it made (every {@code
 *       dispatch} makes one there), naming the scheduler as the pool, at a region {@code
 *       CoroutineScheduler.dispatch}; within the caller's own region (an {@code execute} call site,
 *       a coroutine builder), so that the task is attributed to the line that dispatched it;
 *   <li>TASK_BEGIN/TASK_END around {@code runSafely(task)}, the one place a worker runs a task,
 *       also when the task throws.
 * </ul>
 *
 * <p>The workers it starts ({@code createNewWorker}'s {@code worker.start()}) are announced as the
 * scheduler's ({@link Threads}), so that their time without a task is the pool's idle time and a
 * task's begin on an idle worker is a hand-over from the thread that dispatched it.
 *
 * <p>Its workers wait for work by parking ({@code CoroutineScheduler.Worker}: {@code
 * LockSupport.parkNanos} in {@code park()} and in {@code runWorker()}); {@link Waits} records those
 * parks as the idle wait for a next task ({@code next_task}), not as a wait to be signalled.
 * Without this family a program on coroutines showed its idle workers as {@code condition_wait} (a
 * park) with a diagnosis about slow signallers, and the critical path ran through their idle time,
 * since no hand-over from the dispatching thread was recorded.
 *
 * <p>The names are those of kotlinx-coroutines 1.7 to 1.11 (checked against 1.11.0); where a
 * version lacks a method, that part is not woven.
 */
public final class CoroutineSchedulers implements ConstructInstrumentation {
  static final String SCHEDULER = "kotlinx/coroutines/scheduling/CoroutineScheduler";

  /** The class whose {@code parkNanos} calls are its workers' idle waits ({@link Waits}). */
  static final String WORKER = PoolWorkers.COROUTINE_WORKER.replace('.', '/');

  private static final String TASK = "Lkotlinx/coroutines/scheduling/Task;";

  @Override
  public Family family() {
    return Family.EXECUTORS;
  }

  @Override
  public List<String> applicationHints() {
    return List.of(SCHEDULER);
  }

  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return target.internalName().equals(SCHEDULER);
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    if (!target.internalName().equals(SCHEDULER)) {
      return next;
    }
    return JdkMethods.byMethod(
        next,
        (mv, access, name, descriptor, version) -> {
          if ((access & Opcodes.ACC_STATIC) != 0) {
            return mv;
          }
          if (name.equals("createTask")
              && descriptor.startsWith("(Ljava/lang/Runnable;")
              && descriptor.endsWith(")" + TASK)) {
            int region =
                ExecutorTasks.region(
                    target, ConstructKind.EXECUTOR, "CoroutineScheduler.dispatch", "dispatch");
            return TaskCreateHook.ofReturned(mv, target, access, name, descriptor, version, region);
          }
          if (name.equals("runSafely") && descriptor.equals("(" + TASK + ")V")) {
            target.changed();
            return new TaskRunHook(mv, target, access, name, descriptor, version, 1);
          }
          return mv;
        });
  }
}
