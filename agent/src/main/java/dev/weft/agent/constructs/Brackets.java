package dev.weft.agent.constructs;

import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The brackets the parallelism constructs share: a join wait around a call, a parallel region (fork
 * before, join after) around a call, and the code that names the pool a region runs on.
 */
final class Brackets {
  static final String FORK_JOIN_POOL = "java/util/concurrent/ForkJoinPool";
  static final String FORK_JOIN_TASK = "java/util/concurrent/ForkJoinTask";

  private Brackets() {}

  /** How the pool of a region is found at run time. */
  enum Pool {
    /** The pool of the calling worker thread, else the common pool (where fork-join work goes). */
    CURRENT_OR_COMMON,
    /** The common pool. */
    COMMON,
    /** The call's receiver, a ForkJoinPool. */
    RECEIVER_FORK_JOIN,
    /** The call's receiver, some executor (its parallelism is left to the pool definition). */
    RECEIVER_EXECUTOR;

    boolean usesReceiver() {
      return this == RECEIVER_FORK_JOIN || this == RECEIVER_EXECUTOR;
    }

    /** Pushes the pool. */
    void load(MethodVisitor mv, Site site) {
      switch (this) {
        case CURRENT_OR_COMMON:
          mv.visitMethodInsn(
              Opcodes.INVOKESTATIC, FORK_JOIN_TASK, "getPool", "()L" + FORK_JOIN_POOL + ";", false);
          commonPool(mv);
          mv.visitMethodInsn(
              Opcodes.INVOKESTATIC,
              "java/util/Objects",
              "requireNonNullElse",
              "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
              false);
          mv.visitTypeInsn(Opcodes.CHECKCAST, FORK_JOIN_POOL);
          break;
        case COMMON:
          commonPool(mv);
          break;
        default:
          site.loadReceiver(mv);
          break;
      }
    }

    /** With the pool on the stack, pushes its parallelism (the pool stays). */
    void loadParallelism(MethodVisitor mv) {
      if (this == RECEIVER_EXECUTOR) {
        mv.visitInsn(Opcodes.ICONST_0);
        return;
      }
      mv.visitInsn(Opcodes.DUP);
      if (this == RECEIVER_FORK_JOIN) {
        mv.visitTypeInsn(Opcodes.CHECKCAST, FORK_JOIN_POOL);
      }
      mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, FORK_JOIN_POOL, "getParallelism", "()I", false);
    }
  }

  private static void commonPool(MethodVisitor mv) {
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC, FORK_JOIN_POOL, "commonPool", "()L" + FORK_JOIN_POOL + ";", false);
  }

  /**
   * A region's start on the master: {@code WeftBridge.fork(region, pool, parallelism)}, then {@code
   * joinWaitEnter(region, null)}: the master waits in the call for the region's work (POMP's
   * implicit barrier), running some of it itself (its tasks nest in the wait).
   */
  static void fork(MethodVisitor mv, Site site, int region, Pool pool) {
    BridgeCalls.push(mv, region);
    pool.load(mv, site);
    pool.loadParallelism(mv);
    Bridge.FORK.call(mv);
    BridgeCalls.push(mv, region);
    mv.visitInsn(Opcodes.ACONST_NULL);
    Bridge.JOIN_WAIT_ENTER.call(mv);
  }

  /** A region's end on the master: {@code joinWaitExit(region)}, {@code join(region, pool)}. */
  static void join(MethodVisitor mv, Site site, int region, Pool pool) {
    joinWaitExit(mv, region);
    BridgeCalls.push(mv, region);
    pool.load(mv, site);
    Bridge.JOIN.call(mv);
  }

  /** {@code WeftBridge.joinWaitEnter(region, receiver or null)}. */
  static void joinWaitEnter(MethodVisitor mv, Site site, int region) {
    BridgeCalls.push(mv, region);
    site.loadReceiver(mv);
    Bridge.JOIN_WAIT_ENTER.call(mv);
  }

  /** {@code WeftBridge.joinWaitExit(region)}. */
  static void joinWaitExit(MethodVisitor mv, int region) {
    Bridge.JOIN_WAIT_EXIT.callWithRegion(mv, region);
  }

  /**
   * A join wait (POMP's implicit barrier) around the call: JOIN_WAIT_ENTER before, JOIN_WAIT_EXIT
   * after it returns or throws. With {@code receiverIsTarget}, the call's receiver (a task, a
   * future, a thread) is what the wait is for.
   */
  static Bracket joinWait(int region, boolean receiverIsTarget) {
    return new Bracket() {
      @Override
      protected boolean keepsOperands() {
        return receiverIsTarget;
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        joinWaitEnter(mv, site, region);
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        joinWaitExit(mv, region);
      }
    };
  }

  /**
   * A task run by the call's receiver ({@code task.run()}, {@code task.exec()}): TASK_BEGIN before,
   * TASK_END after it returns or throws.
   */
  static final Bracket TASK_RUN =
      new Bracket() {
        @Override
        protected boolean keepsOperands() {
          return true;
        }

        @Override
        protected void before(MethodVisitor mv, Site site) {
          site.loadReceiver(mv);
          Bridge.TASK_BEGIN.call(mv);
        }

        @Override
        protected void after(MethodVisitor mv, Site site) {
          site.loadReceiver(mv);
          Bridge.TASK_END.call(mv);
        }
      };

  /** {@code WeftBridge.taskCreate(region, local[task], local[pool])}, e.g. at a method's entry. */
  static void taskCreate(MethodVisitor mv, int region, int taskLocal, int poolLocal) {
    BridgeCalls.push(mv, region);
    mv.visitVarInsn(Opcodes.ALOAD, taskLocal);
    mv.visitVarInsn(Opcodes.ALOAD, poolLocal);
    Bridge.TASK_CREATE.call(mv);
  }

  /**
   * The construct the call is (POMP enter/exit): ENTER before, EXIT after it returns or throws, so
   * that what the call records (e.g. a task's TASK_CREATE inside the JDK) lies within the region of
   * the user's line.
   */
  static Bracket construct(int region) {
    return pair(Bridge.ENTER, Bridge.EXIT, region, true);
  }

  /**
   * {@code enter(region)} before the call and {@code exit(region)} after it returns, and also when
   * it throws if {@code whenThrown} (a call that never throws, e.g. a park or a spin, needs no
   * handler).
   */
  static Bracket pair(Bridge enter, Bridge exit, int region, boolean whenThrown) {
    return new Bracket() {
      @Override
      protected boolean hasThrown() {
        return whenThrown;
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        enter.callWithRegion(mv, region);
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        exit.callWithRegion(mv, region);
      }
    };
  }

  /**
   * A parallel region around the call: FORK and the master's JOIN_WAIT_ENTER before, JOIN_WAIT_EXIT
   * and JOIN after it returns or throws.
   */
  static Bracket region(int region, Pool pool) {
    return new Bracket() {
      @Override
      protected boolean keepsOperands() {
        return pool.usesReceiver();
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        fork(mv, site, region, pool);
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        join(mv, site, region, pool);
      }
    };
  }
}
