package dev.weft.agent.constructs;

import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

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
    return new SitesClass(next, target);
  }

  /** A method reference to a bracketed call, turned into a call of a synthetic method. */
  private static final class MethodReference {
    final String syntheticName;
    final String syntheticDescriptor;
    final Handle target;
    final int line;
    final Bracket bracket;

    MethodReference(
        String syntheticName, String syntheticDescriptor, Handle target, int line, Bracket b) {
      this.syntheticName = syntheticName;
      this.syntheticDescriptor = syntheticDescriptor;
      this.target = target;
      this.line = line;
      this.bracket = b;
    }
  }

  /**
   * Weaves the calls of every method, and method references ({@code future::get}, {@code
   * CompletableFuture::join}, {@code left::join}) whose call would be bracketed: their call happens
   * later, inside a lambda class the JDK spins, where nothing can be woven. When a class is loaded
   * (not when it is retransformed, which may not add methods), such a reference is pointed at a new
   * private static synthetic method of the class that makes the call, bracketed, with the line of
   * the reference.
   */
  private final class SitesClass extends ClassVisitor {
    private final WeaveTarget target;
    private final List<MethodReference> references = new ArrayList<>();
    private int version;
    private boolean isInterface;

    SitesClass(ClassVisitor next, WeaveTarget target) {
      super(Opcodes.ASM9, next);
      this.target = target;
    }

    @Override
    public void visit(
        int version,
        int access,
        String name,
        String signature,
        String superName,
        String[] interfaces) {
      this.version = version;
      this.isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
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

        @Override
        public void visitInvokeDynamicInsn(
            String indyName, String indyDescriptor, Handle bootstrap, Object... arguments) {
          super.visitInvokeDynamicInsn(
              indyName,
              indyDescriptor,
              bootstrap,
              redirect(bootstrap, arguments, methodName, line()));
        }
      };
    }

    /** The bootstrap arguments, with a bracketed method reference's target replaced. */
    private Object[] redirect(Handle bootstrap, Object[] arguments, String method, int line) {
      if (target.retransforming()
          || isInterface
          || !bootstrap.getOwner().equals("java/lang/invoke/LambdaMetafactory")
          || !bootstrap.getName().equals("metafactory")
          || arguments.length < 3
          || !(arguments[1] instanceof Handle)) {
        return arguments;
      }
      Handle h = (Handle) arguments[1];
      int opcode;
      if (h.getTag() == Opcodes.H_INVOKEVIRTUAL) {
        opcode = Opcodes.INVOKEVIRTUAL;
      } else if (h.getTag() == Opcodes.H_INVOKEINTERFACE) {
        opcode = Opcodes.INVOKEINTERFACE;
      } else {
        return arguments; // static and special targets: none of ours
      }
      Bracket b =
          bracketFor(
              new Call(target, method, line, opcode, h.getOwner(), h.getName(), h.getDesc()));
      if (b == null) {
        return arguments;
      }
      // Named per family, so that several families adding methods to one class never collide.
      String name =
          "weft$" + ApplicationCallSites.this.getClass().getSimpleName() + "$" + references.size();
      String descriptor = "(L" + h.getOwner() + ";" + h.getDesc().substring(1);
      references.add(new MethodReference(name, descriptor, h, line, b));
      Object[] out = arguments.clone();
      out[1] = new Handle(Opcodes.H_INVOKESTATIC, target.internalName(), name, descriptor, false);
      return out;
    }

    @Override
    public void visitEnd() {
      for (MethodReference r : references) {
        addSynthetic(r);
      }
      super.visitEnd();
    }

    /**
     * {@code private static synthetic R name(Owner receiver, args...) { return receiver.m(args); }}
     */
    private void addSynthetic(MethodReference r) {
      int access = Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC;
      MethodVisitor out =
          super.visitMethod(access, r.syntheticName, r.syntheticDescriptor, null, null);
      if (out == null) {
        return;
      }
      MethodVisitor mv =
          new CallSiteWeaver(
              out, target.internalName(), access, r.syntheticName, r.syntheticDescriptor, version) {
            @Override
            protected Bracket bracketFor(
                int opcode, String owner, String callName, String callDescriptor, boolean itf) {
              return owner.equals(r.target.getOwner()) && callName.equals(r.target.getName())
                  ? r.bracket
                  : null;
            }
          };
      mv.visitCode();
      Label start = new Label();
      mv.visitLabel(start);
      if (r.line > 0) {
        mv.visitLineNumber(r.line, start);
      }
      int local = 0;
      for (Type t : Type.getArgumentTypes(r.syntheticDescriptor)) {
        mv.visitVarInsn(t.getOpcode(Opcodes.ILOAD), local);
        local += t.getSize();
      }
      Handle h = r.target;
      mv.visitMethodInsn(
          h.getTag() == Opcodes.H_INVOKEINTERFACE ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL,
          h.getOwner(),
          h.getName(),
          h.getDesc(),
          h.isInterface());
      mv.visitInsn(Type.getReturnType(h.getDesc()).getOpcode(Opcodes.IRETURN));
      mv.visitMaxs(0, 0);
      mv.visitEnd();
    }
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
