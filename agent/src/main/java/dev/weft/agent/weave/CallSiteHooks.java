package dev.weft.agent.weave;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.TypePath;
import org.objectweb.asm.commons.AnalyzerAdapter;

/**
 * Weaves code around chosen method calls in a method body: before the call, after it returns, and
 * when it throws (from a handler covering only that call, which rethrows). This is how a construct
 * is attributed to the user's call site ({@code lock.lock()}, {@code Thread.sleep(…)}, {@code
 * barrier.await()} at {@code File.java:42}), which JDK-side hooks cannot know.
 *
 * <p>A subclass decides per call in {@link #hookCall} (typically registering a region for the
 * call's {@link #line()}) and returns a token, e.g. the region id, that the hooks receive.
 *
 * <p>Handlers are exact: the frame at each handler is the one at the call (tracked by an {@link
 * AnalyzerAdapter}, so the class must be read with expanded frames, as the agent always does); the
 * per-call handlers come first in the exception table, so a {@code try/catch} around the call in
 * the user's code cannot hide the exception from {@link #onCallThrow}; and the handler code sits
 * right behind the call, so its rethrow reaches the user's handlers as the original exception
 * would. Calls in a constructor before {@code super(…)} and in unreachable code are left alone.
 */
public abstract class CallSiteHooks extends LineTrackingMethodVisitor {
  private final AnalyzerAdapter analyzer;
  private final List<Handler> handlers = new ArrayList<>();
  private final List<OriginalTryCatch> originals = new ArrayList<>();

  /** A woven call's exception-table entry, registered at the end of the method. */
  private static final class Handler {
    final Label start;
    final Label end;
    final Label handler;

    Handler(Label start, Label end, Label handler) {
      this.start = start;
      this.end = end;
      this.handler = handler;
    }
  }

  /** One of the method's own try/catch blocks, forwarded at the end. */
  private static final class OriginalTryCatch {
    final Label start;
    final Label end;
    final Label handler;
    final String type;

    OriginalTryCatch(Label start, Label end, Label handler, String type) {
      this.start = start;
      this.end = end;
      this.handler = handler;
      this.type = type;
    }
  }

  /**
   * @param owner internal name of the class
   * @param access, name, descriptor of the method being visited
   */
  protected CallSiteHooks(
      MethodVisitor next, String owner, int access, String name, String descriptor) {
    this(new AnalyzerAdapter(owner, access, name, descriptor, next), name);
  }

  private CallSiteHooks(AnalyzerAdapter analyzer, String name) {
    super(analyzer, name);
    this.analyzer = analyzer;
  }

  /**
   * Whether to hook this call, decided with {@link #line()} giving the call's source line.
   *
   * @return a token (≥ 0) passed to the hooks of this call, or -1 to leave the call alone
   */
  protected abstract int hookCall(int opcode, String owner, String name, String descriptor);

  /** Code before the call; the call's receiver and arguments are on the stack and must stay. */
  protected void beforeCall(int token) {}

  /** Code after the call returned; its result (if any) is on the stack and must stay. */
  protected void afterCall(int token) {}

  /** Code when the call threw; the exception is on the stack and must stay (it is rethrown). */
  protected void onCallThrow(int token) {}

  @Override
  public void visitMethodInsn(
      int opcode, String owner, String name, String descriptor, boolean isInterface) {
    int token = reachableAndInitialised() ? hookCall(opcode, owner, name, descriptor) : -1;
    if (token < 0) {
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      return;
    }
    beforeCall(token);
    // The handler sits right behind the call, inside whatever try blocks of the user's enclose it,
    // so that its rethrow reaches the user's own handlers exactly as the original exception would.
    //   start: CALL  end: afterCall; GOTO resume
    //   handler: [frame: locals at the call, Throwable] onCallThrow; ATHROW
    //   resume: [frame: as after afterCall] NOP
    Object[] localsAtCall = frameTypes(analyzer.locals);
    Label start = new Label();
    Label end = new Label();
    Label handler = new Label();
    Label resume = new Label();
    handlers.add(new Handler(start, end, handler));
    super.visitLabel(start);
    super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    super.visitLabel(end);
    afterCall(token);
    Object[] localsAfter = frameTypes(analyzer.locals);
    Object[] stackAfter = frameTypes(analyzer.stack);
    super.visitJumpInsn(Opcodes.GOTO, resume);
    super.visitLabel(handler);
    super.visitFrame(
        Opcodes.F_NEW, localsAtCall.length, localsAtCall, 1, new Object[] {"java/lang/Throwable"});
    onCallThrow(token);
    super.visitInsn(Opcodes.ATHROW);
    super.visitLabel(resume);
    super.visitFrame(Opcodes.F_NEW, localsAfter.length, localsAfter, stackAfter.length, stackAfter);
    super.visitInsn(Opcodes.NOP); // a frame the original code puts here must not share our offset
  }

  private boolean reachableAndInitialised() {
    List<Object> locals = analyzer.locals;
    return locals != null && !locals.contains(Opcodes.UNINITIALIZED_THIS);
  }

  @Override
  public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
    originals.add(new OriginalTryCatch(start, end, handler, type));
  }

  @Override
  public AnnotationVisitor visitTryCatchAnnotation(
      int typeRef, TypePath typePath, String descriptor, boolean visible) {
    // Type annotations on a catch clause (rare; no effect on execution) would refer to a block
    // whose place in the table moves: they are dropped rather than misplaced.
    return null;
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    // Inner (per-call) handlers first: the JVM takes the first matching entry.
    for (Handler h : handlers) {
      super.visitTryCatchBlock(h.start, h.end, h.handler, "java/lang/Throwable");
    }
    for (OriginalTryCatch t : originals) {
      super.visitTryCatchBlock(t.start, t.end, t.handler, t.type);
    }
    super.visitMaxs(maxStack, maxLocals);
  }

  /** AnalyzerAdapter lists long/double as two slots (the second TOP); frames want one element. */
  private static Object[] frameTypes(List<Object> slots) {
    List<Object> out = new ArrayList<>(slots.size());
    for (int i = 0; i < slots.size(); i++) {
      Object t = slots.get(i);
      out.add(t);
      if (t == Opcodes.LONG || t == Opcodes.DOUBLE) {
        i++;
      }
    }
    while (!out.isEmpty() && out.get(out.size() - 1) == Opcodes.TOP) {
      out.remove(out.size() - 1);
    }
    return out.toArray();
  }
}
