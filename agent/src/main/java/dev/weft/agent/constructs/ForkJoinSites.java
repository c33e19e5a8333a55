package dev.weft.agent.constructs;

import static dev.weft.agent.constructs.Brackets.FORK_JOIN_POOL;
import static dev.weft.agent.constructs.Brackets.FORK_JOIN_TASK;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.Brackets.Pool;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.constructs.CallTargets.Invoke;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.trace.ConstructKind;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Fork-join calls in application code, woven where the user wrote them (family {@code forkjoin}):
 *
 * <ul>
 *   <li>{@code task.join()}, {@code get()}, {@code get(timeout)}, {@code quietlyJoin()}: a join
 *       wait (JOIN_WAIT_ENTER/EXIT, the task as target). Tasks the joining thread runs meanwhile
 *       (fork-join helping) appear as TASK_BEGIN/END nested in the wait.
 *   <li>{@code task.invoke()}, {@code quietlyInvoke()} and {@code ForkJoinTask.invokeAll(...)} from
 *       a thread outside any fork-join pool: a parallel region on the common pool (FORK, the
 *       caller's join wait, JOIN; the caller runs the first task itself, nested in its wait, so it
 *       is part of the team). Inside a pool, {@code invoke()} just runs the task (recorded as a
 *       nested task) and {@code invokeAll} is a join wait for the tasks it forked.
 *   <li>{@code pool.invoke(task)} from a thread outside that pool: a parallel region on {@code
 *       pool}; from one of its own workers, a join wait.
 * </ul>
 *
 * Calls are recognised by name and descriptor, and by their owner being a fork-join type or a
 * subclass (e.g. {@code invokevirtual Fib.join()}); nothing is loaded to find out.
 */
public final class ForkJoinSites extends ApplicationCallSites {
  private static final Set<String> TASKS =
      Set.of(
          FORK_JOIN_TASK,
          "java/util/concurrent/RecursiveTask",
          "java/util/concurrent/RecursiveAction",
          "java/util/concurrent/CountedCompleter");
  private static final Set<String> POOLS = Set.of(FORK_JOIN_POOL);
  private static final String OBJECT = "()Ljava/lang/Object;";
  private static final String TIMEOUT = "(JLjava/util/concurrent/TimeUnit;)";
  private static final String TASK = "L" + FORK_JOIN_TASK + ";";

  // Rows of the table, made by bracket(row, call).
  private static final int INVOKE_ALL = 0;
  private static final int JOIN_WAIT = 1;
  private static final int INVOKE_FROM_OUTSIDE = 2;
  private static final int POOL_INVOKE = 3;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(TASKS))
          .call(Invoke.STATIC, "invokeAll(" + TASK + TASK + ")V", INVOKE_ALL)
          .call(Invoke.STATIC, "invokeAll([" + TASK + ")V", INVOKE_ALL)
          .call(Invoke.INSTANCE, "join" + OBJECT, JOIN_WAIT)
          .call(Invoke.INSTANCE, "quietlyJoin()V", JOIN_WAIT)
          .call(Invoke.INSTANCE, "get" + OBJECT, JOIN_WAIT)
          .call(Invoke.INSTANCE, "get" + TIMEOUT + "Ljava/lang/Object;", JOIN_WAIT)
          .call(Invoke.INSTANCE, "quietlyJoin" + TIMEOUT + "Z", JOIN_WAIT)
          .call(Invoke.INSTANCE, "invoke" + OBJECT, INVOKE_FROM_OUTSIDE)
          .call(Invoke.INSTANCE, "quietlyInvoke()V", INVOKE_FROM_OUTSIDE)
          .owners(Owners.orSubtypes(POOLS))
          .call(Invoke.INSTANCE, "invoke(" + TASK + ")Ljava/lang/Object;", POOL_INVOKE)
          .build();

  @Override
  public Family family() {
    return Family.FORKJOIN;
  }

  @Override
  public List<String> applicationHints() {
    // A call through a subclass (Fib.join()) may not name java/util/concurrent in its class.
    return List.of("java/util/concurrent/", "join", "Join", "invoke", "Invoke");
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case INVOKE_ALL:
        return invokeAll(c);
      case JOIN_WAIT:
        return joinWait(c);
      case INVOKE_FROM_OUTSIDE:
        return invokeFromOutside(c);
      case POOL_INVOKE:
        return poolInvoke(c);
      default:
        return null;
    }
  }

  private static Bracket joinWait(ApplicationCallSites.Call c) {
    return Brackets.joinWait(
        c.region(ConstructKind.FORK_JOIN_TASK, "ForkJoinTask." + c.name), true);
  }

  /** Pushes {@code ForkJoinTask.inForkJoinPool()}. */
  private static void inForkJoinPool(MethodVisitor mv) {
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, FORK_JOIN_TASK, "inForkJoinPool", "()Z", false);
  }

  /** {@code task.invoke()}: a region on the common pool when called from outside any pool. */
  private static Bracket invokeFromOutside(ApplicationCallSites.Call c) {
    int region = c.region(ConstructKind.FORK_JOIN_TASK, "ForkJoinTask." + c.name);
    return new Bracket() {
      @Override
      protected boolean hasCondition() {
        return true;
      }

      @Override
      protected void condition(MethodVisitor mv, Site site) {
        inForkJoinPool(mv);
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        site.when(false, () -> Brackets.fork(mv, site, region, Pool.COMMON));
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        site.when(false, () -> Brackets.join(mv, site, region, Pool.COMMON));
      }
    };
  }

  /** {@code invokeAll(...)}: a region from outside any pool, a join wait inside one. */
  private static Bracket invokeAll(ApplicationCallSites.Call c) {
    int region = c.region(ConstructKind.FORK_JOIN_TASK, "ForkJoinTask.invokeAll");
    return new Bracket() {
      @Override
      protected boolean hasCondition() {
        return true;
      }

      @Override
      protected void condition(MethodVisitor mv, Site site) {
        inForkJoinPool(mv);
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        site.when(false, () -> Brackets.fork(mv, site, region, Pool.COMMON));
        site.when(true, () -> Brackets.joinWaitEnter(mv, site, region));
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        site.when(false, () -> Brackets.join(mv, site, region, Pool.COMMON));
        site.when(true, () -> Brackets.joinWaitExit(mv, region));
      }
    };
  }

  /** {@code pool.invoke(task)}: a region from outside the pool, a join wait from its workers. */
  private static Bracket poolInvoke(ApplicationCallSites.Call c) {
    int region = c.region(ConstructKind.FORK_JOIN_POOL, "ForkJoinPool.invoke");
    return new Bracket() {
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
        // ForkJoinTask.getPool() == pool: the caller is one of the pool's workers.
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC, FORK_JOIN_TASK, "getPool", "()L" + FORK_JOIN_POOL + ";", false);
        site.loadReceiver(mv);
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC,
            "java/util/Objects",
            "equals",
            "(Ljava/lang/Object;Ljava/lang/Object;)Z",
            false);
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        site.when(false, () -> Brackets.fork(mv, site, region, Pool.RECEIVER_FORK_JOIN));
        site.when(
            true,
            () -> {
              BridgeCalls.push(mv, region);
              site.loadArgument(mv, 0); // the task
              Bridge.JOIN_WAIT_ENTER.call(mv);
            });
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        site.when(false, () -> Brackets.join(mv, site, region, Pool.RECEIVER_FORK_JOIN));
        site.when(true, () -> Brackets.joinWaitExit(mv, region));
      }
    };
  }
}
