package dev.weft.trace;

import java.util.Arrays;
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

  /**
   * Stream ids below this are kept in {@link #mountedOn}; larger ones in {@link #mountedOnLarge}.
   */
  private static final int DENSE = 1 << 20;

  /**
   * By carrier (or host) stream: the logical stream of the thread mounted on it, or 0. An array:
   * with hosted threads nearly every event of a program that starts threads is looked up here.
   */
  private int[] mountedOn = new int[64];

  private final Map<Integer, Integer> mountedOnLarge = new HashMap<>();

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
        mount(carrier, logical);
        if (logical > 0 && hosted(logical)) {
          hostedOn.applyAsInt(logical, carrier);
          continue;
        }
        stream = carrier;
      } else if (k == EventKind.VTHREAD_UNMOUNT) {
        int logical = mountedOn(carrier);
        mount(carrier, 0);
        if (logical > 0 && hosted(logical)) {
          continue;
        }
        stream = carrier;
      } else {
        int logical = mountedOn(carrier);
        stream = logical == 0 ? carrier : logical;
      }
      return true;
    }
    return false;
  }

  private int mountedOn(int carrier) {
    if (carrier >= 0 && carrier < mountedOn.length) {
      return mountedOn[carrier];
    }
    return carrier < 0 || carrier >= DENSE ? mountedOnLarge.getOrDefault(carrier, 0) : 0;
  }

  private void mount(int carrier, int logical) {
    if (carrier >= 0 && carrier < DENSE) {
      if (carrier >= mountedOn.length) {
        if (logical == 0) {
          return;
        }
        mountedOn = Arrays.copyOf(mountedOn, Math.max(carrier + 1, mountedOn.length * 2));
      }
      mountedOn[carrier] = logical;
    } else if (logical == 0) {
      mountedOnLarge.remove(carrier);
    } else {
      mountedOnLarge.put(carrier, logical);
    }
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
