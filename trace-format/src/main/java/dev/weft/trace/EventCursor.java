package dev.weft.trace;

/**
 * A pull cursor over events: {@code while (cursor.next()) { cursor.kind() … }}. The accessors
 * describe the current event and are valid until the next call to {@link #next()}; nothing is
 * allocated per event. Use {@link #snapshot()} to keep an event.
 */
public interface EventCursor {

  /** Moves to the next event; false when there are no more. */
  boolean next();

  EventKind kind();

  /** The event's time, in the trace's {@code System.nanoTime()} clock. */
  long time();

  /**
   * The stream (thread) the event belongs to: for a merged cursor, a supplement's events belong to
   * their thread's main stream ({@link Definitions#owner}).
   */
  int stream();

  /** The {@code index}th payload field, in the order {@link EventKind} lists them. */
  long field(int index);

  /** The value of {@code f}, or -1 when the current kind has no such field. */
  default long get(Field f) {
    int i = kind().indexOf(f);
    return i < 0 ? -1 : field(i);
  }

  /** The region field, or -1. */
  default int region() {
    return (int) get(Field.REGION);
  }

  /** An immutable copy of the current event. */
  default Event snapshot() {
    EventKind k = kind();
    long[] f = new long[k.fieldCount()];
    for (int i = 0; i < f.length; i++) {
      f[i] = field(i);
    }
    return new Event(k, time(), stream(), f);
  }
}
