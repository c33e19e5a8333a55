package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Invoke;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.agent.weave.Bridge;
import dev.weft.trace.ConstructKind;

/**
 * {@code Thread.onSpinWait} and {@code Thread.yield} in application code, the {@code spin} family:
 * each call is bracketed by {@code spinEnter}/{@code spinExit}, and the recorder turns a run of
 * them into one spin: SPIN_ENTER at the first call, SPIN_EXIT at the end of the last one (see the
 * recorder for how runs are delimited), so the analyzer reports spin-wait time instead of work.
 * Busy loops that call neither are not recognised. Not a spin wait: a pool's worker spinning for
 * its next task before it parks (jboss-threads' {@code PoolThreadNode.park}), which is idle.
 */
public final class Spins extends ApplicationCallSites {
  // Rows of the table, made by bracket(row, call).
  private static final int SPIN = 0;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.exactly("java/lang/Thread"))
          .call(Invoke.STATIC, "onSpinWait()V", SPIN)
          .call(Invoke.STATIC, "yield()V", SPIN)
          .build();

  @Override
  public Family family() {
    return Family.SPIN;
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case SPIN:
        return spin(c);
      default:
        return null;
    }
  }

  private static Bracket spin(ApplicationCallSites.Call c) {
    if (c.target.internalName().equals(JBossThreadPools.IDLE_PARKS)) {
      // A jboss-threads worker spinning before it parks for its next task: idle, as the park is
      // (JBossThreadPools), and as a pool worker's time outside a task and a wait is.
      return null;
    }
    int region = c.region(ConstructKind.SPIN, "Thread." + c.name);
    return Brackets.pair(Bridge.SPIN_ENTER, Bridge.SPIN_EXIT, region, false);
  }
}
