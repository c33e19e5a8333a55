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
public final class CountDownLatches extends ApplicationCallSites {
  private static final String LATCH = "java/util/concurrent/CountDownLatch";

  // Rows of the table, made by bracket(row, call).
  private static final int AWAIT = 0;
  private static final int AWAIT_TIMED = 1;
  private static final int COUNT_DOWN = 2;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(Set.of(LATCH)))
          .call("await()V", AWAIT)
          .call("await(JLjava/util/concurrent/TimeUnit;)Z", AWAIT_TIMED)
          .call("countDown()V", COUNT_DOWN)
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
      case AWAIT:
        return await(region(c), false);
      case AWAIT_TIMED:
        return await(region(c), true);
      case COUNT_DOWN:
        return countDown(region(c));
      default:
        return null;
    }
  }

  private static int region(ApplicationCallSites.Call c) {
    return c.region(ConstructKind.COUNT_DOWN_LATCH, "CountDownLatch." + c.name);
  }

  private static Bracket await(int region, boolean timed) {
    return new BarrierCalls.Await(region) {
      @Override
      BarrierCalls.Generation generation() {
        return BarrierCalls.ZERO;
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        if (!timed) {
          BarrierCalls.exitWith(mv, site, region, BarrierCalls.ZERO, 0);
          return;
        }
        // [opened] -> outcome (opened ^ 1) * TIMEOUT
        int outcome = site.newLocal(Type.INT_TYPE);
        mv.visitInsn(Opcodes.DUP);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IXOR);
        BridgeCalls.push(mv, BarrierOutcome.TIMEOUT);
        mv.visitInsn(Opcodes.IMUL);
        mv.visitVarInsn(Opcodes.ISTORE, outcome);
        BarrierCalls.exit(mv, site, region, BarrierCalls.ZERO, outcome);
      }
    };
  }

  private static Bracket countDown(int region) {
    return new BarrierCalls.Await(region) {
      private int last;

      @Override
      BarrierCalls.Generation generation() {
        return BarrierCalls.ZERO;
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        // last = getCount() == 1 ? LAST : 0, from the sign of the comparison without branching
        last = site.newLocal(Type.INT_TYPE);
        site.loadReceiver(mv);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, LATCH, "getCount", "()J", false);
        mv.visitInsn(Opcodes.LCONST_1);
        mv.visitInsn(Opcodes.LCMP);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IAND);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IXOR);
        BridgeCalls.push(mv, BarrierOutcome.LAST);
        mv.visitInsn(Opcodes.IMUL);
        mv.visitVarInsn(Opcodes.ISTORE, last);
        super.before(mv, site);
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        BarrierCalls.exit(mv, site, region, BarrierCalls.ZERO, last);
      }
    };
  }
}
