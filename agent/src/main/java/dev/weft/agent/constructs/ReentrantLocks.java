package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import java.util.List;

/**
 * Calls of {@code Lock} and {@code ReentrantLock} in application code, a {@code locks} family:
 * {@code lock}, {@code lockInterruptibly}, {@code tryLock} (a failure is FAILED; a timed one that
 * times out or any interrupted attempt is ABORTED) and {@code unlock}, called directly or through a
 * method reference ({@code lock::lock}). A {@code Lock} may be any implementation: the JDK's (a
 * read/write lock's views, a stamped lock's views, which the recorder maps to their lock) or the
 * user's own, which is then a lock of its own. Calls through a user subclass's static type ({@code
 * MyLock.lock()}) are not recognised.
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
              Owners.exactly("java/util/concurrent/locks/ReentrantLock"),
              ConstructKind.REENTRANT_LOCK,
              "ReentrantLock",
              0)
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
}
