package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.trace.ConstructKind;
import java.util.Set;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * {@code CyclicBarrier.await} in application code, a {@code barriers} family: BARRIER_ENTER before
 * the call, BARRIER_EXIT after it. The arrival index the call returns says who arrived last (index
 * 0: outcome LAST); an exception gives INTERRUPTED, TIMEOUT or BROKEN. The generation is numbered
 * by the recorder from the barrier's own generation object (0 for the first generation it sees).
 */
public final class CyclicBarriers extends ApplicationCallSites {
  // Rows of the table, made by bracket(row, call).
  private static final int AWAIT = 0;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(Set.of("java/util/concurrent/CyclicBarrier")))
          .call("await()I", AWAIT)
          .call("await(JLjava/util/concurrent/TimeUnit;)I", AWAIT)
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
        return await(c);
      default:
        return null;
    }
  }

  private static Bracket await(ApplicationCallSites.Call c) {
    return new BarrierCalls.Await(c.region(ConstructKind.CYCLIC_BARRIER, "CyclicBarrier.await")) {
      @Override
      BarrierCalls.Generation generation() {
        return BarrierCalls.ZERO;
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        // [index] -> outcome = (index - 1) >>> 31, i.e. LAST (1) when index == 0
        int outcome = site.newLocal(Type.INT_TYPE);
        mv.visitInsn(Opcodes.DUP);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.ISUB);
        BridgeCalls.push(mv, 31);
        mv.visitInsn(Opcodes.IUSHR);
        mv.visitVarInsn(Opcodes.ISTORE, outcome);
        BarrierCalls.exit(mv, site, region, BarrierCalls.ZERO, outcome);
      }
    };
  }
}
