package dev.weft.agent.weave;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Advice written with ASM: a method visitor that lets a subclass add code at the method's start
 * ({@link #onEnter()}), before every return ({@link #onReturn(int)}) and when an exception leaves
 * the method ({@link #onThrow()}, from a catch-all handler that rethrows). It adds no members and
 * changes no signature, so it is valid for retransformation; it needs no frame computation, so it
 * loads no classes. This is how JDK methods are instrumented; calls inside a method are bracketed
 * by the call-site weaver instead.
 *
 * <p>Code emitted by the hooks must leave the operand stack as it found it; bridge calls never
 * throw. In constructors the exception handler starts after {@code super(...)}/{@code this(...)};
 * {@link #onEnter()} runs before it. In {@link #onThrow()} the parameters (and {@code this}) can be
 * loaded; the exception is on the stack and must stay there.
 *
 * <p>Subclasses are also {@link LineTrackingMethodVisitor}s, so call-site weaving and hooks
 * combine.
 */
public abstract class HookedMethod extends LineTrackingMethodVisitor {
  private final boolean constructor;
  private final boolean frames;
  private final Object[] handlerLocals;
  private final Label tryStart = new Label();
  private boolean hooked;
  private boolean tryStarted;
  private int pendingNews;

  /**
   * @param owner internal name of the class
   * @param access the method's access flags
   * @param descriptor the method's descriptor
   * @param classVersion the class file version (frames are written from version 50 on)
   */
  protected HookedMethod(
      MethodVisitor next,
      String owner,
      int access,
      String name,
      String descriptor,
      int classVersion) {
    super(next, name);
    this.constructor = name.equals("<init>");
    this.frames = (classVersion & 0xFFFF) >= Opcodes.V1_6;
    this.handlerLocals = parameterFrame(owner, access, descriptor);
  }

  /** Whether to hook this method; decided at {@code visitCode} (annotations have been seen). */
  protected abstract boolean shouldHook();

  /** Code at the start of the method. */
  protected void onEnter() {}

  /** Code before a return instruction ({@code opcode}); the return value is on the stack. */
  protected void onReturn(int opcode) {}

  /** Code when an exception leaves the method; the exception is on the stack. */
  protected void onThrow() {}

  /** True once the method is being hooked. */
  protected final boolean hooked() {
    return hooked;
  }

  @Override
  public void visitCode() {
    super.visitCode();
    hooked = shouldHook();
    if (hooked) {
      onEnter();
      if (!constructor) {
        startTry();
      }
    }
  }

  private void startTry() {
    tryStarted = true;
    super.visitLabel(tryStart);
  }

  @Override
  public void visitInsn(int opcode) {
    if (hooked && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
      onReturn(opcode);
    }
    super.visitInsn(opcode);
  }

  @Override
  public void visitTypeInsn(int opcode, String type) {
    if (opcode == Opcodes.NEW) {
      pendingNews++;
    }
    super.visitTypeInsn(opcode, type);
  }

  @Override
  public void visitMethodInsn(
      int opcode, String owner, String name, String descriptor, boolean isInterface) {
    super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    if (constructor && opcode == Opcodes.INVOKESPECIAL && name.equals("<init>")) {
      if (pendingNews > 0) {
        pendingNews--;
      } else if (hooked && !tryStarted) {
        startTry(); // super(...) or this(...) returned: 'this' is initialised from here on
      }
    }
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    if (hooked && tryStarted) {
      // Registered last, so that the method's own handlers keep precedence over this catch-all.
      Label tryEnd = new Label();
      Label handler = new Label();
      super.visitLabel(tryEnd);
      super.visitTryCatchBlock(tryStart, tryEnd, handler, "java/lang/Throwable");
      super.visitLabel(handler);
      if (frames) {
        super.visitFrame(
            Opcodes.F_NEW,
            handlerLocals.length,
            handlerLocals,
            1,
            new Object[] {"java/lang/Throwable"});
      }
      onThrow();
      super.visitInsn(Opcodes.ATHROW);
    }
    super.visitMaxs(maxStack, maxLocals);
  }

  /**
   * A stack map frame (where the class has them) declaring {@code this} and the parameters, as
   * declared, as the only locals, and {@code stack} on the operand stack: for a label the hook
   * jumps to, at the method's start, or at a return or in the handler where the method's own code
   * never stores into a parameter's slot a value of another type (javac's never does).
   */
  protected final void parameterFrame(Object... stack) {
    if (frames) {
      super.visitFrame(Opcodes.F_NEW, handlerLocals.length, handlerLocals, stack.length, stack);
    }
  }

  /** The locals at the handler: {@code this} (initialised) and the parameters, as declared. */
  private static Object[] parameterFrame(String owner, int access, String descriptor) {
    Type[] args = Type.getArgumentTypes(descriptor);
    boolean instance = (access & Opcodes.ACC_STATIC) == 0;
    Object[] locals = new Object[args.length + (instance ? 1 : 0)];
    int i = 0;
    if (instance) {
      locals[i++] = owner;
    }
    for (Type t : args) {
      switch (t.getSort()) {
        case Type.BOOLEAN:
        case Type.BYTE:
        case Type.CHAR:
        case Type.SHORT:
        case Type.INT:
          locals[i++] = Opcodes.INTEGER;
          break;
        case Type.FLOAT:
          locals[i++] = Opcodes.FLOAT;
          break;
        case Type.LONG:
          locals[i++] = Opcodes.LONG;
          break;
        case Type.DOUBLE:
          locals[i++] = Opcodes.DOUBLE;
          break;
        case Type.ARRAY:
          locals[i++] = t.getDescriptor();
          break;
        default:
          locals[i++] = t.getInternalName();
          break;
      }
    }
    return locals;
  }
}
