package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.Set;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@code CompletableFuture} async stages (family {@code futures}). Each async stage is a task
 * object of the JDK ({@code AsyncSupply}, {@code AsyncRun}, or the dependent's {@code Completion},
 * all fork-join tasks) handed to the stage's executor: on a fork-join pool it is recorded by {@link
 * ForkJoinTasks}, on a thread pool by {@link ExecutorTasks}. A dependent stage ({@code
 * thenApplyAsync}) is submitted by the thread that completes its source, usually inside the source
 * task, so its TASK_CREATE lies within the source's TASK_BEGIN/END: the chain is linked.
 *
 * <p>What is left is JDK 17's fallback when the common pool has parallelism 1 (one or two cores): a
 * new thread per task ({@code CompletableFuture.ThreadPerTaskExecutor}). Here TASK_CREATE is
 * recorded in its {@code execute}, and TASK_BEGIN/END around the task's {@code run()} in {@code
 * Thread.run}, for tasks that are {@code AsynchronousCompletionTask}s; the thread's start in {@code
 * execute} is THREAD_CREATE, as where application code starts a thread ({@link Threads}), so the
 * thread has a lifetime and the critical path a hand-over into it. (JDK 25 always uses a pool.)
 */
public final class CompletableFutures implements ConstructInstrumentation {
  private static final String PER_TASK =
      "java/util/concurrent/CompletableFuture$ThreadPerTaskExecutor";
  private static final String THREAD = "java/lang/Thread";
  private static final String ASYNC_TASK =
      "java/util/concurrent/CompletableFuture$AsynchronousCompletionTask";

  @Override
  public Family family() {
    return Family.FUTURES;
  }

  @Override
  public Set<String> jdkClasses() {
    return Set.of(PER_TASK, THREAD);
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    if (target.internalName().equals(PER_TASK)) {
      return JdkMethods.weave(
          target,
          (mv, access, name, descriptor, version) -> {
            if (!name.equals("execute") || !descriptor.equals("(Ljava/lang/Runnable;)V")) {
              return mv;
            }
            int region =
                ExecutorTasks.region(
                    target, ConstructKind.COMPLETABLE_FUTURE, "CompletableFuture async", name);
            // The thread it starts for the task: its start is known, so the thread's lifetime
            // is recorded and the critical path goes from the submitter into it.
            Bracket start =
                Threads.beforeStart(
                    ExecutorTasks.region(target, ConstructKind.THREAD_START, "Thread.start", name));
            MethodVisitor starts =
                JdkMethods.callSites(
                    mv,
                    target.internalName(),
                    access,
                    name,
                    descriptor,
                    version,
                    (opcode, owner, callName, callDescriptor) ->
                        owner.equals(THREAD)
                                && callName.equals("start")
                                && callDescriptor.equals("()V")
                            ? start
                            : null);
            return JdkMethods.atEntry(starts, m -> Brackets.taskCreate(m, region, 1, 0));
          });
    }
    return JdkMethods.callSitesIn(
        target,
        "run",
        "()V",
        (opcode, owner, callName, callDescriptor) -> {
          if (!owner.equals("java/lang/Runnable") || !callName.equals("run")) {
            return null;
          }
          target.changed();
          return ASYNC_TASK_RUN;
        });
  }

  /** TASK_BEGIN/END around {@code target.run()} when the target is an async stage. */
  private static final Bracket ASYNC_TASK_RUN =
      new Bracket() {
        @Override
        protected boolean keepsOperands() {
          return true;
        }

        @Override
        protected boolean hasCondition() {
          return true;
        }

        @Override
        protected void condition(MethodVisitor mv, Site site) {
          site.loadReceiver(mv);
          mv.visitTypeInsn(Opcodes.INSTANCEOF, ASYNC_TASK);
        }

        @Override
        protected void before(MethodVisitor mv, Site site) {
          site.when(true, () -> Brackets.TASK_RUN.before(mv, site));
        }

        @Override
        protected void after(MethodVisitor mv, Site site) {
          site.when(true, () -> Brackets.TASK_RUN.after(mv, site));
        }
      };
}
