package dev.weft.agent.record;

/**
 * Keeps a virtual thread on its carrier while the recorder writes a definition for it (JDK 21+).
 * Definitions are written under the trace writer's monitor, and a virtual thread holding its
 * carrier's stream that blocked there would unmount (JDK 24+), leaving the carrier's stream taken
 * for every other virtual thread mounted meanwhile, whose events would be lost. Pinned, it blocks
 * the carrier instead, for the few microseconds of a definition.
 */
final class VirtualThreadPins {
  private static volatile CarrierStates carriers;

  private VirtualThreadPins() {}

  /** Set once the carrier access of this JDK is known (null: nothing to pin). */
  static void use(CarrierStates states) {
    carriers = states;
  }

  /**
   * Pins the calling thread if it is a virtual one.
   *
   * @return whether it was pinned: then {@link #unpin} must follow
   */
  static boolean pin() {
    CarrierStates c = carriers;
    return c != null && EventPath.isVirtual(Thread.currentThread()) && c.pin();
  }

  /** Ends a {@link #pin} that returned true. */
  static void unpin() {
    carriers.unpin();
  }
}
