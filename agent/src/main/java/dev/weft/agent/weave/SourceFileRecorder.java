package dev.weft.agent.weave;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

/** Head of every visitor chain: tells the target its source file before any method is visited. */
final class SourceFileRecorder extends ClassVisitor {
  private final WeaveTarget target;

  SourceFileRecorder(ClassVisitor next, WeaveTarget target) {
    super(Opcodes.ASM9, next);
    this.target = target;
  }

  @Override
  public void visitSource(String source, String debug) {
    target.sourceFile(source);
    super.visitSource(source, debug);
  }
}
