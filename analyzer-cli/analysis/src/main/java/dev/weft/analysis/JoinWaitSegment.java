package dev.weft.analysis;

/**
 * One JOIN_WAIT_ENTER..EXIT of a thread, with the time it ran or helped tasks inside the join
 * already taken out of {@link #total()}.
 */
public final class JoinWaitSegment extends ThreadTime {
  long afterLastTask;
  boolean master;

  JoinWaitSegment() {}

  /**
   * The part of the wait that came after the last task of the enclosing parallel region ended (no
   * task of it left): the master waiting for the join machinery rather than for work.
   */
  public long afterLastTask() {
    return afterLastTask;
  }

  /** True when the waiting thread is the master (forking thread) of the enclosing region. */
  public boolean master() {
    return master;
  }
}
