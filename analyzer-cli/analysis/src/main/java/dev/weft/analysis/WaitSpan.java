package dev.weft.analysis;

/** A WAIT_ENTER..EXIT or SPIN_ENTER..EXIT of one thread. */
public final class WaitSpan extends ThreadTime {
  int waitKind;
  int notifier = -1;
  int notifierNode;
  long notifyTime;

  WaitSpan() {}

  /**
   * The thread whose notification (NOTIFY of the monitor or lock this wait gave up, during the
   * wait) ended this wait, or -1 when none is recorded.
   */
  public int notifier() {
    return notifier;
  }

  /** The call path of {@link #notifier()}'s notify. */
  public int notifierNode() {
    return notifierNode;
  }

  /** When {@link #notifier()} notified. */
  public long notifyTime() {
    return notifyTime;
  }

  /** The {@link dev.weft.trace.WaitKind} code; 0 for a spin. */
  public int waitKind() {
    return waitKind;
  }
}
