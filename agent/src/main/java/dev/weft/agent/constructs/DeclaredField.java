package dev.weft.agent.constructs;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Whether the class being woven declares a field, static or not, of a name and type: fields are
 * visited before methods, so a method visitor made after them knows whether its hook may read it (a
 * library pool's field naming a task's pool, its static no-op job).
 */
final class DeclaredField extends ClassVisitor {
  private final boolean isStatic;
  private final String name;
  private final String descriptor;
  boolean seen;

  DeclaredField(ClassVisitor next, boolean isStatic, String name, String descriptor) {
    super(Opcodes.ASM9, next);
    this.isStatic = isStatic;
    this.name = name;
    this.descriptor = descriptor;
  }

  @Override
  public FieldVisitor visitField(
      int access, String name, String descriptor, String signature, Object value) {
    seen |=
        ((access & Opcodes.ACC_STATIC) != 0) == isStatic
            && name.equals(this.name)
            && descriptor.equals(this.descriptor);
    return super.visitField(access, name, descriptor, signature, value);
  }
}
