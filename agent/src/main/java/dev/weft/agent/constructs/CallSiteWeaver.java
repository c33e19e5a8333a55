package dev.weft.agent.constructs;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AnalyzerAdapter;

/**
 * Weaves code around chosen method calls inside a method: before the call, after it returns and
 * when it throws (the exception is rethrown unchanged), optionally depending on a run-time
 * condition evaluated once before the call. This is the one call-site weaver: application call
 * sites of every family go through {@link ApplicationCallSites} (waits, locks and regions get the
 * file and line of the call the user wrote), calls inside JDK methods through {@link
 * JdkMethods#callSites} (e.g. the {@code exec()} call in {@code ForkJoinTask.doExec}).
 *
 * <p>A woven call looks like this (frames are written from the types an {@link AnalyzerAdapter}
 * finds from the last frame, see {@link CallSiteFrames}; nothing is loaded, no frame is computed):
 *
 * <pre>
 *   [arguments stored in fresh locals, receiver kept in a fresh local, arguments reloaded]
 *   [condition → fresh int local]
 *   [shortcut; if it did what the call does: operands dropped; goto resume]
 *   before
 *   start: the call
 *   end:   after; goto resume
 *   handler (any Throwable): thrown; athrow
 *   resume: nop
 * </pre>
 *
 * The handler is inline, right after the call, so that the rethrown exception stays inside the try
 * blocks that enclose the call in the original code; its exception-table entry is written before
 * the method's own entries (which {@link OwnHandlersFirst} defers to {@code visitMaxs}), so it is
 * the one that runs first. Fresh locals are slots beyond the frame's current locals: nothing live
 * is there, and they are used only until the bracket ends.
 *
 * <p>Bracket parts write to the visitor they are given (the frame tracker), not back through this
 * weaver, so the calls they emit are never matched themselves.
 *
 * <p>Calls are left alone where a bracket cannot be written safely: in unreachable code, in a
 * constructor before {@code super(...)}, where a local holds an object under construction and the
 * bracket has a handler, and in classes older than Java 6 (no stack map frames: the tracker loses
 * the types after the first jump).
 */
public abstract class CallSiteWeaver extends OwnHandlersFirst {
  private final CallSiteFrames calls;
  private final boolean canWeave;

  /** The types at the call being woven; bracket parts write through it. */
  private AnalyzerAdapter frames;

  /**
   * @param next the rest of the visitor chain
   * @param owner internal name of the class
   * @param access the method's access flags
   * @param name the method's name
   * @param descriptor the method's descriptor
   * @param classVersion the class file version
   */
  protected CallSiteWeaver(
      MethodVisitor next,
      String owner,
      int access,
      String name,
      String descriptor,
      int classVersion) {
    this(new CallSiteFrames(owner, access, name, descriptor, next), name, classVersion);
  }

  private CallSiteWeaver(CallSiteFrames calls, String name, int classVersion) {
    super(calls, name);
    this.calls = calls;
    this.canWeave = (classVersion & 0xFFFF) >= Opcodes.V1_6;
  }

  /**
   * Whether {@link #bracketFor} may give a bracket for this call, without side effects: only then
   * are the frame's types worked out. True unless a subclass knows better.
   */
  protected boolean mayBracket(int opcode, String owner, String name, String descriptor) {
    return true;
  }

  /**
   * What to weave around a call, or null to leave it as it is. Called for every method call in
   * reachable code; {@link #line()} is the call's line.
   */
  protected abstract Bracket bracketFor(
      int opcode, String owner, String name, String descriptor, boolean isInterface);

  /** Code woven around one call. Every part must leave the operand stack as it found it. */
  public abstract static class Bracket {
    /**
     * Whether {@link Site#loadReceiver} and {@link Site#loadArgument} are used. The arguments are
     * then saved in fresh locals, which costs a few instructions per call.
     */
    protected boolean keepsOperands() {
      return false;
    }

    /** Whether there is a condition: {@link #condition} pushes an int, 0 meaning false. */
    protected boolean hasCondition() {
      return false;
    }

    /** Pushes the condition (an int), evaluated once before the call; see {@link Site#when}. */
    protected void condition(MethodVisitor mv, Site site) {}

    /**
     * Whether {@link #shortcut} is woven. Only for calls that return nothing; {@link #before} must
     * then leave the frame's locals as it found them (the shortcut's path skips it).
     */
    protected boolean hasShortcut() {
      return false;
    }

    /**
     * Pushes an int, first thing after the operands are kept: non-zero when it did what the call
     * would have done, so that the call is skipped: its operands are dropped, and neither {@link
     * #before} nor the call's exit code run.
     */
    protected void shortcut(MethodVisitor mv, Site site) {}

    /** Before the call (the arguments are on the stack). */
    protected void before(MethodVisitor mv, Site site) {}

    /** Whether {@link #after} and {@link #thrown} are woven. */
    protected boolean hasExit() {
      return true;
    }

    /**
     * Whether {@link #thrown} is woven (with {@link #hasExit}): a handler right after the call. A
     * bracket without one leaves a throwing call as if unwoven: nothing runs after it.
     */
    protected boolean hasThrown() {
      return true;
    }

    /** After the call returned (its result, if any, is on the stack). */
    protected void after(MethodVisitor mv, Site site) {}

    /** When the call threw (the exception is on the stack and is rethrown afterwards). */
    protected void thrown(MethodVisitor mv, Site site) {
      after(mv, site);
    }
  }

  /** What the parts of a bracket can use at one call. */
  public final class Site {
    private final int receiverLocal;
    private final int[] argumentLocals;
    private final Type[] argumentTypes;
    private int conditionLocal = -1;
    private int nextFree;

    Site(int receiverLocal, int[] argumentLocals, Type[] argumentTypes, int nextFree) {
      this.receiverLocal = receiverLocal;
      this.argumentLocals = argumentLocals;
      this.argumentTypes = argumentTypes;
      this.nextFree = nextFree;
    }

    /**
     * A fresh local for a value of {@code type}, used by no one else until the bracket ends: e.g. a
     * value read before the call for use after it (store it in {@link Bracket#before} to have it in
     * {@link Bracket#thrown} too).
     */
    public int newLocal(Type type) {
      int slot = nextFree;
      nextFree += type.getSize();
      return slot;
    }

    /** Pushes the call's receiver (null for a static call or when operands are not kept). */
    public void loadReceiver(MethodVisitor mv) {
      if (receiverLocal < 0) {
        mv.visitInsn(Opcodes.ACONST_NULL);
      } else {
        mv.visitVarInsn(Opcodes.ALOAD, receiverLocal);
      }
    }

    /** Whether the call takes arguments. */
    public boolean hasArguments() {
      return argumentTypes.length > 0;
    }

    /** Pushes argument {@code i} (when operands are kept). */
    public void loadArgument(MethodVisitor mv, int i) {
      if (argumentLocals == null) {
        throw new IllegalStateException("operands were not kept");
      }
      mv.visitVarInsn(argumentTypes[i].getOpcode(Opcodes.ILOAD), argumentLocals[i]);
    }

    /**
     * Emits {@code code}, run only when the condition evaluated before the call equals {@code
     * expected}. Without a condition, {@code code} always runs.
     */
    public void when(boolean expected, Runnable code) {
      if (conditionLocal < 0) {
        if (expected) {
          code.run();
        }
        return;
      }
      Object[] locals = frameTypes(frames.locals);
      Object[] stack = frameTypes(frames.stack);
      Label skip = new Label();
      frames.visitVarInsn(Opcodes.ILOAD, conditionLocal);
      frames.visitJumpInsn(expected ? Opcodes.IFEQ : Opcodes.IFNE, skip);
      code.run();
      frames.visitLabel(skip);
      frames.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
    }
  }

  @Override
  public void visitMethodInsn(
      int opcode, String owner, String name, String descriptor, boolean isInterface) {
    Bracket b = null;
    AnalyzerAdapter types = null;
    if (canWeave && !name.equals("<init>") && mayBracket(opcode, owner, name, descriptor)) {
      types = calls.at();
      if (types.locals != null && !types.locals.contains(Opcodes.UNINITIALIZED_THIS)) {
        b = bracketFor(opcode, owner, name, descriptor, isInterface);
      }
    }
    if (b != null && b.hasExit() && b.hasThrown() && holdsNewObject(types.locals)) {
      // The old verifier (class files before Java 7 may fall back to it) forbids a handler over
      // code where a local holds an object under construction; javac never puts one there.
      b = null;
    }
    if (b == null) {
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      return;
    }
    frames = types;
    calls.emitThrough(true);
    try {
      weave(b, opcode, owner, name, descriptor, isInterface);
    } finally {
      calls.emitThrough(false);
      frames = null;
    }
  }

  private void weave(
      Bracket b, int opcode, String owner, String name, String descriptor, boolean isInterface) {
    int free = frames.locals.size();
    int receiverLocal = -1;
    int[] argumentLocals = null;
    Type[] args = Type.getArgumentTypes(descriptor);
    if (b.keepsOperands()) {
      argumentLocals = new int[args.length];
      for (int i = 0; i < args.length; i++) {
        argumentLocals[i] = free;
        free += args[i].getSize();
      }
      for (int i = args.length - 1; i >= 0; i--) {
        frames.visitVarInsn(args[i].getOpcode(Opcodes.ISTORE), argumentLocals[i]);
      }
      if (opcode != Opcodes.INVOKESTATIC) {
        receiverLocal = free++;
        frames.visitInsn(Opcodes.DUP);
        frames.visitVarInsn(Opcodes.ASTORE, receiverLocal);
      }
      for (int i = 0; i < args.length; i++) {
        frames.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), argumentLocals[i]);
      }
    }
    Site site = new Site(receiverLocal, argumentLocals, args, free);
    if (b.hasCondition()) {
      b.condition(frames, site);
      site.conditionLocal = site.newLocal(Type.INT_TYPE);
      frames.visitVarInsn(Opcodes.ISTORE, site.conditionLocal);
    }
    Label skipped = b.hasShortcut() ? shortcut(b, site, opcode, args, descriptor) : null;
    Object[] localsSkipping = skipped == null ? null : frameTypes(frames.locals);
    b.before(frames, site);

    if (!b.hasExit() || !b.hasThrown()) {
      frames.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      if (b.hasExit()) {
        b.after(frames, site);
      }
      if (skipped != null) {
        Object[] stack = frameTypes(frames.stack);
        frames.visitLabel(skipped);
        frames.visitFrame(
            Opcodes.F_NEW, localsSkipping.length, localsSkipping, stack.length, stack);
        frames.visitInsn(Opcodes.NOP);
      }
      return;
    }
    Label start = new Label();
    Label end = new Label();
    Label handler = new Label();
    Label resume = new Label();
    innermostHandler(start, end, handler, "java/lang/Throwable");
    frames.visitLabel(start);
    Object[] localsAtCall = frameTypes(frames.locals);
    frames.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    frames.visitLabel(end);
    Object[] localsAfter = frameTypes(frames.locals);
    Object[] stackAfter = frameTypes(frames.stack);
    b.after(frames, site);
    frames.visitJumpInsn(Opcodes.GOTO, resume);

    frames.visitLabel(handler);
    frames.visitFrame(
        Opcodes.F_NEW, localsAtCall.length, localsAtCall, 1, new Object[] {"java/lang/Throwable"});
    b.thrown(frames, site);
    frames.visitInsn(Opcodes.ATHROW);

    frames.visitLabel(resume);
    if (skipped != null) {
      // Reached from the shortcut too, where the locals the call's path added are not set.
      frames.visitLabel(skipped);
      localsAfter = localsSkipping;
    }
    frames.visitFrame(
        Opcodes.F_NEW, localsAfter.length, localsAfter, stackAfter.length, stackAfter);
    // A frame of the original code may follow at once; the nop keeps the two offsets apart.
    frames.visitInsn(Opcodes.NOP);
  }

  /**
   * The bracket's shortcut and, when it says so, the jump past the call with the call's operands
   * dropped; returns the label the jump goes to, to be placed where the call's path resumes.
   */
  private Label shortcut(Bracket b, Site site, int opcode, Type[] args, String descriptor) {
    if (Type.getReturnType(descriptor) != Type.VOID_TYPE) {
      throw new IllegalStateException("a shortcut for a call with a result: " + descriptor);
    }
    Label call = new Label();
    Label skipped = new Label();
    b.shortcut(frames, site);
    frames.visitJumpInsn(Opcodes.IFEQ, call);
    Object[] locals = frameTypes(frames.locals);
    Object[] stack = frameTypes(frames.stack);
    for (int i = args.length - 1; i >= 0; i--) {
      frames.visitInsn(args[i].getSize() == 2 ? Opcodes.POP2 : Opcodes.POP);
    }
    if (opcode != Opcodes.INVOKESTATIC) {
      frames.visitInsn(Opcodes.POP);
    }
    frames.visitJumpInsn(Opcodes.GOTO, skipped);
    frames.visitLabel(call);
    frames.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
    return skipped;
  }

  private static boolean holdsNewObject(List<Object> locals) {
    for (Object t : locals) {
      if (t instanceof Label) {
        return true;
      }
    }
    return false;
  }

  /**
   * The analyzer's types in frame form: a long or double takes one element in a frame but two (the
   * second being TOP) in the analyzer's lists.
   */
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
