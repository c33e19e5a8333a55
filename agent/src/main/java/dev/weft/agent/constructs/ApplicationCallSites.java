package dev.weft.agent.constructs;

import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.Set;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Base of the instrumentations that weave calls in application classes (waits and regions that must
 * point at the line the user wrote). A subclass only says which calls it brackets and how: {@link
 * #bracketFor(Call)}.
 */
abstract class ApplicationCallSites implements ConstructInstrumentation {

  /** The bracket for {@code call}, or null to leave the call alone. */
  protected abstract Bracket bracketFor(Call call);

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
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
        return new CallSiteWeaver(mv, target.internalName(), access, name, descriptor, version) {
          @Override
          protected Bracket bracketFor(
              int opcode, String owner, String callName, String callDescriptor, boolean itf) {
            return ApplicationCallSites.this.bracketFor(
                new Call(target, methodName, line(), opcode, owner, callName, callDescriptor));
          }
        };
      }
    };
  }

  /** One call instruction in an application method, with what is needed to register its region. */
  static final class Call {
    final WeaveTarget target;
    final String method;
    final int line;
    final int opcode;
    final String owner;
    final String name;
    final String descriptor;

    Call(
        WeaveTarget target,
        String method,
        int line,
        int opcode,
        String owner,
        String name,
        String descriptor) {
      this.target = target;
      this.method = method;
      this.line = line;
      this.opcode = opcode;
      this.owner = owner;
      this.name = name;
      this.descriptor = descriptor;
    }

    /** Whether this is {@code name descriptor}. */
    boolean is(String name, String descriptor) {
      return this.name.equals(name) && this.descriptor.equals(descriptor);
    }

    /** Whether the call's owner is one of {@code types} or a subtype (read without loading). */
    boolean ownerIn(Set<String> types) {
      return types.contains(owner) || SuperTypes.isSubtype(target.loader(), owner, types);
    }

    /**
     * Registers the region of this call site (file and line of the call) and marks the class as
     * changed; call only when a bracket will be woven.
     */
    int region(ConstructKind kind, String regionName) {
      target.changed();
      return target
          .regions()
          .register(kind, regionName, target.binaryName(), method, target.sourceFile(), line, line);
    }
  }
}
