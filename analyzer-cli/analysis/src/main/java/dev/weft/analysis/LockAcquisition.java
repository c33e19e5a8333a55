package dev.weft.analysis;

import dev.weft.trace.ConstructKind;

/**
 * A lock request and what became of it (LOCK_REQUEST to LOCK_ACQUIRED), with the lock's state as
 * the engine saw it: who held it at the request, and its last releases.
 */
public final class LockAcquisition extends ThreadTime {
  long object;
  int flags;
  boolean acquired;
  boolean heldExclusivelyByOther;
  boolean heldByOther;

  boolean signalled;
  long lastRelease;
  int lastReleaser;
  int releaserNode;
  long lastExclusiveRelease;
  int lastExclusiveReleaser;
  boolean monitor;
  ConstructKind kind;
  long waitingForHolder;
  long handoff;
  int releases;
  long[] releaseTimes;
  int[] releaseThreads;
  int[] releaseNodes;

  LockAcquisition() {}

  public long object() {
    return object;
  }

  /** LOCK_ACQUIRED flags ({@link dev.weft.trace.LockFlags}); 0 when never acquired. */
  public int flags() {
    return flags;
  }

  /** False when the thread was still waiting when its stream or the window ended. */
  public boolean acquired() {
    return acquired;
  }

  /** At the request, another thread held the lock exclusively. */
  public boolean heldExclusivelyByOther() {
    return heldExclusivelyByOther;
  }

  /** At the request, another thread held the lock in any mode (exclusive or shared). */
  /**
   * Whether this is a semaphore's acquisition that waited for a signal: the permit it got was
   * released after its request by a thread that held none (a semaphore used to wake a thread up, as
   * Jetty's reserved threads wait for a job). Nobody held what it waited for: a condition wait, not
   * lock contention.
   */
  public boolean signalled() {
    return signalled;
  }

  public boolean heldByOther() {
    return heldByOther;
  }

  /** Time of the lock's latest release (any mode) before the acquisition, or Long.MIN_VALUE. */
  public long lastRelease() {
    return lastRelease;
  }

  /** Thread of {@link #lastRelease()}, or -1. */
  /** The call path the last releaser was in when it released (inside its critical section). */
  public int releaserNode() {
    return releaserNode;
  }

  public int lastReleaser() {
    return lastReleaser;
  }

  /** Time of the latest release of an exclusive hold, or Long.MIN_VALUE. */
  public long lastExclusiveRelease() {
    return lastExclusiveRelease;
  }

  public int lastExclusiveReleaser() {
    return lastExclusiveReleaser;
  }

  /**
   * How many releases of the lock are known from before this acquisition, oldest first: those made
   * while any thread waited for it (at least every release since this request).
   */
  public int releases() {
    return releases;
  }

  /** Time of known release {@code k} (0 ≤ k &lt; {@link #releases()}). */
  public long releaseTime(int k) {
    return releaseTimes[k];
  }

  /** Thread of known release {@code k}. */
  public int releaseThread(int k) {
    return releaseThreads[k];
  }

  /** Call path the releasing thread was in at known release {@code k}. */
  public int releaseNode(int k) {
    return releaseNodes[k];
  }

  /** A {@code synchronized} block or method (a JVM monitor) rather than a j.u.c. lock. */
  public boolean monitor() {
    return monitor;
  }

  /** What the lock object is (from its definition, else from the request's call site). */
  public ConstructKind kind() {
    return kind;
  }

  /** Set by the lock contention property: the part spent waiting for the holder to release. */
  public long waitingForHolder() {
    return waitingForHolder;
  }

  /** Set by the lock contention property: release of the previous holder to own acquisition. */
  public long handoff() {
    return handoff;
  }

  /** Records the split of a contended acquisition, for the children of lock contention. */
  public void split(long waitingForHolder, long handoff) {
    this.waitingForHolder = waitingForHolder;
    this.handoff = handoff;
  }
}
