package dev.weft.agent.weave;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Emits calls to the bridge from ASM visitors. Each bridge method is {@code static} on {@link
 * #OWNER} and never throws, so a call can be dropped anywhere an instruction may go without new
 * handlers.
 */
public final class BridgeCalls {
  /**
   * The bridge's internal name. In the shaded jar (which is what runs) this constant is relocated
   * with the class, to {@code java/lang/WeftBridge}.
   */
  public static final String OWNER = "dev/weft/agent/bridge/WeftBridge";

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

  /** {@code WeftBridge.<method><descriptor>} with the arguments already on the stack. */
  public static void call(MethodVisitor mv, String method, String descriptor) {
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, method, descriptor, false);
  }

  /** {@code WeftBridge.<method>(region)} for the methods taking only a region id. */
  public static void callWithRegion(MethodVisitor mv, String method, int region) {
    push(mv, region);
    call(mv, method, "(I)V");
  }
}
