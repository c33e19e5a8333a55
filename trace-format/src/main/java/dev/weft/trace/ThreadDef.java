package dev.weft.trace;

import java.util.List;

/**
 * A traced thread: one event stream (one file). A thread is reported by its last name.
 *
 * @param stream the stream id, which names the thread's event file
 * @param javaId {@code Thread.getId()}
 * @param names every name the thread had, in order, the first being its name when it first recorded
 * @param flags {@link #VIRTUAL}, {@link #DAEMON}
 * @param pool the pool the thread works for (a {@link PoolDef} id), 0 when none
 */
public record ThreadDef(int stream, long javaId, List<Rename> names, int flags, int pool) {
  public static final int VIRTUAL = 1;
  public static final int DAEMON = 2;

  /** A name the thread took at a time (trace nanoTime clock). */
  public record Rename(long time, String name) {}

  public ThreadDef {
    names = List.copyOf(names);
  }

  /** The thread's last name: the one reports use. */
  public String name() {
    return names.isEmpty() ? "stream-" + stream : names.get(names.size() - 1).name();
  }

  public boolean isVirtual() {
    return (flags & VIRTUAL) != 0;
  }
}
