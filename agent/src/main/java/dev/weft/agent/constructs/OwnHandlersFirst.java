package dev.weft.agent.constructs;

import dev.weft.agent.weave.LineTrackingMethodVisitor;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.TypePath;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeAnnotationNode;

/**
 * A method visitor whose own exception handlers come first in the exception table. The JVM takes
 * the first entry whose range covers the throwing instruction, so a handler around a single woven
 * call must precede the method's handlers that enclose the call; ASM visits a method's entries
 * before its code, so they are held back here and emitted at {@code visitMaxs}, after this
 * visitor's own.
 */
abstract class OwnHandlersFirst extends LineTrackingMethodVisitor {
  private final List<TryCatchBlockNode> originals = new ArrayList<>();
  private int ownEntries;
  private boolean flushed;

  protected OwnHandlersFirst(MethodVisitor next, String methodName) {
    super(next, methodName);
  }

  /** The method's entries seen so far, in table order. */
  protected final List<TryCatchBlockNode> originalHandlers() {
    return originals;
  }

  /** Emits an entry ahead of all the method's own: for a range inside every enclosing one. */
  protected final void innermostHandler(Label start, Label end, Label handler, String type) {
    mv.visitTryCatchBlock(start, end, handler, type);
    ownEntries++;
  }

  /**
   * Emits the method's entries. Called once from {@code visitMaxs}; entries a subclass emits after
   * this call enclose all others (a catch-all around the whole method).
   */
  protected final void flushOriginalHandlers() {
    if (flushed) {
      return;
    }
    flushed = true;
    for (int i = 0; i < originals.size(); i++) {
      TryCatchBlockNode t = originals.get(i);
      t.updateIndex(ownEntries + i); // type annotations on a catch name the entry's index
      t.accept(mv);
    }
  }

  @Override
  public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
    originals.add(
        new TryCatchBlockNode(
            new LabelNode(start),
            new LabelNode(end),
            handler == null ? null : new LabelNode(handler),
            type));
  }

  @Override
  public AnnotationVisitor visitTryCatchAnnotation(
      int typeRef, TypePath typePath, String descriptor, boolean visible) {
    TryCatchBlockNode last = originals.get(originals.size() - 1);
    TypeAnnotationNode a = new TypeAnnotationNode(typeRef, typePath, descriptor);
    if (visible) {
      if (last.visibleTypeAnnotations == null) {
        last.visibleTypeAnnotations = new ArrayList<>(1);
      }
      last.visibleTypeAnnotations.add(a);
    } else {
      if (last.invisibleTypeAnnotations == null) {
        last.invisibleTypeAnnotations = new ArrayList<>(1);
      }
      last.invisibleTypeAnnotations.add(a);
    }
    return a;
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    flushOriginalHandlers();
    super.visitMaxs(maxStack, maxLocals);
  }
}
