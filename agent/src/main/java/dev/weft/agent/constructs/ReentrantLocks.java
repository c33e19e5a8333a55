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
 * program's own, which is then a lock of its own. Calls through the static type of a subclass of
 * {@code ReentrantLock} ({@code MyLock.lock()}) are its calls too, and so are those through the
 * type of a class outside the JDK that implements {@code Lock}: a lock taken through its class and
 * given back through the interface (Lucene's {@code DocumentsWriterPerThread}) is recorded both
 * ways. Such a {@code Lock} built on another lock, or on a synchronizer, shows that one's events
 * inside its own ({@link Synchronizers}).
 */
public final class ReentrantLocks extends ApplicationCallSites {
  private static final CallTargets TARGETS = table();

  private static CallTargets table() {
    CallTargets.Builder b = CallTargets.builder();
    LockCalls.lockApi(
        b,
        Owners.exactly("java/util/concurrent/locks/Lock"),
        ConstructKind.REENTRANT_LOCK,
        "Lock",
        0);
    LockCalls.lockApi(
        b,
        Owners.orSubtypes(Set.of("java/util/concurrent/locks/ReentrantLock")),
        ConstructKind.REENTRANT_LOCK,
        "ReentrantLock",
        0);
    // Last: a subclass of ReentrantLock outside the JDK is the row above's.
    LockCalls.lockApi(
        b,
        Owners.applicationSubtypes(Set.of("java/util/concurrent/locks/Lock")),
        ConstructKind.REENTRANT_LOCK,
        "Lock",
        0);
    return b.build();
  }

  @Override
  public Family family() {
    return Family.LOCKS;
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }
}
