package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;

/**
 * {@code Condition} calls in application code, a {@code waits} family. {@code await} and its
 * variants give up the condition's lock and take it back: LOCK_RELEASED and WAIT_ENTER
 * (condition_await) before, WAIT_EXIT, LOCK_REQUEST and LOCK_ACQUIRED (AFTER_WAIT) after, also when
 * the call throws; the recorder finds the lock of a JDK lock's condition (a user's condition names
 * no lock, and only its WAIT is recorded). {@code signal} and {@code signalAll}: NOTIFY naming the
 * lock.
 */
public final class Conditions extends ApplicationCallSites {
  // Rows of the table, made by bracket(row, call).
  private static final int AWAIT = 0;
  private static final int SIGNAL = 1;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(
              Owners.exactly(
                  "java/util/concurrent/locks/Condition",
                  "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject"))
          .call("await()V", AWAIT)
          .call("awaitUninterruptibly()V", AWAIT)
          .call("await(JLjava/util/concurrent/TimeUnit;)Z", AWAIT)
          .call("awaitNanos(J)J", AWAIT)
          .call("awaitUntil(Ljava/util/Date;)Z", AWAIT)
          .call("signal()V", SIGNAL)
          .call("signalAll()V", SIGNAL)
          .build();

  @Override
  public Family family() {
    return Family.WAITS;
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
      case SIGNAL:
        return signal(c);
      default:
        return null;
    }
  }

  private static Bracket await(ApplicationCallSites.Call c) {
    return Waits.monitorWait(
        c.region(ConstructKind.CONDITION_AWAIT, "Condition." + c.name), WaitKind.CONDITION_AWAIT);
  }

  private static Bracket signal(ApplicationCallSites.Call c) {
    return Waits.notifying(
        c.region(ConstructKind.NOTIFY, "Condition." + c.name), WaitKind.CONDITION_AWAIT, false);
  }
}
