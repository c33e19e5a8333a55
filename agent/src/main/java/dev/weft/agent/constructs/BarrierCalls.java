package dev.weft.agent.constructs;

import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.trace.BarrierOutcome;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Emitting BARRIER_ENTER and BARRIER_EXIT around barrier calls, shared by the barrier families. The
 * generation is pushed by the caller (a constant, a local, a value the barrier reports); the
 * recorder numbers a CyclicBarrier's generations itself. The barrier is the call's receiver, so
 * brackets using these keep the call's operands.
 */
final class BarrierCalls {
  private BarrierCalls() {}

  /** Pushes a long generation. */
  interface Generation {
    void push(MethodVisitor mv, Site site);
  }

  /** Generation 0 (a latch), or a CyclicBarrier's, which the recorder finds. */
  static final Generation ZERO = (mv, site) -> mv.visitInsn(Opcodes.LCONST_0);

  /** Generation from a long local. */
  static Generation local(int slot) {
    return (mv, site) -> mv.visitVarInsn(Opcodes.LLOAD, slot);
  }

  /**
   * A barrier call's bracket: BARRIER_ENTER before, {@link #exitByException} when it throws; the
   * subclass writes the exit after a return.
   */
  abstract static class Await extends Bracket {
    final int region;

    Await(int region) {
      this.region = region;
    }

    /** The generation the call waits in (valid from {@link #before} on). */
    abstract Generation generation();

    @Override
    protected boolean keepsOperands() {
      return true;
    }

    @Override
    protected void before(MethodVisitor mv, Site site) {
      enter(mv, site, region, generation());
    }

    @Override
    protected void thrown(MethodVisitor mv, Site site) {
      exitByException(mv, site, region, generation());
    }
  }

  /** BARRIER_ENTER for the receiver. */
  static void enter(MethodVisitor mv, Site site, int region, Generation generation) {
    BridgeCalls.push(mv, region);
    site.loadReceiver(mv);
    generation.push(mv, site);
    Bridge.BARRIER_ENTER.call(mv);
  }

  /** BARRIER_EXIT for the receiver, with the outcome in int local {@code outcomeSlot}. */
  static void exit(
      MethodVisitor mv, Site site, int region, Generation generation, int outcomeSlot) {
    BridgeCalls.push(mv, region);
    site.loadReceiver(mv);
    generation.push(mv, site);
    mv.visitVarInsn(Opcodes.ILOAD, outcomeSlot);
    Bridge.BARRIER_EXIT.call(mv);
  }

  /** BARRIER_EXIT for the receiver with a constant outcome. */
  static void exitWith(
      MethodVisitor mv, Site site, int region, Generation generation, int outcome) {
    BridgeCalls.push(mv, region);
    site.loadReceiver(mv);
    generation.push(mv, site);
    BridgeCalls.push(mv, outcome);
    Bridge.BARRIER_EXIT.call(mv);
  }

  /**
   * In a handler, with the exception on the stack (kept): BARRIER_EXIT whose outcome says why:
   * INTERRUPTED, BROKEN, TIMEOUT, and BROKEN for any other exception (the wait did not complete).
   */
  static void exitByException(MethodVisitor mv, Site site, int region, Generation generation) {
    int exception = site.newLocal(Type.getType(Object.class));
    int outcome = site.newLocal(Type.INT_TYPE);
    mv.visitInsn(Opcodes.DUP);
    mv.visitVarInsn(Opcodes.ASTORE, exception);
    bit(mv, exception, "java/lang/InterruptedException", BarrierOutcome.INTERRUPTED);
    bit(mv, exception, "java/util/concurrent/BrokenBarrierException", BarrierOutcome.BROKEN);
    mv.visitInsn(Opcodes.IOR);
    bit(mv, exception, "java/util/concurrent/TimeoutException", BarrierOutcome.TIMEOUT);
    mv.visitInsn(Opcodes.IOR);
    // x | ((x - 1) >>> 31) * BROKEN: BROKEN when none of the above
    mv.visitInsn(Opcodes.DUP);
    mv.visitInsn(Opcodes.ICONST_1);
    mv.visitInsn(Opcodes.ISUB);
    BridgeCalls.push(mv, 31);
    mv.visitInsn(Opcodes.IUSHR);
    BridgeCalls.push(mv, BarrierOutcome.BROKEN);
    mv.visitInsn(Opcodes.IMUL);
    mv.visitInsn(Opcodes.IOR);
    mv.visitVarInsn(Opcodes.ISTORE, outcome);
    exit(mv, site, region, generation, outcome);
  }

  /** Pushes {@code value} if the exception in {@code slot} is a {@code type}, else 0. */
  private static void bit(MethodVisitor mv, int slot, String type, int value) {
    mv.visitVarInsn(Opcodes.ALOAD, slot);
    mv.visitTypeInsn(Opcodes.INSTANCEOF, type);
    BridgeCalls.push(mv, value);
    mv.visitInsn(Opcodes.IMUL);
  }
}
