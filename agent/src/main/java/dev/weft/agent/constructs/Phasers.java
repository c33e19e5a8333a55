package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import java.util.Set;
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
public final class Phasers extends ApplicationCallSites {
  private static final String PHASER = "java/util/concurrent/Phaser";

  // Rows of the table, made by bracket(row, call).
  private static final int ARRIVE_AND_AWAIT = 0;
  private static final int AWAIT_PHASE = 1;
  private static final int ARRIVE = 2;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(Set.of(PHASER)))
          .call("arriveAndAwaitAdvance()I", ARRIVE_AND_AWAIT)
          .call("awaitAdvance(I)I", AWAIT_PHASE)
          .call("awaitAdvanceInterruptibly(I)I", AWAIT_PHASE)
          .call("awaitAdvanceInterruptibly(IJLjava/util/concurrent/TimeUnit;)I", AWAIT_PHASE)
          .call("arrive()I", ARRIVE)
          .call("arriveAndDeregister()I", ARRIVE)
          .build();

  @Override
  public Family family() {
    return Family.BARRIERS;
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case ARRIVE_AND_AWAIT:
        return arriveAndAwait(region(c));
      case AWAIT_PHASE:
        return awaitPhase(region(c));
      case ARRIVE:
        return arrive(region(c));
      default:
        return null;
    }
  }

  private static int region(ApplicationCallSites.Call c) {
    return c.region(ConstructKind.PHASER, "Phaser." + c.name);
  }

  /** Arrives and waits for the others: the phase is read before arriving. */
  private static Bracket arriveAndAwait(int region) {
    return new BarrierCalls.Await(region) {
      private int phase;

      @Override
      BarrierCalls.Generation generation() {
        return BarrierCalls.local(phase);
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        phase = site.newLocal(Type.LONG_TYPE);
        site.loadReceiver(mv);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, PHASER, "getPhase", "()I", false);
        mv.visitInsn(Opcodes.I2L);
        mv.visitVarInsn(Opcodes.LSTORE, phase);
        super.before(mv, site);
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        // [arrival phase] -> outcome BROKEN when negative (the phaser was terminated)
        int outcome = site.newLocal(Type.INT_TYPE);
        mv.visitInsn(Opcodes.DUP);
        BridgeCalls.push(mv, 31);
        mv.visitInsn(Opcodes.IUSHR);
        BridgeCalls.push(mv, BarrierOutcome.BROKEN);
        mv.visitInsn(Opcodes.IMUL);
        mv.visitVarInsn(Opcodes.ISTORE, outcome);
        BarrierCalls.exit(mv, site, region, generation(), outcome);
      }
    };
  }

  /** Waits for the phase given as the first argument to end. */
  private static Bracket awaitPhase(int region) {
    BarrierCalls.Generation awaited =
        (mv, site) -> {
          site.loadArgument(mv, 0);
          mv.visitInsn(Opcodes.I2L);
        };
    return new BarrierCalls.Await(region) {
      @Override
      BarrierCalls.Generation generation() {
        return awaited;
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        BarrierCalls.exitWith(mv, site, region, awaited, 0);
      }
    };
  }

  /** Arrives without waiting: an arrival and departure at once, in the phase returned. */
  private static Bracket arrive(int region) {
    return new Bracket() {
      @Override
      protected boolean keepsOperands() {
        return true;
      }

      @Override
      protected boolean hasThrown() {
        return false;
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        int phase = site.newLocal(Type.LONG_TYPE);
        mv.visitInsn(Opcodes.DUP);
        mv.visitInsn(Opcodes.I2L);
        mv.visitVarInsn(Opcodes.LSTORE, phase);
        BarrierCalls.enter(mv, site, region, BarrierCalls.local(phase));
        BarrierCalls.exitWith(mv, site, region, BarrierCalls.local(phase), 0);
      }
    };
  }
}
