package dev.weft.analysis;

/** One thread's stay at a barrier generation (or latch, or phaser phase): arrival to departure. */
public final class BarrierArrival extends ThreadTime {
  long object;
  long generation;
  long latestArrival;
  int outcome;
  boolean departed;
  int lastArriver = -1;
  int lastArriverNode;

  BarrierArrival() {}

  public long object() {
    return object;
  }

  public long generation() {
    return generation;
  }

  /** Own arrival: {@link #start()}. The latest arrival of the generation recorded so far. */
  public long latestArrival() {
    return latestArrival;
  }

  /** The BARRIER_EXIT outcome bits ({@link dev.weft.trace.BarrierOutcome}); 0 when not departed. */
  public int outcome() {
    return outcome;
  }

  /** False when the thread was still waiting when its stream or the analysis window ended. */
  /** The thread whose arrival was the generation's latest, or -1 when unknown. */
  public int lastArriver() {
    return lastArriver;
  }

  /** The call path the last arrival came from: where its excess work ran. */
  public int lastArriverNode() {
    return lastArriverNode;
  }

  public boolean departed() {
    return departed;
  }
}
