package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import java.util.Set;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Reflection keeps seeing {@code synchronized} on the methods {@link Monitors} rewrote (family
 * {@code monitors}): a hook at the return of {@code jdk.internal.reflect.Reflection.filterMethods},
 * which every class's declared methods pass through once before the class caches them, hands the
 * array to {@code WeftReflection.reflectedMethods}, which sets the flag again on the rewritten
 * ones. Woven at start and at attach (classes loaded after an attach are rewritten too).
 */
public final class SynchronizedFlags implements ConstructInstrumentation {
  private static final String REFLECTION = "jdk/internal/reflect/Reflection";
  private static final String FILTER_METHODS =
      "filterMethods(Ljava/lang/Class;[Ljava/lang/reflect/Method;)[Ljava/lang/reflect/Method;";

  /** Relocated with the class to {@code java/lang/WeftReflection} in the shaded jar. */
  static final String OWNER = "dev/weft/agent/bridge/WeftReflection";

  private static final String REFLECTED_METHODS =
      "([Ljava/lang/reflect/Method;Ljava/lang/Class;)[Ljava/lang/reflect/Method;";

  @Override
  public Family family() {
    return Family.MONITORS;
  }

  @Override
  public Set<String> jdkClasses() {
    return Set.of(REFLECTION);
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if (!(name + descriptor).equals(FILTER_METHODS) || (access & Opcodes.ACC_STATIC) == 0) {
            return mv;
          }
          target.changed();
          return new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitInsn(int opcode) {
              if (opcode == Opcodes.ARETURN) {
                // The filtered array is on the stack; the declaring class is parameter 0.
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(
                    Opcodes.INVOKESTATIC, OWNER, "reflectedMethods", REFLECTED_METHODS, false);
              }
              super.visitInsn(opcode);
            }
          };
        });
  }
}
