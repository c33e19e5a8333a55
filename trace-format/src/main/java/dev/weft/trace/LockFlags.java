package dev.weft.trace;

/** Bits of the FLAGS field of LOCK_ACQUIRED. */
public final class LockFlags {
  /** The thread already held this lock: not a contention candidate. */
  public static final int REENTRANT = 1;

  /**
   * A {@code tryLock}/{@code tryAcquire} that failed: the lock was not acquired and no RELEASED
   * follows.
   */
  public static final int FAILED = 2;

  /** A shared (read) acquisition of a read/write or stamped lock, or a semaphore permit. */
  public static final int SHARED = 4;

  /**
   * The acquisition re-takes a monitor after {@code Object.wait} (or a lock after {@code
   * Condition.await}).
   */
  public static final int AFTER_WAIT = 8;

  /** The attempt ended by interrupt or timeout; like FAILED, no RELEASED follows. */
  public static final int ABORTED = 16;

  /**
   * Since 1.2: the JVM reported that the thread had to wait because another thread held the lock
   * (its own monitor events, for frames that were running before an attach). The hold that follows
   * is not known: its LOCK_RELEASED has the acquisition's time.
   */
  public static final int CONTENDED = 32;

  private LockFlags() {}
}
