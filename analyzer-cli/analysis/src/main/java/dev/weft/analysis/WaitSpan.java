package dev.weft.analysis;

/** A WAIT_ENTER..EXIT or SPIN_ENTER..EXIT of one thread. */
public final class WaitSpan extends ThreadTime {
  int waitKind;

  WaitSpan() {}

  /** The {@link dev.weft.trace.WaitKind} code; 0 for a spin. */
  public int waitKind() {
    return waitKind;
  }
}
