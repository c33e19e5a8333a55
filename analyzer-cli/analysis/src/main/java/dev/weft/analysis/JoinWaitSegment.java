package dev.weft.analysis;

/**
 * One JOIN_WAIT_ENTER..EXIT of a thread, with the time it ran or helped tasks inside the join
 * already taken out of {@link #total()}.
 */
public final class JoinWaitSegment extends ThreadTime {
  long afterLastTask;
  boolean master;
  long causeTime;
  int causer;
  int causerNode;

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

  /**
   * The thread that ended the task or thread the join waited for (during the wait, another thread),
   * or -1 when unknown.
   */
  public int causer() {
    return causer;
  }

  /** The call path of the ended task (the root for a joined thread). */
  public int causerNode() {
    return causerNode;
  }

  /** When the awaited task or thread ended. */
  public long causeTime() {
    return causeTime;
  }
}
