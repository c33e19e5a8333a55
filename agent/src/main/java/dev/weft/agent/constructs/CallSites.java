package dev.weft.agent.constructs;

import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AnalyzerAdapter;

/**
 * Call-site weaving for the synchronisation families: calls of a JDK API (a lock's {@code lock()},
 * a barrier's {@code await()}, {@code Object.wait}...) in application methods get bridge calls
 * around them, with a region for the call's file and line. Weaving the call site rather than the
 * JDK method names the user's line for free and leaves the JDK's own uses (inside executors,
 * queues, the agent's trace writer) unrecorded.
 *
 * <p>The call's receiver and arguments are first stored into local slots above every slot in use
 * (an {@link AnalyzerAdapter} after this visitor tracks the frame), so that hooks can load them
 * before and after the call. A call whose exceptions matter (interrupts, timeouts, broken barriers)
 * is protected by a catch-all handler placed right after it, inside the same exception ranges as
 * the call, which records and rethrows: the exception then goes wherever it went before. That
 * handler and the join point after it carry stack map frames taken from the adapter, so nothing is
 * computed from class hierarchies and no class is loaded.
 */
final class CallSites {
  static final String THROWABLE = "java/lang/Throwable";

  private CallSites() {}

  /** Builds the method visitor of a family for one method. */
  interface MethodFactory {
    Method create(MethodVisitor next, WeaveTarget target, int access, String name, String desc);
  }

  /** Whether some method of the class may call what {@code calls} matches (a cheap scan). */
  static boolean wants(WeaveTarget target, ClassScan.Calls calls) {
    return !ClassScan.of(target).methodsCalling(calls).isEmpty();
  }

  /**
   * The class visitor: one family's {@link Method} on every method that may call what {@code calls}
   * matches; other methods are not parsed. Classes older than Java 6 (no stack map frames, where
   * the adapter loses track after jumps) are left alone.
   */
  static ClassVisitor visitor(
      ClassVisitor next, WeaveTarget target, ClassScan.Calls calls, MethodFactory factory) {
    Set<String> methods = ClassScan.of(target).methodsCalling(calls);
    if (methods.isEmpty()) {
      return next;
    }
    return new ClassVisitor(Opcodes.ASM9, next) {
      private boolean frames;

      @Override
      public void visit(
          int version,
          int access,
          String name,
          String signature,
          String superName,
          String[] interfaces) {
        frames = (version & 0xFFFF) >= Opcodes.V1_6;
        super.visit(version, access, name, signature, superName, interfaces);
      }

      @Override
      public MethodVisitor visitMethod(
          int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (mv == null || !frames || !methods.contains(name + descriptor)) {
          return mv;
        }
        return factory.create(mv, target, access, name, descriptor);
      }
    };
  }

  /** What a family does around one call; each hook leaves the operand stack as it found it. */
  interface Hooks {
    /** Before the call; the receiver and arguments are in locals. */
    default void before(Call c) {}

    /** After the call returned; its result, if any, is on the stack. */
    default void after(Call c) {}

    /** The call threw (protected calls only); the exception is on the stack. */
    default void thrown(Call c) {}
  }

  /** One woven call: where its receiver and arguments are, and how to emit around it. */
  static final class Call {
    private final MethodVisitor mv;
    private final Type[] args;
    private final int receiver;
    private final int[] argSlots;
    private int nextSlot;

    /** The region of the call site. */
    final int region;

    Call(MethodVisitor mv, int opcode, String descriptor, int firstFree, int region) {
      this.mv = mv;
      this.region = region;
      this.args = Type.getArgumentTypes(descriptor);
      int slot = firstFree;
      this.receiver = opcode == Opcodes.INVOKESTATIC ? -1 : slot++;
      this.argSlots = new int[args.length];
      for (int i = 0; i < args.length; i++) {
        argSlots[i] = slot;
        slot += args[i].getSize();
      }
      this.nextSlot = slot;
    }

    /** The visitor to emit code to. */
    MethodVisitor mv() {
      return mv;
    }

    void loadReceiver() {
      mv.visitVarInsn(Opcodes.ALOAD, receiver);
    }

    void loadArg(int i) {
      mv.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), argSlots[i]);
    }

    /** A fresh local slot for a value of {@code type}, unused by the method and this call. */
    int newLocal(Type type) {
      int slot = nextSlot;
      nextSlot += type.getSize();
      return slot;
    }

    /** Pushes an int constant. */
    void push(int value) {
      BridgeCalls.push(mv, value);
    }

    /** Calls a bridge method whose arguments are on the stack. */
    void bridge(String method, String descriptor) {
      BridgeCalls.call(mv, method, descriptor);
    }

    private void spill() {
      for (int i = args.length - 1; i >= 0; i--) {
        mv.visitVarInsn(args[i].getOpcode(Opcodes.ISTORE), argSlots[i]);
      }
      if (receiver >= 0) {
        mv.visitVarInsn(Opcodes.ASTORE, receiver);
      }
    }

    private void reload() {
      if (receiver >= 0) {
        loadReceiver();
      }
      for (int i = 0; i < args.length; i++) {
        loadArg(i);
      }
    }
  }

  /**
   * The method visitor of a call-site family: {@link #weave} decides per call; {@link #around} does
   * the weaving.
   */
  abstract static class Method extends OwnHandlersFirst {
    protected final WeaveTarget target;
    private final AnalyzerAdapter frame;

    protected Method(
        MethodVisitor next, WeaveTarget target, int access, String name, String descriptor) {
      super(new AnalyzerAdapter(target.internalName(), access, name, descriptor, next), name);
      this.target = target;
      this.frame = (AnalyzerAdapter) mv;
    }

    /**
     * Weaves this call (with {@link #around}) and returns true, or returns false to leave it as it
     * is. The receiver and arguments are on the stack.
     */
    protected abstract boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface);

    @Override
    public final void visitMethodInsn(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      // A null frame: code after an unconditional jump that no frame declares reachable.
      if (frame.locals == null || !weave(opcode, owner, name, descriptor, isInterface)) {
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      }
    }

    /** Registers the region of the current call site. */
    protected final int region(ConstructKind kind, String name) {
      return target
          .regions()
          .register(
              kind, name, target.binaryName(), methodName, target.sourceFile(), line(), line());
    }

    /**
     * Emits the call with {@code hooks} around it.
     *
     * @param region the call site's region, for the hooks
     * @param protect whether {@link Hooks#thrown} must run when the call throws
     */
    protected final void around(
        int opcode,
        String owner,
        String name,
        String descriptor,
        boolean isInterface,
        int region,
        boolean protect,
        Hooks hooks) {
      target.changed();
      Call c = new Call(mv, opcode, descriptor, frame.locals.size(), region);
      c.spill();
      hooks.before(c);
      // A handler's frame cannot describe objects under construction well enough: leave such
      // (rare) calls unprotected.
      boolean guarded = protect && initialized(frame.locals) && initialized(frame.stack);
      Object[] handlerLocals = guarded ? frameTypes(frame.locals) : null;
      Label start = new Label();
      Label end = new Label();
      c.reload();
      if (guarded) {
        mv.visitLabel(start);
      }
      mv.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      if (guarded) {
        mv.visitLabel(end);
      }
      hooks.after(c);
      if (!guarded) {
        return;
      }
      Object[] joinLocals = frameTypes(frame.locals);
      Object[] joinStack = frameTypes(frame.stack);
      Label handler = new Label();
      Label join = new Label();
      mv.visitJumpInsn(Opcodes.GOTO, join);
      mv.visitLabel(handler);
      mv.visitFrame(
          Opcodes.F_NEW, handlerLocals.length, handlerLocals, 1, new Object[] {THROWABLE});
      hooks.thrown(c);
      mv.visitInsn(Opcodes.ATHROW);
      mv.visitLabel(join);
      mv.visitFrame(Opcodes.F_NEW, joinLocals.length, joinLocals, joinStack.length, joinStack);
      // The method's next instruction may carry a frame of its own; two cannot share an offset.
      mv.visitInsn(Opcodes.NOP);
      innermostHandler(start, end, handler, null);
    }

    private static boolean initialized(List<Object> types) {
      for (Object t : types) {
        if (t instanceof Label || t == Opcodes.UNINITIALIZED_THIS) {
          return false;
        }
      }
      return true;
    }

    /** The adapter's types (long and double take two entries) as a frame's (they take one). */
    private static Object[] frameTypes(List<Object> types) {
      List<Object> out = new ArrayList<>(types.size());
      for (int i = 0; i < types.size(); i++) {
        Object t = types.get(i);
        out.add(t);
        if (t == Opcodes.LONG || t == Opcodes.DOUBLE) {
          i++;
        }
      }
      return out.toArray();
    }
  }
}
