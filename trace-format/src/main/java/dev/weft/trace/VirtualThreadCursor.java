package dev.weft.trace;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntBinaryOperator;

/**
 * Gives each virtual thread its own logical stream (since 1.3): the events a carrier's stream holds
 * between {@code vthread_mount} and {@code vthread_unmount} of a virtual thread defined with {@link
 * ThreadDef#CARRIED} are reported with that thread's stream id, so a virtual thread that unmounted
 * inside a section and resumed on another carrier reads as one thread. The mount and unmount
 * records themselves stay the carrier's: they are its view (what it ran, and when).
 *
 * <p>Events of a virtual thread without such a definition (traces before 1.3, or a definition the
 * writer could not write) stay on the carrier's stream, as older readers saw them.
 *
 * <p>A hosted platform thread ({@link ThreadDef#isHosted}) is carried the same way on the stream of
 * a thread that had ended: its events get its own stream id, and its mount and unmount are left
 * out, since they are nobody's view (the host's thread is gone; the hosted thread is not a
 * carrier).
 */
final class VirtualThreadCursor implements EventCursor {
  private final EventCursor merged;
  private final Definitions defs;

  /** By carrier stream: the logical stream of the virtual thread mounted on it, or 0. */
  private final Map<Integer, Integer> mounted = new HashMap<>();

  private int stream;

  /** Told (hosted stream, host stream) at each hosted thread's mount. */
  private final IntBinaryOperator hostedOn;

  VirtualThreadCursor(EventCursor merged, Definitions defs, IntBinaryOperator hostedOn) {
    this.merged = merged;
    this.defs = defs;
    this.hostedOn = hostedOn;
  }

  /**
   * The merged events of {@code trace}'s streams, virtual threads demultiplexed when it has any.
   */
  static EventCursor over(EventCursor merged, Definitions defs) {
    return over(merged, defs, (hosted, host) -> 0);
  }

  /** As above; {@code hostedOn} is told each hosted thread's stream and its host's. */
  static EventCursor over(EventCursor merged, Definitions defs, IntBinaryOperator hostedOn) {
    return defs.hasCarriedThreads() ? new VirtualThreadCursor(merged, defs, hostedOn) : merged;
  }

  @Override
  public boolean next() {
    while (merged.next()) {
      int carrier = merged.stream();
      EventKind k = merged.kind();
      if (k == EventKind.VTHREAD_MOUNT) {
        int logical = defs.carriedStream(merged.field(0));
        if (logical > 0) {
          mounted.put(carrier, logical);
          if (hosted(logical)) {
            hostedOn.applyAsInt(logical, carrier);
            continue;
          }
        } else {
          mounted.remove(carrier);
        }
        stream = carrier;
      } else if (k == EventKind.VTHREAD_UNMOUNT) {
        Integer logical = mounted.remove(carrier);
        if (logical != null && hosted(logical)) {
          continue;
        }
        stream = carrier;
      } else {
        Integer logical = mounted.isEmpty() ? null : mounted.get(carrier);
        stream = logical == null ? carrier : logical;
      }
      return true;
    }
    return false;
  }

  private boolean hosted(int logical) {
    ThreadDef t = defs.thread(logical);
    return t != null && t.isHosted();
  }

  @Override
  public EventKind kind() {
    return merged.kind();
  }

  @Override
  public long time() {
    return merged.time();
  }

  @Override
  public int stream() {
    return stream;
  }

  @Override
  public long field(int index) {
    return merged.field(index);
  }
}
