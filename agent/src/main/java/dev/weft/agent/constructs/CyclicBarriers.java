package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * {@code CyclicBarrier.await} in application code, a {@code barriers} family: BARRIER_ENTER before
 * the call, BARRIER_EXIT after it. The arrival index the call returns says who arrived last (index
 * 0: outcome LAST); an exception gives INTERRUPTED, TIMEOUT or BROKEN. The generation is numbered
 * by the recorder from the barrier's own generation object (0 for the first generation it sees).
 */
public final class CyclicBarriers implements ConstructInstrumentation {
  private static final String CYCLIC_BARRIER = "java/util/concurrent/CyclicBarrier";

  private static final ClassScan.Calls CALLS =
      (owner, name, descriptor) -> owner.equals(CYCLIC_BARRIER) && name.equals("await");

  @Override
  public Family family() {
    return Family.BARRIERS;
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
    return CallSites.visitor(next, target, CALLS, BarrierMethod::new);
  }

  private static final class BarrierMethod extends CallSites.Method {
    BarrierMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (!owner.equals(CYCLIC_BARRIER)
          || !name.equals("await")
          || !(descriptor.equals("()I")
              || descriptor.equals("(JLjava/util/concurrent/TimeUnit;)I"))) {
        return false;
      }
      int region = region(ConstructKind.CYCLIC_BARRIER, "CyclicBarrier.await");
      around(opcode, owner, name, descriptor, isInterface, region, true, new AwaitHooks());
      return true;
    }
  }

  private static final class AwaitHooks implements CallSites.Hooks {
    @Override
    public void before(CallSites.Call c) {
      BarrierCalls.enter(c, BarrierCalls.ZERO);
    }

    @Override
    public void after(CallSites.Call c) {
      // [index] -> outcome = (index - 1) >>> 31, i.e. LAST (1) when index == 0
      int outcome = c.newLocal(Type.INT_TYPE);
      c.mv().visitInsn(Opcodes.DUP);
      c.mv().visitInsn(Opcodes.ICONST_1);
      c.mv().visitInsn(Opcodes.ISUB);
      c.push(31);
      c.mv().visitInsn(Opcodes.IUSHR);
      c.mv().visitVarInsn(Opcodes.ISTORE, outcome);
      BarrierCalls.exit(c, BarrierCalls.ZERO, outcome);
    }

    @Override
    public void thrown(CallSites.Call c) {
      BarrierCalls.exitByException(c, BarrierCalls.ZERO);
    }
  }
}
