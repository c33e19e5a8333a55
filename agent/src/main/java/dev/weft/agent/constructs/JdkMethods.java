package dev.weft.agent.constructs;

import dev.weft.agent.weave.AsmWeaving;
import dev.weft.agent.weave.WeaveTarget;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Weaving of JDK classes by method: a {@link Weaver} decides, per method, which visitor changes it
 * (an entry hook, a {@code HookedMethod}, a {@link CallSiteWeaver}). Only advice-style changes are
 * made (code inside existing methods), so the result is valid for retransformation.
 */
final class JdkMethods {
  private JdkMethods() {}

  /** Chooses the visitor of one method. */
  interface Weaver {
    /**
     * The visitor that changes method {@code name descriptor}, or {@code mv} to leave it. Call
     * {@code target.changed()} when changing it.
     */
    MethodVisitor visit(
        MethodVisitor mv, int access, String name, String descriptor, int classVersion);
  }

  /** The woven class file, or null when nothing was changed. */
  static byte[] weave(WeaveTarget target, Weaver weaver) {
    return AsmWeaving.weave(target, (writer, t) -> byMethod(writer, weaver));
  }

  /**
   * A class visitor that lets {@code weaver} choose the visitor of each method with code: for JDK
   * classes ({@link #weave}) and for application classes woven by method, not only by call site
   * ({@code @Traced} methods, a library's scheduler).
   */
  static ClassVisitor byMethod(ClassVisitor next, Weaver weaver) {
    return new ClassVisitor(Opcodes.ASM9, next) {
      private int version;

      @Override
      public void visit(
          int version,
          int access,
          String name,
          String signature,
          String superName,
          String[] interfaces) {
        this.version = version;
        super.visit(version, access, name, signature, superName, interfaces);
      }

      @Override
      public MethodVisitor visitMethod(
          int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (mv == null || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
          return mv;
        }
        return weaver.visit(mv, access, name, descriptor, version);
      }
    };
  }

  /** Code inserted at a method's start. */
  interface EntryCode {
    void emit(MethodVisitor mv);
  }

  /**
   * A visitor that inserts {@code code} at the start of the method (which must not be a
   * constructor). The code must leave the stack empty and may load the parameters.
   */
  static MethodVisitor atEntry(MethodVisitor mv, EntryCode code) {
    return new MethodVisitor(Opcodes.ASM9, mv) {
      @Override
      public void visitCode() {
        super.visitCode();
        code.emit(mv);
      }
    };
  }

  /**
   * As {@link #atEntry}, but {@code code} runs only when reference parameter local {@code local} is
   * not null.
   */
  static MethodVisitor atEntryUnlessNull(
      MethodVisitor mv, String owner, int access, String descriptor, int local, EntryCode code) {
    return new MethodVisitor(Opcodes.ASM9, mv) {
      @Override
      public void visitCode() {
        super.visitCode();
        Label skip = new Label();
        mv.visitVarInsn(Opcodes.ALOAD, local);
        mv.visitJumpInsn(Opcodes.IFNULL, skip);
        code.emit(mv);
        mv.visitLabel(skip);
        Object[] locals = entryLocals(owner, access, descriptor);
        mv.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
        mv.visitInsn(Opcodes.NOP); // the method's first instruction may carry a frame too
      }
    };
  }

  /** The frame locals at a method's entry: {@code this} and the parameters. */
  private static Object[] entryLocals(String owner, int access, String descriptor) {
    List<Object> out = new ArrayList<>();
    if ((access & Opcodes.ACC_STATIC) == 0) {
      out.add(owner);
    }
    for (Type t : Type.getArgumentTypes(descriptor)) {
      switch (t.getSort()) {
        case Type.BOOLEAN:
        case Type.BYTE:
        case Type.CHAR:
        case Type.SHORT:
        case Type.INT:
          out.add(Opcodes.INTEGER);
          break;
        case Type.FLOAT:
          out.add(Opcodes.FLOAT);
          break;
        case Type.LONG:
          out.add(Opcodes.LONG);
          break;
        case Type.DOUBLE:
          out.add(Opcodes.DOUBLE);
          break;
        case Type.ARRAY:
          out.add(t.getDescriptor());
          break;
        default:
          out.add(t.getInternalName());
          break;
      }
    }
    return out.toArray();
  }

  /** A call-site weaver whose brackets come from {@code brackets}. */
  static MethodVisitor callSites(
      MethodVisitor mv,
      String owner,
      int access,
      String name,
      String descriptor,
      int classVersion,
      CallBrackets brackets) {
    return new CallSiteWeaver(mv, owner, access, name, descriptor, classVersion) {
      @Override
      protected Bracket bracketFor(
          int opcode, String callOwner, String callName, String callDescriptor, boolean itf) {
        return brackets.bracketFor(opcode, callOwner, callName, callDescriptor);
      }
    };
  }

  /**
   * The class file with the calls that {@code brackets} chooses bracketed in method {@code name
   * descriptor} of {@code target}, or null when nothing was changed (the brackets call {@code
   * target.changed()}, or register a region, which does).
   */
  static byte[] callSitesIn(
      WeaveTarget target, String name, String descriptor, CallBrackets brackets) {
    return weave(
        target,
        (mv, access, method, desc, version) ->
            method.equals(name) && desc.equals(descriptor)
                ? callSites(mv, target.internalName(), access, method, desc, version, brackets)
                : mv);
  }

  /** Which calls of a JDK method are bracketed. */
  interface CallBrackets {
    CallSiteWeaver.Bracket bracketFor(int opcode, String owner, String name, String descriptor);
  }
}
