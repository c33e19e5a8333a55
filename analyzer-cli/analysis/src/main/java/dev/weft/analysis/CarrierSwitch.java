package dev.weft.analysis;

/**
 * A carrier thread starting or stopping to run a virtual thread (VTHREAD_MOUNT, VTHREAD_UNMOUNT on
 * the carrier's stream). A flyweight: valid only during the callback.
 */
public final class CarrierSwitch {
  int carrier;
  int vthread;
  long time;
  boolean mount;

  CarrierSwitch() {}

  /** The carrier (index into the analysis' thread list). */
  public int carrier() {
    return carrier;
  }

  /**
   * The virtual thread (index into the thread list), or -1 when it has no logical stream of its own
   * (traces before format 1.3).
   */
  public int vthread() {
    return vthread;
  }

  /** When it happened (trace clock, ns). */
  public long time() {
    return time;
  }

  /** True for a mount, false for an unmount. */
  public boolean mount() {
    return mount;
  }
}
