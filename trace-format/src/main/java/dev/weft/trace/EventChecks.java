package dev.weft.trace;

import java.util.BitSet;

/**
 * What a reader can check of one stream's events against the definitions without replaying the
 * trace (FORMAT.md, "Integrity"): the region an event names is defined, its 32-bit fields fit, it
 * does not follow the thread's end, and an event written after the close does not pass for the
 * stream's recorded end. Apart from {@link StreamCursor}, which decodes the events, because these
 * are rules about what a decoded event may say, with state of their own (the thread ended, a
 * virtual thread is mounted, where late events start).
 *
 * <p>Runs once per event on the reader's hot path: it allocates only for a damaged event.
 */
final class EventChecks {

  /** Region ids below this are checked against a table; larger ones against the definitions. */
  private static final int DENSE_REGIONS = 1 << 20;

  private final Definitions definitions;

  /**
   * Whether regions are checked: not when the definitions are cut, since regions their events name
   * may be in the part that was lost (that is the cut, not damage).
   */
  private final boolean checkRegions;

  /** Defined region ids below {@link #DENSE_REGIONS}, for a lookup without boxing. */
  private final BitSet definedRegions;

  private boolean threadEnded;

  /** A virtual thread is mounted on this (carrier) stream. */
  private boolean mounted;

  /**
   * File offset where events written after the close would start (STREAM_END), or {@link
   * #NO_LATE_EVENTS}.
   */
  private long lateFrom = NO_LATE_EVENTS;

  /**
   * No offset: so that the per-event test is one comparison that a sound stream never passes. (A
   * test of whether the offset was set passed at every stream's last block, mid-run: a trap in the
   * reader's compiled loop, which was then compiled again.)
   */
  private static final long NO_LATE_EVENTS = Long.MAX_VALUE;

  /** End of the block {@link #lateFrom} lies in. */
  private long lateUntil;

  EventChecks(Definitions definitions) {
    this.definitions = definitions;
    this.checkRegions = !definitions.cut();
    this.definedRegions = checkRegions ? definitions.denseRegions(DENSE_REGIONS) : new BitSet();
  }

  /**
   * Events from file offset {@code from} on were written after the close recorded the stream's end
   * there, in the block that ends at {@code until}.
   */
  void lateEventsFrom(long from, long until) {
    lateFrom = from;
    lateUntil = until;
  }

  /**
   * Checks the event just decoded; null when it is sound, else what is wrong with it.
   *
   * @param k its kind
   * @param fields its fields
   * @param offset where it starts in the file
   * @param delta its time delta
   */
  String check(EventKind k, long[] fields, long offset, long delta) {
    if (threadEnded && !mounted) {
      // After its thread's end a stream may host platform threads started later, each between a
      // mount and an unmount of its Java id (ThreadDef.isHosted); nothing else.
      if (k != EventKind.VTHREAD_MOUNT || definitions.hostedStream(fields[0]) == 0) {
        return k.id() + " after thread_end";
      }
    }
    if (k == EventKind.THREAD_END) {
      // Between a mount and an unmount the events are the virtual (or hosted) thread's: its end is
      // not the carrier's.
      threadEnded |= !mounted;
    } else if (k == EventKind.VTHREAD_MOUNT) {
      mounted = true;
    } else if (k == EventKind.VTHREAD_UNMOUNT) {
      mounted = false;
    }
    for (int m = k.u32Fields(); m != 0; m &= m - 1) {
      int f = Integer.numberOfTrailingZeros(m);
      if (fields[f] >>> 32 != 0) {
        return k.id()
            + " field "
            + (f + 1)
            + " is "
            + Long.toUnsignedString(fields[f])
            + ", more than 32 bits";
      }
    }
    if (offset >= lateFrom) {
      // The first event after the end the close recorded, in the same block: written after the
      // close, so its time moved on. A zero delta there is a changed end marker, not an event. (A
      // later block may start with a DROPPED event, whose delta is 0.)
      boolean sameBlock = offset < lateUntil;
      lateFrom = NO_LATE_EVENTS;
      if (sameBlock && delta == 0) {
        return "an event after the recorded end of the stream without a time";
      }
    }
    if (k.hasRegion() && checkRegions) {
      long region = fields[0];
      if (region != 0 && !regionDefined(region)) {
        return "region " + Long.toUnsignedString(region) + " is not defined";
      }
    }
    return null;
  }

  private boolean regionDefined(long region) {
    if (region < DENSE_REGIONS) {
      return definedRegions.get((int) region);
    }
    return region <= Integer.MAX_VALUE && definitions.region((int) region) != null;
  }
}
