package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Netty's event loops ({@code SingleThreadEventExecutor}: the NIO, epoll, kqueue and io_uring loops
 * of Netty 4.1 and 4.2, {@code DefaultEventLoop}, and so the loops of Vert.x, gRPC, Reactor Netty
 * and every server built on them), family {@code executors}: an event loop is a pool of one thread,
 * and the tasks given to it are recorded as that pool's tasks, so that a task's wait in the loop's
 * queue (the loop's lag: busy with other tasks or with I/O handlers) is a pool queue wait, and the
 * hand-over from the thread that queued it is seen:
 *
 * <ul>
 *   <li>TASK_CREATE at the start of {@code addTask(Runnable)} (where every {@code execute}, {@code
 *       submit} and write from outside the loop queues its task), in the pool {@code this}; a task
 *       it rejects (a full queue, a loop shut down) is withdrawn. A task that {@code
 *       removeTask(Runnable)} takes out of the queue is withdrawn too. The same for {@code
 *       GlobalEventExecutor}'s {@code addTask} and for the tasks an ordered executor of {@code
 *       NonStickyEventExecutorGroup} queues in its {@code execute}.
 *   <li>TASK_CREATE when a scheduled task comes due: when {@code pollScheduledTask(long)} of a loop
 *       or of {@code GlobalEventExecutor} returns it, on the thread that runs it, at a region
 *       {@code AbstractScheduledEventExecutor.schedule}. Its wait until it was due is on purpose;
 *       from then on it waits in the queue like any other task. A periodic task is created again
 *       each time it comes due.
 *   <li>TASK_CREATE at the start of {@code SingleThreadEventLoop.executeAfterEventLoopIteration} (a
 *       task run at the end of the loop's next round), and right before the loop runs a shutdown
 *       hook (added by the program, run as the loop ends: no wait).
 *   <li>TASK_BEGIN/TASK_END around {@code AbstractEventExecutor.runTask(Runnable)}, the one method
 *       every one of them runs a task in (also through {@code safeExecute}). Hooked in the method,
 *       not where it is called: a loop's {@code run()} (and at an attach the round it is in) keeps
 *       the code it began with, but calls {@code runTask} afresh for each task.
 * </ul>
 *
 * <p>The loop's thread is no pool worker: between tasks it handles I/O (a channel's reads and
 * writes run in its handlers, outside any task), which is work, not idle time. Its selects stay
 * select waits. The loop's wake-up marker ({@code WAKEUP_TASK}) is never run, so never a task, also
 * when scheduling from outside the loop executes it to wake the loop.
 *
 * <p>Not woven: 4.2's {@code ManualIoEventLoop} (its tasks begin without a create) and {@code
 * EmbeddedEventLoop}, which runs its tasks itself (none is recorded). At an attach the tasks queued
 * before it begin without a create (an origin before the recording).
 *
 * <p>The names are those of Netty 4.1 and 4.2 (checked against 4.1.118 and 4.2.13).
 */
public final class NettyEventLoops implements ConstructInstrumentation {
  private static final String PACKAGE = "io/netty/util/concurrent/";
  private static final String LOOP = PACKAGE + "SingleThreadEventExecutor";
  private static final String SCHEDULED = PACKAGE + "AbstractScheduledEventExecutor";
  private static final String EXECUTOR = PACKAGE + "AbstractEventExecutor";
  private static final String GLOBAL = PACKAGE + "GlobalEventExecutor";
  private static final String NON_STICKY =
      PACKAGE + "NonStickyEventExecutorGroup$NonStickyOrderedEventExecutor";
  private static final String CHANNEL_LOOP = "io/netty/channel/SingleThreadEventLoop";

  private static final Set<String> CLASSES =
      Set.of(LOOP, SCHEDULED, EXECUTOR, GLOBAL, NON_STICKY, CHANNEL_LOOP);

  private static final String RUNNABLE_ARG = "(Ljava/lang/Runnable;)V";

  /** The loop's wake-up marker task (a static field). */
  private static final String WAKEUP = "WAKEUP_TASK";

  /**
   * A class's own method that queues a task ({@code SubmitHook}), and the label of its region (the
   * call users make).
   */
  private record Submitter(String method, String label) {}

  private static final Map<String, Submitter> SUBMITTERS =
      Map.of(
          GLOBAL, new Submitter("addTask", "GlobalEventExecutor.execute"),
          NON_STICKY, new Submitter("execute", "NonStickyOrderedEventExecutor.execute"),
          CHANNEL_LOOP,
              new Submitter(
                  "executeAfterEventLoopIteration",
                  "SingleThreadEventLoop.executeAfterEventLoopIteration"));

  @Override
  public Family family() {
    return Family.EXECUTORS;
  }

  @Override
  public List<String> applicationHints() {
    return List.copyOf(CLASSES);
  }

  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return CLASSES.contains(target.internalName());
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    String owner = target.internalName();
    if (!CLASSES.contains(owner)) {
      return next;
    }
    return JdkMethods.byMethod(
        next,
        (mv, access, name, descriptor, version) -> {
          boolean instance = (access & Opcodes.ACC_STATIC) == 0;
          switch (owner) {
            case EXECUTOR:
              if (!instance && name.equals("runTask") && descriptor.equals(RUNNABLE_ARG)) {
                target.changed();
                return new TaskRunHook(mv, target, access, name, descriptor, version, 0);
              }
              return mv;
            case LOOP:
              return instance ? loopMethod(mv, target, access, name, descriptor, version) : mv;
            case SCHEDULED:
              if (instance
                  && name.equals("pollScheduledTask")
                  && descriptor.equals("(J)Ljava/lang/Runnable;")) {
                int region =
                    ExecutorTasks.region(
                        target,
                        ConstructKind.EXECUTOR,
                        "AbstractScheduledEventExecutor.schedule",
                        "schedule");
                return new ComesDue(mv, target, access, name, descriptor, version, region);
              }
              return mv;
            default: // the global executor, NonSticky's ordered executor, tail tasks
              Submitter submitter = SUBMITTERS.get(owner);
              if (instance && name.equals(submitter.method()) && descriptor.equals(RUNNABLE_ARG)) {
                String label = submitter.label();
                int region =
                    ExecutorTasks.region(
                        target,
                        ConstructKind.EXECUTOR,
                        label,
                        label.substring(label.indexOf('.') + 1));
                return new SubmitHook(mv, target, access, name, descriptor, version, region);
              }
              return mv;
          }
        });
  }

  private static MethodVisitor loopMethod(
      MethodVisitor mv,
      WeaveTarget target,
      int access,
      String name,
      String descriptor,
      int version) {
    if (name.equals("addTask") && descriptor.equals(RUNNABLE_ARG)) {
      int region =
          ExecutorTasks.region(
              target, ConstructKind.EXECUTOR, "SingleThreadEventExecutor.execute", "execute");
      SubmitHook hook = new SubmitHook(mv, target, access, name, descriptor, version, region);
      // The loop's wake-up marker, which scheduling from outside it may execute and which the
      // loop never runs. The loop's own code names it (declared here or inherited), so it
      // resolves; a version without it has nothing to leave out.
      return target.mentions(WAKEUP) ? hook.unless(WAKEUP) : hook;
    }
    if (name.equals("removeTask") && descriptor.equals("(Ljava/lang/Runnable;)Z")) {
      target.changed();
      return new Removed(mv, target, access, name, descriptor, version);
    }
    if (name.equals("runShutdownHooks")) {
      int region =
          ExecutorTasks.region(
              target,
              ConstructKind.EXECUTOR,
              "SingleThreadEventExecutor.addShutdownHook",
              "addShutdownHook");
      return JdkMethods.callSites(
          mv,
          target.internalName(),
          access,
          name,
          descriptor,
          version,
          (opcode, callOwner, callName, callDescriptor) ->
              opcode == Opcodes.INVOKESTATIC
                      && callName.equals("runTask")
                      && callDescriptor.equals(RUNNABLE_ARG)
                  ? createdHere(region)
                  : null);
    }
    return mv;
  }

  /**
   * TASK_CREATE of the call's first argument in the pool {@code this} of the calling method, right
   * before the call runs it: a shutdown hook, which waited in no queue.
   */
  private static Bracket createdHere(int region) {
    return new Bracket() {
      @Override
      protected boolean keepsOperands() {
        return true;
      }

      @Override
      protected boolean hasExit() {
        return false;
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        BridgeCalls.push(mv, region);
        site.loadArgument(mv, 0);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        Bridge.TASK_CREATE.call(mv);
      }
    };
  }

  /**
   * {@code pollScheduledTask(nanoTime)}: the scheduled task it returns (due now, out of the
   * scheduled queue) is created in {@code this}, if {@code this} runs it through {@code runTask}
   * (an event loop, the global executor).
   */
  private static final class ComesDue extends HookedMethod {
    private final int region;

    ComesDue(
        MethodVisitor mv,
        WeaveTarget target,
        int access,
        String name,
        String descriptor,
        int version,
        int region) {
      super(mv, target.internalName(), access, name, descriptor, version);
      this.region = region;
    }

    @Override
    protected boolean shouldHook() {
      return true;
    }

    @Override
    protected void onReturn(int opcode) {
      // [task] → if (task != null && (this is a loop or the global executor))
      //   taskCreate(region, task, this); the task stays on the stack for the return. Both
      // classes are netty-common's, as this one is: never a class that may be missing.
      Label skip = new Label();
      mv.visitInsn(Opcodes.DUP);
      mv.visitJumpInsn(Opcodes.IFNULL, skip);
      Label create = new Label();
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      mv.visitTypeInsn(Opcodes.INSTANCEOF, LOOP);
      mv.visitJumpInsn(Opcodes.IFNE, create);
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      mv.visitTypeInsn(Opcodes.INSTANCEOF, GLOBAL);
      mv.visitJumpInsn(Opcodes.IFEQ, skip);
      mv.visitLabel(create);
      parameterFrame("java/lang/Runnable");
      mv.visitInsn(Opcodes.DUP);
      BridgeCalls.push(mv, region);
      mv.visitInsn(Opcodes.SWAP);
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      Bridge.TASK_CREATE.call(mv);
      mv.visitLabel(skip);
      parameterFrame("java/lang/Runnable");
    }
  }

  /** {@code removeTask(task)}: a task it took out of the queue (it returns true) is withdrawn. */
  private static final class Removed extends HookedMethod {
    Removed(
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
    protected void onReturn(int opcode) {
      Label skip = new Label();
      mv.visitInsn(Opcodes.DUP);
      mv.visitJumpInsn(Opcodes.IFEQ, skip);
      mv.visitVarInsn(Opcodes.ALOAD, 1);
      Bridge.TASK_WITHDRAWN.call(mv);
      mv.visitLabel(skip);
      parameterFrame(Opcodes.INTEGER);
    }
  }
}
