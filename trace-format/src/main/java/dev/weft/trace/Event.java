package dev.weft.trace;

import java.util.Arrays;

/** One event, kept: an immutable copy made by {@link EventCursor#snapshot()}. */
public record Event(EventKind kind, long time, int stream, long[] fields) {

  public Event {
    fields = fields.clone();
  }

  public long field(int index) {
    return fields[index];
  }

  /** The value of {@code f}, or -1 when this kind has no such field. */
  public long get(Field f) {
    int i = kind.indexOf(f);
    return i < 0 ? -1 : fields[i];
  }

  @Override
  public long[] fields() {
    return fields.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Event e
        && e.kind == kind
        && e.time == time
        && e.stream == stream
        && Arrays.equals(e.fields, fields);
  }

  @Override
  public int hashCode() {
    return (kind.hashCode() * 31 + Long.hashCode(time)) * 31 + stream * 7 + Arrays.hashCode(fields);
  }

  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder().append(kind.id()).append('@').append(time).append(" s").append(stream);
    for (int i = 0; i < fields.length; i++) {
      b.append(' ').append(kind.field(i).name().toLowerCase()).append('=').append(fields[i]);
    }
    return b.toString();
  }
}
