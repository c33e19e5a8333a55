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
 * {@code Phaser} calls in application code, a {@code barriers} family; the generation is the phase:
 *
 * <ul>
 *   <li>{@code arriveAndAwaitAdvance}: BARRIER_ENTER with the phase the phaser is in before the
 *       call, BARRIER_EXIT with the same phase after it (outcome BROKEN if the phaser was
 *       terminated).
 *   <li>{@code awaitAdvance} and {@code awaitAdvanceInterruptibly}: BARRIER_ENTER and EXIT with the
 *       awaited phase (INTERRUPTED, TIMEOUT on exceptions).
 *   <li>{@code arrive} and {@code arriveAndDeregister}: an arrival that does not wait,
 *       BARRIER_ENTER and EXIT together after the call, with the phase it returned.
 * </ul>
 *
 * Which arrival was last is not recorded (the phaser does not say); the latest BARRIER_ENTER of a
 * phase is the last arrival.
 */
public final class Phasers implements ConstructInstrumentation {
  private static final String PHASER = "java/util/concurrent/Phaser";

  private static final ClassScan.Calls CALLS = (owner, name, descriptor) -> owner.equals(PHASER);

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
    return CallSites.visitor(next, target, CALLS, PhaserMethod::new);
  }

  private static final class PhaserMethod extends CallSites.Method {
    PhaserMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (!owner.equals(PHASER)) {
        return false;
      }
      CallSites.Hooks hooks;
      switch (name + descriptor) {
        case "arriveAndAwaitAdvance()I":
          hooks = new ArriveAndAwait();
          break;
        case "awaitAdvance(I)I":
        case "awaitAdvanceInterruptibly(I)I":
        case "awaitAdvanceInterruptibly(IJLjava/util/concurrent/TimeUnit;)I":
          hooks = new AwaitPhase();
          break;
        case "arrive()I":
        case "arriveAndDeregister()I":
          hooks = new Arrive();
          break;
        default:
          return false;
      }
      int region = region(ConstructKind.PHASER, "Phaser." + name);
      around(opcode, owner, name, descriptor, isInterface, region, true, hooks);
      return true;
    }
  }

  /** Arrives and waits for the others: the phase is read before arriving. */
  private static final class ArriveAndAwait implements CallSites.Hooks {
    private int phase;

    @Override
    public void before(CallSites.Call c) {
      phase = c.newLocal(Type.LONG_TYPE);
      c.loadReceiver();
      c.mv().visitMethodInsn(Opcodes.INVOKEVIRTUAL, PHASER, "getPhase", "()I", false);
      c.mv().visitInsn(Opcodes.I2L);
      c.mv().visitVarInsn(Opcodes.LSTORE, phase);
      BarrierCalls.enter(c, BarrierCalls.local(phase));
    }

    @Override
    public void after(CallSites.Call c) {
      // [arrival phase] -> outcome BROKEN when negative (the phaser was terminated)
      int outcome = c.newLocal(Type.INT_TYPE);
      c.mv().visitInsn(Opcodes.DUP);
      c.push(31);
      c.mv().visitInsn(Opcodes.IUSHR);
      c.push(BarrierOutcome.BROKEN);
      c.mv().visitInsn(Opcodes.IMUL);
      c.mv().visitVarInsn(Opcodes.ISTORE, outcome);
      BarrierCalls.exit(c, BarrierCalls.local(phase), outcome);
    }

    @Override
    public void thrown(CallSites.Call c) {
      BarrierCalls.exitByException(c, BarrierCalls.local(phase));
    }
  }

  /** Waits for the phase given as the first argument to end. */
  private static final class AwaitPhase implements CallSites.Hooks {
    private final BarrierCalls.Generation awaited =
        c -> {
          c.loadArg(0);
          c.mv().visitInsn(Opcodes.I2L);
        };

    @Override
    public void before(CallSites.Call c) {
      BarrierCalls.enter(c, awaited);
    }

    @Override
    public void after(CallSites.Call c) {
      BarrierCalls.exitWith(c, awaited, 0);
    }

    @Override
    public void thrown(CallSites.Call c) {
      BarrierCalls.exitByException(c, awaited);
    }
  }

  /** Arrives without waiting: an arrival and departure at once, in the phase returned. */
  private static final class Arrive implements CallSites.Hooks {
    @Override
    public void after(CallSites.Call c) {
      int phase = c.newLocal(Type.LONG_TYPE);
      c.mv().visitInsn(Opcodes.DUP);
      c.mv().visitInsn(Opcodes.I2L);
      c.mv().visitVarInsn(Opcodes.LSTORE, phase);
      BarrierCalls.enter(c, BarrierCalls.local(phase));
      BarrierCalls.exitWith(c, BarrierCalls.local(phase), 0);
    }
  }
}
