package dev.weft.agent.weave;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The bridge's class name for ASM, and the constants woven code pushes; the bridge's methods are
 * the constants of {@link Bridge}, which emit their calls.
 */
public final class BridgeCalls {
  /**
   * The bridge's internal name. In the shaded jar (which is what runs) this constant is relocated
   * with the class, to {@code java/lang/WeftBridge}.
   */
  public static final String OWNER = "dev/weft/agent/bridge/WeftBridge";

  /** The bridge of an attached agent's hooks in JDK wait methods ({@code WeftCalleeBridge}). */
  public static final String CALLEE_OWNER = "dev/weft/agent/bridge/WeftCalleeBridge";

  private BridgeCalls() {}

  /** Pushes an int constant with the shortest instruction. */
  public static void push(MethodVisitor mv, int value) {
    if (value >= -1 && value <= 5) {
      mv.visitInsn(Opcodes.ICONST_0 + value);
    } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
      mv.visitIntInsn(Opcodes.BIPUSH, value);
    } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
      mv.visitIntInsn(Opcodes.SIPUSH, value);
    } else {
      mv.visitLdcInsn(value);
    }
  }
}
