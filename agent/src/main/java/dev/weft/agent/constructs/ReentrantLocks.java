package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import java.util.Set;

/**
 * Calls of {@code Lock} and {@code ReentrantLock} in application code, a {@code locks} family:
 * {@code lock}, {@code lockInterruptibly}, {@code tryLock} (a failure is FAILED; a timed one that
 * times out or any interrupted attempt is ABORTED) and {@code unlock}, called directly or through a
 * method reference ({@code lock::lock}). A {@code Lock} may be any implementation: the JDK's (a
 * read/write lock's views, a stamped lock's views, which the recorder maps to their lock) or the
 * user's own, which is then a lock of its own. Calls through the static type of a subclass of
 * {@code ReentrantLock} ({@code MyLock.lock()}) are its calls too; those of a class of the user's
 * own that only implements {@code Lock} are not (a {@code Lock} built on a synchronizer is seen
 * through its synchronizer, {@link Synchronizers}).
 */
public final class ReentrantLocks extends ApplicationCallSites {
  private static final CallTargets TARGETS =
      LockCalls.lockApi(
              LockCalls.lockApi(
                  CallTargets.builder(),
                  Owners.exactly("java/util/concurrent/locks/Lock"),
                  ConstructKind.REENTRANT_LOCK,
                  "Lock",
                  0),
              Owners.orSubtypes(Set.of("java/util/concurrent/locks/ReentrantLock")),
              ConstructKind.REENTRANT_LOCK,
              "ReentrantLock",
              0)
          .build();

  @Override
  public Family family() {
    return Family.LOCKS;
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }
}
