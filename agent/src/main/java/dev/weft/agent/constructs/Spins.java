package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@code Thread.onSpinWait} and {@code Thread.yield} in application code, the {@code spin} family:
 * each call is bracketed by {@code spinEnter}/{@code spinExit}, and the recorder turns a run of
 * them into one spin: SPIN_ENTER at the first call, SPIN_EXIT at the end of the last one (see the
 * recorder for how runs are delimited), so the analyzer reports spin-wait time instead of work.
 * Busy loops that call neither are not recognised.
 */
public final class Spins implements ConstructInstrumentation {
  private static final String THREAD = "java/lang/Thread";

  private static final ClassScan.Calls CALLS =
      (owner, name, descriptor) ->
          owner.equals(THREAD) && (name.equals("onSpinWait") || name.equals("yield"));

  @Override
  public Family family() {
    return Family.SPIN;
  }

  /** Every class: the shared {@link ClassScan} finds the calls, once for all families. */
  @Override
  public List<String> applicationHints() {
    return List.of("");
  }

  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return CallSites.wants(target, CALLS);
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    return CallSites.visitor(next, target, CALLS, SpinMethod::new);
  }

  private static final class SpinMethod extends CallSites.Method {
    SpinMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (opcode != Opcodes.INVOKESTATIC
          || !owner.equals(THREAD)
          || !descriptor.equals("()V")
          || !(name.equals("onSpinWait") || name.equals("yield"))) {
        return false;
      }
      around(
          opcode,
          owner,
          name,
          descriptor,
          isInterface,
          region(ConstructKind.SPIN, "Thread." + name),
          false,
          new CallSites.Hooks() {
            @Override
            public void before(CallSites.Call c) {
              c.push(c.region);
              c.bridge("spinEnter", "(I)V");
            }

            @Override
            public void after(CallSites.Call c) {
              c.push(c.region);
              c.bridge("spinExit", "(I)V");
            }
          });
      return true;
    }
  }
}
