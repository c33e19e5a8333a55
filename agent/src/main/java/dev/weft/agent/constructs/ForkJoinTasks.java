package dev.weft.agent.constructs;

import static dev.weft.agent.constructs.Brackets.FORK_JOIN_TASK;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.Brackets.Pool;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.Set;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Fork-join tasks inside the JDK (family {@code forkjoin}), for every task whoever created it
 * (application, parallel streams, {@code CompletableFuture}):
 *
 * <ul>
 *   <li>TASK_CREATE when a task is pushed onto a work queue: {@code fork()} and every pool
 *       submission go through {@code ForkJoinPool.WorkQueue.push} (JDK 17 also through {@code
 *       ForkJoinPool.externalPush}), on the submitting thread, with the pool.
 *   <li>TASK_CREATE when a task is run inline without being pushed: the {@code doExec()} calls in
 *       {@code invoke()}, {@code quietlyInvoke()} and {@code invokeAll(...)}.
 *   <li>TASK_BEGIN/TASK_END around the {@code exec()} call in {@code ForkJoinTask.doExec()}, which
 *       runs every fork-join task ({@code int doExec()} on JDK 17, {@code void} on 25); TASK_END
 *       also when {@code exec()} throws. A task stolen by another worker begins on that worker's
 *       stream; a task run while its runner joins another appears nested in the join wait.
 * </ul>
 *
 * Task ids are identity hash codes (no field is added to the task).
 */
public final class ForkJoinTasks implements ConstructInstrumentation {
  private static final String WORK_QUEUE = "java/util/concurrent/ForkJoinPool$WorkQueue";
  private static final String POOL = Brackets.FORK_JOIN_POOL;
  private static final Set<String> INLINE_RUNNERS = Set.of("invoke", "quietlyInvoke", "invokeAll");

  @Override
  public Family family() {
    return Family.FORKJOIN;
  }

  @Override
  public Set<String> jdkClasses() {
    return Set.of(FORK_JOIN_TASK, WORK_QUEUE, POOL);
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    switch (target.internalName()) {
      case FORK_JOIN_TASK:
        return weaveTask(target);
      case WORK_QUEUE:
        return weavePush(target);
      default:
        return weavePool(target);
    }
  }

  /** doExec: begin/end around exec(); invoke/invokeAll: create before their inline doExec(). */
  private static byte[] weaveTask(WeaveTarget target) {
    int inline =
        target
            .regions()
            .register(
                ConstructKind.FORK_JOIN_TASK,
                "ForkJoinTask.invoke (inline)",
                target.binaryName(),
                "invoke",
                "",
                0,
                0);
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if (name.equals("doExec") && descriptor.startsWith("()")) {
            target.changed();
            return JdkMethods.callSites(
                mv,
                target.internalName(),
                access,
                name,
                descriptor,
                version,
                (opcode, owner, callName, callDescriptor) ->
                    callName.equals("exec") && callDescriptor.equals("()Z")
                        ? Brackets.TASK_RUN
                        : null);
          }
          if (name.equals("awaitDone")) {
            Bracket blocked = blockedInJoin(blockedRegion(target));
            return JdkMethods.callSites(
                mv,
                target.internalName(),
                access,
                name,
                descriptor,
                version,
                (opcode, owner, callName, callDescriptor) ->
                    owner.equals("java/util/concurrent/locks/LockSupport")
                            && (callName.equals("park") && callDescriptor.equals("()V")
                                || callName.equals("parkNanos") && callDescriptor.equals("(J)V"))
                        ? blocked
                        : null);
          }
          if (INLINE_RUNNERS.contains(name)) {
            target.changed();
            Bracket create = createBeforeInlineRun(inline);
            return JdkMethods.callSites(
                mv,
                target.internalName(),
                access,
                name,
                descriptor,
                version,
                (opcode, owner, callName, callDescriptor) ->
                    callName.equals("doExec") && owner.equals(FORK_JOIN_TASK) ? create : null);
          }
          return mv;
        });
  }

  private static int blockedRegion(WeaveTarget target) {
    target.changed();
    return target
        .regions()
        .register(
            ConstructKind.FORK_JOIN_TASK,
            "ForkJoinTask.join (blocked)",
            target.binaryName(),
            "awaitDone",
            "",
            0,
            0);
  }

  /**
   * Around the parks in {@code awaitDone} (a join that found nothing to help with): {@code
   * joinBlockedEnter(region, this)} and {@code joinBlockedExit(region)}, so that aggregated tasks
   * know when their thread is blocked rather than busy.
   */
  private static Bracket blockedInJoin(int region) {
    return new Bracket() {
      @Override
      protected void before(MethodVisitor mv, Site site) {
        BridgeCalls.push(mv, region);
        mv.visitVarInsn(Opcodes.ALOAD, 0); // the task being joined
        Bridge.JOIN_BLOCKED_ENTER.call(mv);
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        Bridge.JOIN_BLOCKED_EXIT.callWithRegion(mv, region);
      }
    };
  }

  private static Bracket createBeforeInlineRun(int region) {
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
        site.loadReceiver(mv);
        Pool.CURRENT_OR_COMMON.load(mv, site);
        Bridge.TASK_CREATE.call(mv);
      }
    };
  }

  /** {@code WorkQueue.push(task, pool[, internal])}: TASK_CREATE(task, pool) at entry. */
  private static byte[] weavePush(WeaveTarget target) {
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if (!name.equals("push")
              || !descriptor.startsWith("(L" + FORK_JOIN_TASK + ";L" + POOL + ";")) {
            return mv;
          }
          int region = pushRegion(target, name);
          // JDK 25's lazySubmit pushes without a pool: only the virtual-thread scheduler does.
          return JdkMethods.atEntryUnlessNull(
              mv,
              target.internalName(),
              access,
              descriptor,
              2,
              m -> Brackets.taskCreate(m, region, 1, 2));
        });
  }

  /** JDK 17 {@code ForkJoinPool.externalPush(task)}: TASK_CREATE(task, this) at entry. */
  private static byte[] weavePool(WeaveTarget target) {
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if (!name.equals("externalPush") || !descriptor.equals("(L" + FORK_JOIN_TASK + ";)V")) {
            return mv;
          }
          int region = pushRegion(target, name);
          return JdkMethods.atEntry(mv, m -> Brackets.taskCreate(m, region, 1, 0));
        });
  }

  /** Registers the region of a push method and marks the class as changed. */
  private static int pushRegion(WeaveTarget target, String method) {
    target.changed();
    return target
        .regions()
        .register(
            ConstructKind.FORK_JOIN_TASK,
            "ForkJoinTask.fork",
            target.binaryName(),
            method,
            "",
            0,
            0);
  }
}
