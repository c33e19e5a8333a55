package dev.weft.trace;

import java.util.List;

/**
 * A traced thread: one event stream (one file, or a logical stream on others' files: {@link
 * #CARRIED}). A thread is reported by its last name.
 *
 * @param stream the stream id, which names the thread's event file
 * @param javaId {@code Thread.getId()}
 * @param names every name the thread had, in order, the first being its name when it first recorded
 * @param flags {@link #VIRTUAL}, {@link #DAEMON}, {@link #SUPPLEMENT}, {@link #CARRIED}
 * @param pool the pool the thread works for (a {@link PoolDef} id), 0 when none
 */
public record ThreadDef(int stream, long javaId, List<Rename> names, int flags, int pool) {
  public static final int VIRTUAL = 1;
  public static final int DAEMON = 2;

  /**
   * Since 1.2: the stream is not a thread of its own but more events of the thread with the same
   * Java id, written by another writer (the agent's reader of the JVM's own monitor events, for
   * frames that were running before an attach). Readers merge it into that thread ({@link
   * Definitions#owner}).
   */
  public static final int SUPPLEMENT = 4;

  /**
   * Since 1.3, with {@link #VIRTUAL}: a virtual thread with no event file of its own. Its events
   * are on the streams of the carriers that ran it, each stretch between a {@code vthread_mount}
   * and a {@code vthread_unmount} of its Java id; readers give them this definition's stream id, a
   * logical stream ({@link Trace#events()}). Added within 1.3, without {@link #VIRTUAL}: a platform
   * thread whose events are on the stream of a thread that ended before it started (a <em>host
   * stream</em>), between a mount and an unmount of its Java id that readers leave out (see
   * FORMAT.md, "Hosted platform threads").
   */
  public static final int CARRIED = 8;

  /** A name the thread took at a time (trace nanoTime clock). */
  public record Rename(long time, String name) {}

  public ThreadDef {
    names = List.copyOf(names);
  }

  /**
   * The thread's last name: the one reports use. A thread without a name (virtual threads usually
   * have none) is named by its Java thread id, as {@code jstack} shows it: {@code "virtual #42"}.
   */
  public String name() {
    if (names.isEmpty()) {
      return "stream-" + stream;
    }
    String name = names.get(names.size() - 1).name();
    if (!name.isEmpty()) {
      return name;
    }
    return unnamedLabel();
  }

  /** What names the thread while its name is empty: its Java thread id, {@code "virtual #42"}. */
  public String unnamedLabel() {
    return (isVirtual() ? "virtual #" : "thread #") + javaId;
  }

  public boolean isVirtual() {
    return (flags & VIRTUAL) != 0;
  }

  /**
   * See {@link #CARRIED}: a virtual thread on its carriers' streams, or a hosted platform thread.
   */
  public boolean isCarried() {
    return (flags & CARRIED) != 0;
  }

  /** A platform thread carried on an ended thread's stream ({@link #CARRIED} without virtual). */
  public boolean isHosted() {
    return (flags & (CARRIED | VIRTUAL)) == CARRIED;
  }

  /** See {@link #SUPPLEMENT}. */
  public boolean isSupplement() {
    return (flags & SUPPLEMENT) != 0;
  }
}
