package dev.weft.agent.constructs;

import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The brackets of lock API calls, shared by the lock families: LOCK_REQUEST before an acquiring
 * call, LOCK_ACQUIRED after it (its timestamp taken inside the lock), LOCK_RELEASED before a
 * releasing call (while the lock is still held). Each names the call's receiver; the recorder maps
 * it to the lock's id and adds {@link LockFlags#SHARED} and {@link LockFlags#REENTRANT} as the
 * object and the thread's holds say.
 *
 * <p>The flags an acquisition's outcome implies are computed from the call's result without
 * branches: {@code tryLock()} returning false sets {@link LockFlags#FAILED}; a timed attempt
 * returning false, or an interruptible attempt ending by an exception, sets {@link
 * LockFlags#ABORTED}. An attempt that cannot be interrupted is not protected: should it throw, no
 * LOCK_ACQUIRED is written.
 */
final class LockCalls {
  private LockCalls() {}

  /** How an acquiring call's result says whether it acquired. */
  enum Result {
    /** Returns only once acquired (any result is not about success). */
    ACQUIRES,
    /** Returns true when acquired. */
    TRUE_IF_ACQUIRED,
    /** Returns a stamp, 0 when not acquired. */
    NONZERO_IF_ACQUIRED
  }

  /**
   * Adds the rows of the lock API ({@code Lock} and its implementations' methods of the same name)
   * on {@code owners}: lock, lockInterruptibly, tryLock, tryLock with timeout, unlock; their
   * regions are named {@code siteName.method}.
   */
  static CallTargets.Builder lockApi(
      CallTargets.Builder table, Owners owners, ConstructKind kind, String siteName, int flags) {
    return table
        .owners(owners)
        .call(
            "lock()V",
            c -> acquireOrFirstTry(c.region(kind, siteName + ".lock"), kind, flags, false))
        .call(
            "lockInterruptibly()V",
            c ->
                acquireOrFirstTry(
                    c.region(kind, siteName + ".lockInterruptibly"), kind, flags, true))
        .call(
            "tryLock()Z",
            c ->
                acquire(
                    c.region(kind, siteName + ".tryLock"),
                    flags,
                    Result.TRUE_IF_ACQUIRED,
                    LockFlags.FAILED,
                    false))
        .call(
            "tryLock(JLjava/util/concurrent/TimeUnit;)Z",
            c ->
                acquire(
                    c.region(kind, siteName + ".tryLock"),
                    flags,
                    Result.TRUE_IF_ACQUIRED,
                    LockFlags.ABORTED,
                    true))
        .call("unlock()V", c -> release(c, kind, siteName + ".unlock"));
  }

  /**
   * A {@code lock()} or {@code lockInterruptibly()} call. Where the receiver may be a {@code
   * ReentrantLock} (the kind says so), its first attempt is made by {@link
   * dev.weft.agent.bridge.WeftBridge#lockFirstTry}, which acquires a free non-fair lock as the call
   * would and records it with one timestamp, since the thread did not wait; only when that attempt
   * is not made or fails does the call run, bracketed as {@link #acquire}, its request timed on its
   * own. A separate request time costs a clock read per acquisition (BENCHMARKS.md, the lock pair).
   */
  private static Bracket acquireOrFirstTry(
      int region, ConstructKind kind, int flags, boolean interruptible) {
    return acquire(
        region, flags, Result.ACQUIRES, 0, interruptible, kind == ConstructKind.REENTRANT_LOCK);
  }

  /**
   * An acquiring call: REQUEST before; after, ACQUIRED with {@code flags}, plus {@code failFlag}
   * when {@code result} says it did not acquire; with {@code interruptible}, when it throws,
   * ACQUIRED with {@code flags | ABORTED}.
   */
  static Bracket acquire(
      int region, int flags, Result result, int failFlag, boolean interruptible) {
    return acquire(region, flags, result, failFlag, interruptible, false);
  }

  /** {@link #acquire}, with {@code firstTry}: see {@link #acquireOrFirstTry}. */
  private static Bracket acquire(
      int region, int flags, Result result, int failFlag, boolean interruptible, boolean firstTry) {
    return new Bracket() {
      @Override
      protected boolean keepsOperands() {
        return true;
      }

      @Override
      protected boolean hasThrown() {
        return interruptible;
      }

      @Override
      protected boolean hasShortcut() {
        return firstTry;
      }

      @Override
      protected void shortcut(MethodVisitor mv, Site site) {
        BridgeCalls.push(mv, region);
        site.loadReceiver(mv);
        BridgeCalls.push(mv, interruptible ? 1 : 0);
        Bridge.LOCK_FIRST_TRY.call(mv);
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        BridgeCalls.push(mv, region);
        site.loadReceiver(mv);
        Bridge.LOCK_REQUEST.call(mv);
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        switch (result) {
          case ACQUIRES:
            site.loadReceiver(mv);
            BridgeCalls.push(mv, flags);
            break;
          case TRUE_IF_ACQUIRED: // [z] -> [z, lock, flags | (z ^ 1) * failFlag]
            mv.visitInsn(Opcodes.DUP);
            failureFlags(mv);
            site.loadReceiver(mv);
            mv.visitInsn(Opcodes.SWAP);
            break;
          case NONZERO_IF_ACQUIRED: // [stamp] -> [stamp, lock, flags | (stamp == 0) * failFlag]
            mv.visitInsn(Opcodes.DUP2);
            mv.visitInsn(Opcodes.LCONST_0);
            mv.visitInsn(Opcodes.LCMP); // -1, 0 or 1
            mv.visitInsn(Opcodes.ICONST_1);
            mv.visitInsn(Opcodes.IAND); // 1 when acquired, 0 when not
            failureFlags(mv);
            site.loadReceiver(mv);
            mv.visitInsn(Opcodes.SWAP);
            break;
          default:
            throw new IllegalStateException(result.name());
        }
        Bridge.LOCK_ACQUIRED.call(mv);
      }

      /** [acquired (0 or 1)] -> [flags | (acquired ^ 1) * failFlag]. */
      private void failureFlags(MethodVisitor mv) {
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IXOR);
        BridgeCalls.push(mv, failFlag);
        mv.visitInsn(Opcodes.IMUL);
        BridgeCalls.push(mv, flags);
        mv.visitInsn(Opcodes.IOR);
      }

      @Override
      protected void thrown(MethodVisitor mv, Site site) {
        site.loadReceiver(mv);
        BridgeCalls.push(mv, flags | LockFlags.ABORTED);
        Bridge.LOCK_ACQUIRED.call(mv);
      }
    };
  }

  /**
   * A releasing call: RELEASED before it, while the lock is still held. The site's region is
   * defined (with the site's file and line) though LOCK_RELEASED does not name it.
   */
  static Bracket release(ApplicationCallSites.Call c, ConstructKind kind, String regionName) {
    c.region(kind, regionName);
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
        site.loadReceiver(mv);
        Bridge.LOCK_RELEASED.call(mv);
      }
    };
  }
}
