package dev.weft.agent.record;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * The only class that touches {@code java.management}: loaded on first use (an agent thread's
 * baseline), so that a JVM without that module only loses the cross-check ({@link JvmCounts}).
 * Calls without stack traces only: no safepoint, no contention monitoring.
 */
final class JvmThreadInfo {
  private static final ThreadMXBean BEAN = ManagementFactory.getThreadMXBean();

  private JvmThreadInfo() {}

  /**
   * Java id → {blocked count, waited count, CPU ns} of every live platform thread (CPU -1 where the
   * JVM cannot say), a block or wait in progress left out of its count: the JVM counts a wait as it
   * begins, so counts taken from here on include the one the thread is in now. Without that, a
   * worker waiting from before the recording to its end (a scheduled pool's idle worker, shut down)
   * read as one that never waited, whose way out the analysis takes for thread management.
   */
  static Map<Long, long[]> snapshot() {
    long[] ids = BEAN.getAllThreadIds();
    ThreadInfo[] infos = BEAN.getThreadInfo(ids);
    Map<Long, long[]> m = new HashMap<>(ids.length * 2);
    for (int i = 0; i < ids.length; i++) {
      long[] c = of(infos[i]);
      if (c != null) {
        Thread.State state = infos[i].getThreadState();
        long blocked = c[0] - (state == Thread.State.BLOCKED ? 1 : 0);
        long waited =
            c[1] - (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING ? 1 : 0);
        m.put(ids[i], new long[] {Math.max(0, blocked), Math.max(0, waited), cpu(ids[i])});
      }
    }
    return m;
  }

  /** {blocked count, waited count} of a live platform thread, or null. */
  static long[] counts(long id) {
    return of(BEAN.getThreadInfo(id));
  }

  /** {blocked count, waited count} of each thread, null for those not alive. */
  static long[][] counts(long[] ids) {
    ThreadInfo[] infos = BEAN.getThreadInfo(ids);
    long[][] counts = new long[ids.length][];
    for (int i = 0; i < ids.length; i++) {
      counts[i] = of(infos[i]);
    }
    return counts;
  }

  /** The calling thread's CPU time in ns since it began, or -1 where the JVM cannot say. */
  static long currentCpu() {
    return BEAN.isCurrentThreadCpuTimeSupported() ? BEAN.getCurrentThreadCpuTime() : -1;
  }

  /** A live thread's CPU time in ns since it began, or -1 (not alive, or the JVM cannot say). */
  static long cpu(long id) {
    return BEAN.isThreadCpuTimeSupported() ? BEAN.getThreadCpuTime(id) : -1;
  }

  private static long[] of(ThreadInfo info) {
    return info == null ? null : new long[] {info.getBlockedCount(), info.getWaitedCount()};
  }
}
