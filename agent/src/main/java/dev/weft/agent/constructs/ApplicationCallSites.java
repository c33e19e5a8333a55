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
 * The one call-site path for application classes, base of every family that weaves calls where the
 * user wrote them (locks, barriers, waits, joins, regions: their events point at the user's line).
 * A family only declares its table, {@link #targets()}: which JDK calls it brackets and how.
 *
 * <p>Classes are scanned first ({@link ClassScan}, once for all families, no parsing): a class none
 * of whose methods calls a target, or takes a method reference to one, is neither parsed nor (at
 * attach) retransformed, and only the methods that do are given a {@link CallSiteWeaver}. So
 * families may offer every class ({@code applicationHints() = [""]}) at almost no cost.
 *
 * <p>Method references to those calls ({@code left::join}, {@code CompletableFuture::join}) are
 * woven too: the call then happens inside a lambda class the JVM spins at run time, which is never
 * woven, so the reference is pointed at a small synthetic method of the same class, {@code
 * weft$ref$N}, that makes the call where it can be bracketed, with the line of the reference. Not
 * for serializable lambdas (their deserialisation checks the target method) nor when a loaded class
 * is retransformed (no method may be added then).
 */
abstract class ApplicationCallSites implements ConstructInstrumentation, CallTargets.Rows {

  /** The family's table of call targets and their brackets. */
  protected abstract CallTargets targets();

  /**
   * Every class, unless a family narrows it: the shared {@link ClassScan} finds the calls, once for
   * all families.
   */
  @Override
  public List<String> applicationHints() {
    return List.of("");
  }

  /** The bracket of the table's row number {@code row} (rows not made by a lambda); or null. */
  @Override
  public Bracket bracket(int row, Call call) {
    return null;
  }

  /** The bracket for {@code call}, or null to leave the call alone. */
  private Bracket bracketFor(Call call) {
    return targets().bracketFor(call, this);
  }

  /** Whether some method calls a target or refers to one ({@link ClassScan}, no parsing). */
  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return !ClassScan.of(target).methodsCalling(targets()).isEmpty();
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    Set<String> methods = ClassScan.of(target).methodsCalling(targets());
    if (methods.isEmpty()) {
      return next;
    }
    return new ClassVisitor(Opcodes.ASM9, next) {
      private int version;
      private boolean isInterface;
      private final List<ReferenceBridge> bridges = new ArrayList<>();

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
        if (mv == null || !methods.contains(name + descriptor)) {
          return mv;
        }
        return new CallSiteWeaver(mv, target.internalName(), access, name, descriptor, version) {
          @Override
          protected boolean mayBracket(
              int opcode, String callOwner, String callName, String callDescriptor) {
            return targets().match(callOwner, callName, callName + callDescriptor);
          }

          @Override
          protected Bracket bracketFor(
              int opcode, String owner, String callName, String callDescriptor, boolean itf) {
            return ApplicationCallSites.this.bracketFor(
                new Call(target, methodName, line(), opcode, owner, callName, callDescriptor));
          }

          @Override
          public void visitInvokeDynamicInsn(
              String indyName, String indyDescriptor, Handle bootstrap, Object... arguments) {
            Handle bridge =
                referenceBridge(indyDescriptor, bootstrap, arguments, methodName, line());
            if (bridge != null) {
              arguments = arguments.clone();
              arguments[1] = bridge;
            }
            super.visitInvokeDynamicInsn(indyName, indyDescriptor, bootstrap, arguments);
          }
        };
      }

      /**
       * For a method reference to a call this family brackets, a handle to a new bridge method that
       * makes the call; null to leave the reference alone.
       */
      private Handle referenceBridge(
          String indyDescriptor, Handle bootstrap, Object[] arguments, String method, int line) {
        if (target.retransforming() || !isLambdaMetafactory(bootstrap, arguments)) {
          return null;
        }
        Handle called = (Handle) arguments[1];
        int opcode = invokeOpcode(called.getTag());
        if (opcode < 0 || called.getName().startsWith("<")) {
          return null;
        }
        Call call =
            new Call(
                target,
                method,
                line,
                opcode,
                called.getOwner(),
                called.getName(),
                called.getDesc());
        Bracket bracket = ApplicationCallSites.this.bracketFor(call);
        if (bracket == null) {
          return null;
        }
        String descriptor =
            capturedTypesFirst(
                indyDescriptor,
                opcode == Opcodes.INVOKESTATIC
                    ? called.getDesc()
                    : receiverFirst(called.getOwner(), called.getDesc()));
        String name = "weft$ref$" + target.nextSyntheticIndex();
        bridges.add(new ReferenceBridge(name, descriptor, called, opcode, line, bracket));
        return new Handle(
            Opcodes.H_INVOKESTATIC, target.internalName(), name, descriptor, isInterface);
      }

      @Override
      public void visitEnd() {
        for (ReferenceBridge b : bridges) {
          writeBridge(b);
        }
        super.visitEnd();
      }

      private void writeBridge(ReferenceBridge b) {
        // Private static methods in interfaces need Java 9 class files; public ones do in Java 8.
        int visibility =
            isInterface && (version & 0xFFFF) < Opcodes.V9
                ? Opcodes.ACC_PUBLIC
                : Opcodes.ACC_PRIVATE;
        int access = visibility | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC;
        MethodVisitor out = super.visitMethod(access, b.name, b.descriptor, null, null);
        if (out == null) {
          return;
        }
        MethodVisitor mv =
            new CallSiteWeaver(out, target.internalName(), access, b.name, b.descriptor, version) {
              @Override
              protected Bracket bracketFor(
                  int opcode, String owner, String callName, String callDescriptor, boolean itf) {
                return b.bracket;
              }
            };
        mv.visitCode();
        Label start = new Label();
        mv.visitLabel(start);
        if (b.line > 0) {
          mv.visitLineNumber(b.line, start);
        }
        int slot = 0;
        for (Type t : Type.getArgumentTypes(b.descriptor)) {
          mv.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slot);
          slot += t.getSize();
        }
        Handle c = b.called;
        mv.visitMethodInsn(b.opcode, c.getOwner(), c.getName(), c.getDesc(), c.isInterface());
        mv.visitInsn(Type.getReturnType(b.descriptor).getOpcode(Opcodes.IRETURN));
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        target.changed();
      }
    };
  }

  /**
   * {@code LambdaMetafactory.metafactory}, or {@code altMetafactory} for a non-serializable one.
   */
  private static boolean isLambdaMetafactory(Handle bootstrap, Object[] arguments) {
    if (!bootstrap.getOwner().equals("java/lang/invoke/LambdaMetafactory")
        || arguments.length < 3
        || !(arguments[1] instanceof Handle)) {
      return false;
    }
    if (bootstrap.getName().equals("metafactory")) {
      return true;
    }
    return bootstrap.getName().equals("altMetafactory")
        && arguments.length > 3
        && arguments[3] instanceof Integer
        && ((Integer) arguments[3] & LAMBDA_SERIALIZABLE) == 0;
  }

  /** {@code LambdaMetafactory.FLAG_SERIALIZABLE}. */
  private static final int LAMBDA_SERIALIZABLE = 1;

  /** The invoke opcode of a method handle kind, or -1 for kinds not woven (fields, super, new). */
  private static int invokeOpcode(int tag) {
    switch (tag) {
      case Opcodes.H_INVOKEVIRTUAL:
        return Opcodes.INVOKEVIRTUAL;
      case Opcodes.H_INVOKEINTERFACE:
        return Opcodes.INVOKEINTERFACE;
      case Opcodes.H_INVOKESTATIC:
        return Opcodes.INVOKESTATIC;
      default:
        return -1;
    }
  }

  /** The descriptor of an instance method as a static one taking the receiver first. */
  private static String receiverFirst(String owner, String descriptor) {
    return "(" + Type.getObjectType(owner).getDescriptor() + descriptor.substring(1);
  }

  /**
   * The bridge's descriptor with the types of the captured values (the invokedynamic's parameters,
   * e.g. the receiver of {@code left::join}) in their places: the metafactory wants them exactly,
   * while the call accepts them as they are subtypes of what it declares.
   */
  private static String capturedTypesFirst(String indyDescriptor, String bridgeDescriptor) {
    Type[] captured = Type.getArgumentTypes(indyDescriptor);
    Type[] params = Type.getArgumentTypes(bridgeDescriptor);
    if (captured.length > params.length) {
      return bridgeDescriptor;
    }
    System.arraycopy(captured, 0, params, 0, captured.length);
    return Type.getMethodDescriptor(Type.getReturnType(bridgeDescriptor), params);
  }

  /** A bridge method to write at the end of the class. */
  private static final class ReferenceBridge {
    final String name;
    final String descriptor;
    final Handle called;
    final int opcode;
    final int line;
    final Bracket bracket;

    ReferenceBridge(
        String name, String descriptor, Handle called, int opcode, int line, Bracket bracket) {
      this.name = name;
      this.descriptor = descriptor;
      this.called = called;
      this.opcode = opcode;
      this.line = line;
      this.bracket = bracket;
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
