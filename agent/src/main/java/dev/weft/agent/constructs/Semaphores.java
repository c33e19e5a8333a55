package dev.weft.agent.constructs;

import static dev.weft.agent.constructs.LockCalls.Result.ACQUIRES;
import static dev.weft.agent.constructs.LockCalls.Result.TRUE_IF_ACQUIRED;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import java.util.Set;

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

  // Rows of the table, made by bracket(row, call).
  private static final int ACQUIRE = 0;
  private static final int ACQUIRE_UNINTERRUPTIBLY = 1;
  private static final int TRY_ACQUIRE = 2;
  private static final int TRY_ACQUIRE_TIMED = 3;
  private static final int RELEASE = 4;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(Set.of("java/util/concurrent/Semaphore")))
          .call("acquire()V", ACQUIRE)
          .call("acquire(I)V", ACQUIRE)
          .call("acquireUninterruptibly()V", ACQUIRE_UNINTERRUPTIBLY)
          .call("acquireUninterruptibly(I)V", ACQUIRE_UNINTERRUPTIBLY)
          .call("tryAcquire()Z", TRY_ACQUIRE)
          .call("tryAcquire(I)Z", TRY_ACQUIRE)
          .call("tryAcquire(" + TIMED, TRY_ACQUIRE_TIMED)
          .call("tryAcquire(I" + TIMED, TRY_ACQUIRE_TIMED)
          .call("release()V", RELEASE)
          .call("release(I)V", RELEASE)
          .build();

  @Override
  public Family family() {
    return Family.LOCKS;
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case ACQUIRE:
        return acquire(c, ACQUIRES, 0, true);
      case ACQUIRE_UNINTERRUPTIBLY:
        return acquire(c, ACQUIRES, 0, false);
      case TRY_ACQUIRE:
        return acquire(c, TRUE_IF_ACQUIRED, LockFlags.FAILED, false);
      case TRY_ACQUIRE_TIMED:
        return acquire(c, TRUE_IF_ACQUIRED, LockFlags.ABORTED, true);
      case RELEASE:
        return LockCalls.release(c, ConstructKind.SEMAPHORE, "Semaphore.release");
      default:
        return null;
    }
  }

  private static Bracket acquire(
      ApplicationCallSites.Call c, LockCalls.Result result, int failFlag, boolean interruptible) {
    int region = c.region(ConstructKind.SEMAPHORE, "Semaphore." + c.name);
    return LockCalls.acquire(region, SHARED, result, failFlag, interruptible);
  }
}
