package dev.weft.agent.constructs;

import dev.weft.trace.BarrierOutcome;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Emitting BARRIER_ENTER and BARRIER_EXIT around barrier calls, shared by the barrier families. The
 * generation is pushed by the caller (a constant, a local, a value the barrier reports); the
 * recorder numbers a CyclicBarrier's generations itself.
 */
final class BarrierCalls {
  static final String ENTER = "(ILjava/lang/Object;J)V";
  static final String EXIT = "(ILjava/lang/Object;JI)V";

  private BarrierCalls() {}

  /** Pushes a long generation. */
  interface Generation {
    void push(CallSites.Call c);
  }

  /** Generation 0 (a latch), or a CyclicBarrier's, which the recorder finds. */
  static final Generation ZERO = c -> c.mv().visitInsn(Opcodes.LCONST_0);

  /** Generation from a long local. */
  static Generation local(int slot) {
    return c -> c.mv().visitVarInsn(Opcodes.LLOAD, slot);
  }

  /** BARRIER_ENTER for the receiver. */
  static void enter(CallSites.Call c, Generation generation) {
    c.push(c.region);
    c.loadReceiver();
    generation.push(c);
    c.bridge("barrierEnter", ENTER);
  }

  /** BARRIER_EXIT for the receiver, with the outcome in int local {@code outcomeSlot}. */
  static void exit(CallSites.Call c, Generation generation, int outcomeSlot) {
    c.push(c.region);
    c.loadReceiver();
    generation.push(c);
    c.mv().visitVarInsn(Opcodes.ILOAD, outcomeSlot);
    c.bridge("barrierExit", EXIT);
  }

  /** BARRIER_EXIT for the receiver with a constant outcome. */
  static void exitWith(CallSites.Call c, Generation generation, int outcome) {
    c.push(c.region);
    c.loadReceiver();
    generation.push(c);
    c.push(outcome);
    c.bridge("barrierExit", EXIT);
  }

  /**
   * In a handler, with the exception on the stack (kept): BARRIER_EXIT whose outcome says why:
   * INTERRUPTED, BROKEN, TIMEOUT, and BROKEN for any other exception (the wait did not complete).
   */
  static void exitByException(CallSites.Call c, Generation generation) {
    MethodVisitor mv = c.mv();
    int exception = c.newLocal(Type.getType(Object.class));
    int outcome = c.newLocal(Type.INT_TYPE);
    mv.visitInsn(Opcodes.DUP);
    mv.visitVarInsn(Opcodes.ASTORE, exception);
    bit(c, exception, "java/lang/InterruptedException", BarrierOutcome.INTERRUPTED);
    bit(c, exception, "java/util/concurrent/BrokenBarrierException", BarrierOutcome.BROKEN);
    mv.visitInsn(Opcodes.IOR);
    bit(c, exception, "java/util/concurrent/TimeoutException", BarrierOutcome.TIMEOUT);
    mv.visitInsn(Opcodes.IOR);
    // x | ((x - 1) >>> 31) * BROKEN: BROKEN when none of the above
    mv.visitInsn(Opcodes.DUP);
    mv.visitInsn(Opcodes.ICONST_1);
    mv.visitInsn(Opcodes.ISUB);
    c.push(31);
    mv.visitInsn(Opcodes.IUSHR);
    c.push(BarrierOutcome.BROKEN);
    mv.visitInsn(Opcodes.IMUL);
    mv.visitInsn(Opcodes.IOR);
    mv.visitVarInsn(Opcodes.ISTORE, outcome);
    exit(c, generation, outcome);
  }

  /** Pushes {@code value} if the exception in {@code slot} is a {@code type}, else 0. */
  private static void bit(CallSites.Call c, int slot, String type, int value) {
    c.mv().visitVarInsn(Opcodes.ALOAD, slot);
    c.mv().visitTypeInsn(Opcodes.INSTANCEOF, type);
    c.push(value);
    c.mv().visitInsn(Opcodes.IMUL);
  }
}
