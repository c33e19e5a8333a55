package dev.weft.agent.constructs;

import static dev.weft.agent.constructs.LockCalls.Result.ACQUIRES;
import static dev.weft.agent.constructs.LockCalls.Result.TRUE_IF_ACQUIRED;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import java.util.List;

/**
 * Calls of {@code Semaphore} in application code, a {@code locks} family: every {@code acquire},
 * {@code acquireUninterruptibly} and {@code tryAcquire} is a SHARED acquisition (a failed try is
 * FAILED, a timed one that times out or an interrupted acquire is ABORTED), every {@code release} a
 * release, whatever the number of permits. Permits have no owner: never re-entrant, released by
 * anyone.
 */
public final class Semaphores extends ApplicationCallSites {
  private static final int SHARED = LockFlags.SHARED;
  private static final String TIMED = "JLjava/util/concurrent/TimeUnit;)Z";

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.exactly("java/util/concurrent/Semaphore"))
          .call("acquire()V", c -> acquire(c, ACQUIRES, 0, true))
          .call("acquire(I)V", c -> acquire(c, ACQUIRES, 0, true))
          .call("acquireUninterruptibly()V", c -> acquire(c, ACQUIRES, 0, false))
          .call("acquireUninterruptibly(I)V", c -> acquire(c, ACQUIRES, 0, false))
          .call("tryAcquire()Z", c -> acquire(c, TRUE_IF_ACQUIRED, LockFlags.FAILED, false))
          .call("tryAcquire(I)Z", c -> acquire(c, TRUE_IF_ACQUIRED, LockFlags.FAILED, false))
          .call("tryAcquire(" + TIMED, c -> acquire(c, TRUE_IF_ACQUIRED, LockFlags.ABORTED, true))
          .call("tryAcquire(I" + TIMED, c -> acquire(c, TRUE_IF_ACQUIRED, LockFlags.ABORTED, true))
          .call(
              "release()V", c -> LockCalls.release(c, ConstructKind.SEMAPHORE, "Semaphore.release"))
          .call(
              "release(I)V",
              c -> LockCalls.release(c, ConstructKind.SEMAPHORE, "Semaphore.release"))
          .build();

  @Override
  public Family family() {
    return Family.LOCKS;
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

  private static Bracket acquire(
      ApplicationCallSites.Call c, LockCalls.Result result, int failFlag, boolean interruptible) {
    int region = c.region(ConstructKind.SEMAPHORE, "Semaphore." + c.name);
    return LockCalls.acquire(region, SHARED, result, failFlag, interruptible);
  }
}
