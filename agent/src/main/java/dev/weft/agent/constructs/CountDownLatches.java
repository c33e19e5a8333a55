package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * {@code CountDownLatch} calls in application code, a {@code barriers} family, read as a barrier
 * with one generation (0) whose arrivals are the count-downs and whose waiters are the awaiting
 * threads:
 *
 * <ul>
 *   <li>{@code await}: BARRIER_ENTER before, BARRIER_EXIT after (TIMEOUT when a timed await returns
 *       false, INTERRUPTED when interrupted).
 *   <li>{@code countDown}: BARRIER_ENTER and EXIT around the call, outcome LAST for the count-down
 *       that opened the latch (the count was 1 just before it).
 * </ul>
 */
public final class CountDownLatches implements ConstructInstrumentation {
  private static final String LATCH = "java/util/concurrent/CountDownLatch";

  private static final ClassScan.Calls CALLS = (owner, name, descriptor) -> owner.equals(LATCH);

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
    return CallSites.visitor(next, target, CALLS, LatchMethod::new);
  }

  private static final class LatchMethod extends CallSites.Method {
    LatchMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (!owner.equals(LATCH)) {
        return false;
      }
      CallSites.Hooks hooks;
      switch (name + descriptor) {
        case "await()V":
          hooks = new Await(false);
          break;
        case "await(JLjava/util/concurrent/TimeUnit;)Z":
          hooks = new Await(true);
          break;
        case "countDown()V":
          hooks = new CountDown();
          break;
        default:
          return false;
      }
      int region = region(ConstructKind.COUNT_DOWN_LATCH, "CountDownLatch." + name);
      around(opcode, owner, name, descriptor, isInterface, region, true, hooks);
      return true;
    }
  }

  private static final class Await implements CallSites.Hooks {
    private final boolean timed;

    Await(boolean timed) {
      this.timed = timed;
    }

    @Override
    public void before(CallSites.Call c) {
      BarrierCalls.enter(c, BarrierCalls.ZERO);
    }

    @Override
    public void after(CallSites.Call c) {
      if (!timed) {
        BarrierCalls.exitWith(c, BarrierCalls.ZERO, 0);
        return;
      }
      // [opened] -> outcome (opened ^ 1) * TIMEOUT
      int outcome = c.newLocal(Type.INT_TYPE);
      c.mv().visitInsn(Opcodes.DUP);
      c.mv().visitInsn(Opcodes.ICONST_1);
      c.mv().visitInsn(Opcodes.IXOR);
      c.push(BarrierOutcome.TIMEOUT);
      c.mv().visitInsn(Opcodes.IMUL);
      c.mv().visitVarInsn(Opcodes.ISTORE, outcome);
      BarrierCalls.exit(c, BarrierCalls.ZERO, outcome);
    }

    @Override
    public void thrown(CallSites.Call c) {
      BarrierCalls.exitByException(c, BarrierCalls.ZERO);
    }
  }

  private static final class CountDown implements CallSites.Hooks {
    private int last;

    @Override
    public void before(CallSites.Call c) {
      // last = getCount() == 1 ? LAST : 0, from the sign of the comparison without branching
      last = c.newLocal(Type.INT_TYPE);
      c.loadReceiver();
      c.mv().visitMethodInsn(Opcodes.INVOKEVIRTUAL, LATCH, "getCount", "()J", false);
      c.mv().visitInsn(Opcodes.LCONST_1);
      c.mv().visitInsn(Opcodes.LCMP);
      c.mv().visitInsn(Opcodes.ICONST_1);
      c.mv().visitInsn(Opcodes.IAND);
      c.mv().visitInsn(Opcodes.ICONST_1);
      c.mv().visitInsn(Opcodes.IXOR);
      c.push(BarrierOutcome.LAST);
      c.mv().visitInsn(Opcodes.IMUL);
      c.mv().visitVarInsn(Opcodes.ISTORE, last);
      BarrierCalls.enter(c, BarrierCalls.ZERO);
    }

    @Override
    public void after(CallSites.Call c) {
      BarrierCalls.exit(c, BarrierCalls.ZERO, last);
    }

    @Override
    public void thrown(CallSites.Call c) {
      BarrierCalls.exitByException(c, BarrierCalls.ZERO);
    }
  }
}
