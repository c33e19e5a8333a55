package dev.weft.trace;

/** Bits of the OUTCOME field of BARRIER_EXIT. */
public final class BarrierOutcome {
  /**
   * This thread's arrival completed the generation (the last arrival; a latch's releasing
   * count-down).
   */
  public static final int LAST = 1;

  public static final int TIMEOUT = 2;
  public static final int BROKEN = 4;
  public static final int INTERRUPTED = 8;

  private BarrierOutcome() {}
}
