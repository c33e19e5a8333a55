package dev.weft.agent.weave;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A method visitor that knows the source line of the instruction being visited and the first and
 * last line of the method, for the region descriptors of call sites.
 */
public class LineTrackingMethodVisitor extends MethodVisitor {
  /** The method's name ({@code <init>} for constructors). */
  protected final String methodName;

  private int line;
  private int firstLine;
  private int lastLine;

  protected LineTrackingMethodVisitor(MethodVisitor next, String methodName) {
    super(Opcodes.ASM9, next);
    this.methodName = methodName;
  }

  @Override
  public void visitLineNumber(int line, Label start) {
    this.line = line;
    if (firstLine == 0 || line < firstLine) {
      firstLine = line;
    }
    lastLine = Math.max(lastLine, line);
    super.visitLineNumber(line, start);
  }

  /** The current source line; 0 when the class has no line numbers. */
  protected int line() {
    return line;
  }

  /** The smallest line seen so far in the method (complete at {@code visitEnd}). */
  protected int firstLine() {
    return firstLine;
  }

  /** The largest line seen so far in the method (complete at {@code visitEnd}). */
  protected int lastLine() {
    return lastLine;
  }
}
