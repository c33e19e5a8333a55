package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.List;

/**
 * {@code Condition} calls in application code, a {@code waits} family. {@code await} and its
 * variants give up the condition's lock and take it back: LOCK_RELEASED and WAIT_ENTER
 * (condition_await) before, WAIT_EXIT, LOCK_REQUEST and LOCK_ACQUIRED (AFTER_WAIT) after, also when
 * the call throws; the recorder finds the lock of a JDK lock's condition (a user's condition names
 * no lock, and only its WAIT is recorded). {@code signal} and {@code signalAll}: NOTIFY naming the
 * lock.
 */
public final class Conditions extends ApplicationCallSites {
  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(
              Owners.exactly(
                  "java/util/concurrent/locks/Condition",
                  "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject"))
          .call("await()V", Conditions::await)
          .call("awaitUninterruptibly()V", Conditions::await)
          .call("await(JLjava/util/concurrent/TimeUnit;)Z", Conditions::await)
          .call("awaitNanos(J)J", Conditions::await)
          .call("awaitUntil(Ljava/util/Date;)Z", Conditions::await)
          .call("signal()V", Conditions::signal)
          .call("signalAll()V", Conditions::signal)
          .build();

  @Override
  public Family family() {
    return Family.WAITS;
  }

  /** Every class: the shared {@link ClassScan} finds the calls, once for all families. */
  @Override
  public List<String> applicationHints() {
    return List.of("");
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
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
