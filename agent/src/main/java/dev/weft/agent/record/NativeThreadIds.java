package dev.weft.agent.record;

import java.util.HashMap;
import java.util.Map;

/**
 * The Linux thread ids of live platform threads, by Java id, from one thread dump ({@code
 * Thread.print}, the JVM's own, as {@code jcmd} prints it): at the close, the threads that never
 * named their id themselves are read through it from {@code /proc/self/task/<tid>/schedstat}.
 *
 * <p>Why a dump: only a thread can name its own id ({@code /proc/thread-self}); asking every thread
 * that starts during a recording to do so costs 10–25 µs in a thread that just started, or a count
 * on every event to do it later. One dump at the close costs a safepoint and about a millisecond
 * per hundred threads, once, and only when some live thread's id is missing.
 */
final class NativeThreadIds {
  private NativeThreadIds() {}

  /** Java id → Linux thread id of every platform thread the JVM lists; empty where it cannot. */
  static Map<Long, Long> ofLiveThreads() {
    try {
      return parse(JvmCommands.execute("Thread.print"));
    } catch (Exception | LinkageError e) {
      return Map.of();
    }
  }

  /**
   * Reads the dump's thread lines: {@code "NAME" #ID [TID] daemon prio=… tid=0x… nid=NID STATE}
   * (JDK 17 writes {@code nid} in hex with {@code 0x}, JDK 19 and later in decimal, the bracketed
   * id only from JDK 19). A name may hold quotes, {@code #} and {@code nid=}, but nothing after it
   * holds a quote: the line is read from its last quote on. Lines of the JVM's own threads (no
   * {@code #ID}) and stack lines are skipped.
   */
  static Map<Long, Long> parse(String dump) {
    Map<Long, Long> ids = new HashMap<>();
    int at = 0;
    int length = dump.length();
    while (at < length) {
      int end = dump.indexOf('\n', at);
      if (end < 0) {
        end = length;
      }
      if (dump.charAt(at) == '"') {
        line(dump.substring(at, end), ids);
      }
      at = end + 1;
    }
    return ids;
  }

  private static void line(String line, Map<Long, Long> ids) {
    int nameEnd = line.lastIndexOf('"');
    if (nameEnd <= 0 || !line.startsWith(" #", nameEnd + 1)) {
      return;
    }
    int nid = line.indexOf(" nid=", nameEnd);
    if (nid < 0) {
      return;
    }
    long javaId = number(line, nameEnd + 3, false);
    int from = nid + 5;
    boolean hex = line.startsWith("0x", from);
    long task = number(line, hex ? from + 2 : from, hex);
    if (javaId > 0 && task > 0) {
      ids.put(javaId, task);
    }
  }

  /** The number at {@code from}, up to the first character that is not a digit; -1 if none. */
  private static long number(String s, int from, boolean hex) {
    long value = 0;
    int i = from;
    for (; i < s.length() && i - from < 16; i++) {
      int d = Character.digit(s.charAt(i), hex ? 16 : 10);
      if (d < 0) {
        break;
      }
      value = value * (hex ? 16 : 10) + d;
    }
    return i == from ? -1 : value;
  }
}
