package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;

/**
 * Calls of a {@code ReentrantReadWriteLock}'s read and write locks through their own types, a
 * {@code locks} family: the {@code Lock} methods as in {@link ReentrantLocks}, read acquisitions
 * marked SHARED. Both locks of one read/write lock get one id (the recorder's), so readers and
 * writers contend on it. Calls through the {@code Lock} interface are {@link ReentrantLocks}' and
 * are marked SHARED by the recorder when the object is a read lock.
 */
public final class ReadWriteLocks extends ApplicationCallSites {
  private static final CallTargets TARGETS =
      LockCalls.lockApi(
              LockCalls.lockApi(
                  CallTargets.builder(),
                  Owners.exactly("java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock"),
                  ConstructKind.READ_WRITE_LOCK,
                  "ReadLock",
                  LockFlags.SHARED),
              Owners.exactly("java/util/concurrent/locks/ReentrantReadWriteLock$WriteLock"),
              ConstructKind.READ_WRITE_LOCK,
              "WriteLock",
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
