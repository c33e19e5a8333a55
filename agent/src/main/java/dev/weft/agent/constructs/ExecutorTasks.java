package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.Set;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Executor tasks inside the JDK (family {@code executors}); a task is the {@code Runnable} the
 * executor runs, identified by its identity hash code, so that the queue wait (create → begin) is
 * measured per task:
 *
 * <ul>
 *   <li>{@code ThreadPoolExecutor}: TASK_CREATE at the entry of {@code execute(Runnable)} (every
 *       {@code submit} ends there with its {@code FutureTask}); TASK_BEGIN/END around the {@code
 *       task.run()} call in {@code runWorker}; where {@code addWorker} starts a worker, the worker
 *       is announced as a member of the pool (THREAD_CREATE on the submitting thread; the worker's
 *       thread definition names the pool).
 *   <li>{@code ScheduledThreadPoolExecutor}: TASK_CREATE when a task is queued ({@code
 *       delayedExecute}) and each time a periodic task is queued again ({@code reExecutePeriodic}),
 *       so every run of a periodic task has its own create → begin. A task due later (its delay
 *       above 0 as it is queued) is created at a region of construct kind {@code delayed_task}: its
 *       wait until it is due is on purpose, and the analysis does not count it as a wait in the
 *       queue nor the task as work in flight until it begins.
 *   <li>Thread-per-task executors (JDK 21+, e.g. {@code newVirtualThreadPerTaskExecutor()}):
 *       TASK_CREATE when the task's thread is made ({@code newThread}), TASK_BEGIN/END in the run
 *       of the task's {@code Future} or runner, on the task's (virtual) thread.
 * </ul>
 *
 * <p>A task the JDK's rejection policies give up (Abort, Discard, and the oldest queued task and
 * the new one of DiscardOldest, which submits the new one again) is withdrawn: TASK_BEGIN and
 * TASK_END at once on the rejecting thread, so that it is not read as queued to the end of the run.
 * A CallerRunsPolicy's run of the task is its TASK_BEGIN/END on the submitting thread. After a
 * handler of the program's own returns or throws ({@code reject}; HikariCP's connection adder drops
 * tasks so), the task is withdrawn unless the executor's queue holds it (the handler queued it
 * after all); when a worker took it from the queue before that look and begins it, the recorder
 * creates it again where it begins ({@code TaskEvents}). The tasks {@code shutdownNow} drains from
 * the queue and a task {@code remove} takes out of it (a cancelled scheduled task with the
 * remove-on-cancel policy) are withdrawn too.
 *
 * <p>At attach, the workers already running keep running the original {@code runWorker} loop: their
 * tasks are recorded by hooks in {@code beforeExecute} and {@code afterExecute} instead ({@link
 * RunningPoolWorkers}); workers started after the attach run the woven loop.
 */
public final class ExecutorTasks implements ConstructInstrumentation {
  private static final String TPE = "java/util/concurrent/ThreadPoolExecutor";
  private static final String STPE = "java/util/concurrent/ScheduledThreadPoolExecutor";
  private static final String PER_TASK = "java/util/concurrent/ThreadPerTaskExecutor";
  private static final String BOUND_FUTURE = PER_TASK + "$ThreadBoundFuture";
  private static final String ABORT = TPE + "$AbortPolicy";
  private static final String DISCARD = TPE + "$DiscardPolicy";
  private static final String DISCARD_OLDEST = TPE + "$DiscardOldestPolicy";
  private static final String CALLER_RUNS = TPE + "$CallerRunsPolicy";
  private static final String REJECTED =
      "(Ljava/lang/Runnable;Ljava/util/concurrent/ThreadPoolExecutor;)V";
  private static final String TASK_RUNNER = PER_TASK + "$TaskRunner";

  @Override
  public Family family() {
    return Family.EXECUTORS;
  }

  @Override
  public Set<String> jdkClasses() {
    return Set.of(
        TPE,
        STPE,
        PER_TASK,
        BOUND_FUTURE,
        TASK_RUNNER,
        ABORT,
        DISCARD,
        DISCARD_OLDEST,
        CALLER_RUNS);
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    switch (target.internalName()) {
      case TPE:
        return weaveThreadPool(target);
      case STPE:
        return weaveScheduled(target);
      case PER_TASK:
        return weaveThreadPerTask(target);
      case ABORT:
      case DISCARD:
      case DISCARD_OLDEST:
      case CALLER_RUNS:
        return weaveRejection(target);
      default:
        return weaveTaskRun(target);
    }
  }

  private static byte[] weaveThreadPool(WeaveTarget target) {
    return JdkMethods.weave(
        target,
        threadPoolTasks(
            target,
            "ThreadPoolExecutor.execute",
            (mv, access, name, descriptor, version) -> {
              JdkMethods.CallBrackets sites = threadPoolSites(target, name, descriptor);
              if (sites == null) {
                return mv;
              }
              target.changed();
              return JdkMethods.callSites(
                  mv, target.internalName(), access, name, descriptor, version, sites);
            }));
  }

  /**
   * The task methods of a {@code ThreadPoolExecutor} or of a library's copy of it (Tomcat's):
   * TASK_CREATE at the entry of {@code execute(Runnable)} (at a region {@code executeLabel}, in the
   * pool {@code this}), TASK_BEGIN/END around the {@code task.run()} call in {@code runWorker}. The
   * other methods go to {@code others}.
   */
  static JdkMethods.Weaver threadPoolTasks(
      WeaveTarget target, String executeLabel, JdkMethods.Weaver others) {
    return (mv, access, name, descriptor, version) -> {
      if (name.equals("execute") && descriptor.equals("(Ljava/lang/Runnable;)V")) {
        int region = region(target, ConstructKind.EXECUTOR, executeLabel, name);
        return JdkMethods.atEntry(mv, m -> Brackets.taskCreate(m, region, 1, 0));
      }
      if (name.equals("runWorker")) {
        target.changed();
        return JdkMethods.callSites(
            mv, target.internalName(), access, name, descriptor, version, RUNNABLE_RUN);
      }
      return others.visit(mv, access, name, descriptor, version);
    };
  }

  /** The calls woven in {@code ThreadPoolExecutor}'s method {@code name descriptor}, or null. */
  private static JdkMethods.CallBrackets threadPoolSites(
      WeaveTarget target, String name, String descriptor) {
    switch (name) {
      case "shutdownNow":
        return descriptor.equals("()Ljava/util/List;")
            ? (opcode, owner, callName, callDescriptor) ->
                callName.equals("drainQueue") ? DRAINED_WITHDRAWN : null
            : null;
      case "remove":
        return descriptor.equals("(Ljava/lang/Runnable;)Z")
            ? (opcode, owner, callName, callDescriptor) ->
                callName.equals("remove") && callDescriptor.equals("(Ljava/lang/Object;)Z")
                    ? REMOVED_WITHDRAWN
                    : null
            : null;
      case "reject":
        return descriptor.equals("(Ljava/lang/Runnable;)V")
            ? (opcode, owner, callName, callDescriptor) ->
                callName.equals("rejectedExecution") ? REJECTION_HANDLED : null
            : null;
      case "addWorker":
        Bracket announce =
            announceWorker(
                region(target, ConstructKind.THREAD_START, "ThreadPoolExecutor.addWorker", name));
        return (opcode, owner, callName, callDescriptor) ->
            callName.equals("start")
                    && (owner.equals("java/lang/Thread") && callDescriptor.equals("()V")
                        || callDescriptor.equals("(Ljava/lang/Thread;)V"))
                ? announce
                : null;
      default:
        return null;
    }
  }

  /** A task's {@code run()} (in {@code runWorker}, in a CallerRunsPolicy): TASK_BEGIN/END. */
  private static final JdkMethods.CallBrackets RUNNABLE_RUN =
      (opcode, owner, callName, callDescriptor) ->
          owner.equals("java/lang/Runnable") && callName.equals("run") ? Brackets.TASK_RUN : null;

  /**
   * Before the worker thread is started ({@code t.start()} on JDK 17, {@code container.start(t)} on
   * 21+): {@code WeftBridge.poolThreadCreate(region, t, this)}; the start itself is a wait of kind
   * thread_start, as an application's {@code Thread.start()} is ({@link Threads#beforeStart}): a
   * pool that starts a worker per task (RxJava's {@code Schedulers.newThread()}) spends that time
   * managing threads, not on its own work.
   */
  static Bracket announceWorker(int region) {
    return new Waits.Waiting(region, WaitKind.THREAD_START, true) {
      @Override
      protected boolean keepsOperands() {
        return true;
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        BridgeCalls.push(mv, region);
        if (site.hasArguments()) {
          site.loadArgument(mv, 0);
        } else {
          site.loadReceiver(mv);
        }
        mv.visitTypeInsn(Opcodes.CHECKCAST, "java/lang/Thread");
        mv.visitVarInsn(Opcodes.ALOAD, 0); // the pool
        Bridge.POOL_THREAD_CREATE.call(mv);
        super.before(mv, site);
      }
    };
  }

  private static byte[] weaveScheduled(WeaveTarget target) {
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if ((name.equals("delayedExecute") || name.equals("reExecutePeriodic"))
              && descriptor.equals("(Ljava/util/concurrent/RunnableScheduledFuture;)V")) {
            String label = "ScheduledThreadPoolExecutor." + name;
            int region = region(target, ConstructKind.EXECUTOR, label, name);
            int delayed = region(target, ConstructKind.DELAYED_TASK, label + " (delayed)", name);
            return JdkMethods.atEntry(
                mv,
                m -> {
                  BridgeCalls.push(m, region);
                  BridgeCalls.push(m, delayed);
                  m.visitVarInsn(Opcodes.ALOAD, 1);
                  m.visitVarInsn(Opcodes.ALOAD, 0);
                  Bridge.TASK_SCHEDULED.call(m);
                });
          }
          return mv;
        });
  }

  /**
   * After the rejection handler's call in {@code reject(command)}, returned or thrown: {@code
   * taskRejected(this, command)}.
   */
  private static final Bracket REJECTION_HANDLED =
      new Bracket() {
        @Override
        protected void after(MethodVisitor mv, Site site) {
          mv.visitVarInsn(Opcodes.ALOAD, 0);
          mv.visitVarInsn(Opcodes.ALOAD, 1);
          Bridge.TASK_REJECTED.call(mv);
        }
      };

  /** After {@code shutdownNow}'s {@code drainQueue()}: the tasks it returned never run. */
  private static final Bracket DRAINED_WITHDRAWN = resultTo(Bridge.TASKS_WITHDRAWN);

  /**
   * After {@code remove(task)}'s {@code workQueue.remove(task)}: the task, when it was removed,
   * never runs (a cancelled scheduled task with the remove-on-cancel policy goes this way).
   */
  private static final Bracket REMOVED_WITHDRAWN =
      new Bracket() {
        @Override
        protected boolean hasThrown() {
          return false;
        }

        @Override
        protected void after(MethodVisitor mv, Site site) {
          mv.visitInsn(Opcodes.DUP);
          mv.visitVarInsn(Opcodes.ALOAD, 1);
          Bridge.TASK_REMOVED.call(mv);
        }
      };

  /**
   * After a DiscardOldestPolicy's {@code e.getQueue().poll()}: the task it took out of the queue
   * (what it returned, not what was at the head a moment before) is withdrawn.
   */
  private static final Bracket POLLED_WITHDRAWN = resultTo(Bridge.TASK_WITHDRAWN);

  /** After a call that returned normally: its result is also handed to {@code bridge}. */
  private static Bracket resultTo(Bridge bridge) {
    return new Bracket() {
      @Override
      protected boolean hasThrown() {
        return false;
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        mv.visitInsn(Opcodes.DUP);
        bridge.call(mv);
      }
    };
  }

  /**
   * The JDK's rejection policies: the rejected task is withdrawn (recorded as begun and ended where
   * it was rejected), and so is the oldest queued task a DiscardOldestPolicy discards; a
   * CallerRunsPolicy's run of the task is its TASK_BEGIN/END, on the submitting thread.
   */
  private static byte[] weaveRejection(WeaveTarget target) {
    boolean callerRuns = target.internalName().equals(CALLER_RUNS);
    JdkMethods.CallBrackets sites =
        callerRuns
            ? RUNNABLE_RUN
            : target.internalName().equals(DISCARD_OLDEST)
                ? (opcode, owner, callName, callDescriptor) ->
                    callName.equals("poll") && callDescriptor.equals("()Ljava/lang/Object;")
                        ? POLLED_WITHDRAWN
                        : null
                : null;
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if (!name.equals("rejectedExecution") || !descriptor.equals(REJECTED)) {
            return mv;
          }
          target.changed();
          MethodVisitor body =
              sites == null
                  ? mv
                  : JdkMethods.callSites(
                      mv, target.internalName(), access, name, descriptor, version, sites);
          if (callerRuns) {
            return body; // the task runs: its TASK_BEGIN/END, nothing withdrawn
          }
          return JdkMethods.atEntry(
              body,
              m -> {
                m.visitVarInsn(Opcodes.ALOAD, 1);
                Bridge.TASK_WITHDRAWN.call(m);
              });
        });
  }

  private static byte[] weaveThreadPerTask(WeaveTarget target) {
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if (name.equals("newThread")
              && descriptor.equals("(Ljava/lang/Runnable;)Ljava/lang/Thread;")) {
            int region =
                region(target, ConstructKind.EXECUTOR, "ThreadPerTaskExecutor.submit", name);
            return JdkMethods.atEntry(mv, m -> Brackets.taskCreate(m, region, 1, 0));
          }
          return mv;
        });
  }

  /** {@code run()} of a thread-per-task future or runner: TASK_BEGIN/END on {@code this}. */
  private static byte[] weaveTaskRun(WeaveTarget target) {
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if (!name.equals("run") || !descriptor.equals("()V")) {
            return mv;
          }
          target.changed();
          return new TaskRunHook(mv, target, access, name, descriptor, version, 0);
        });
  }

  /** Registers a region for a JDK method and marks the class as changed. */
  static int region(WeaveTarget target, ConstructKind kind, String name, String method) {
    return region(target, kind, name, target.binaryName(), method);
  }

  /**
   * As {@link #region(WeaveTarget, ConstructKind, String, String)}, for a method of class {@code
   * className} (binary name), which need not be the woven one.
   */
  static int region(
      WeaveTarget target, ConstructKind kind, String name, String className, String method) {
    target.changed();
    return target.regions().register(kind, name, className, method, "", 0, 0);
  }
}
