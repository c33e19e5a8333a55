package dev.weft.trace;

/**
 * What the JVM itself counted for a recorded thread (its {@code ThreadInfo}) between the start of
 * the recording, or the thread's start if later, and the thread's end or the trace's close: a
 * cross-check of what was recorded.
 *
 * @param stream the thread's stream
 * @param blockedCount times the thread blocked entering a monitor ({@code getBlockedCount()})
 * @param waitedCount times it waited or parked ({@code getWaitedCount()})
 * @param cpuNs the thread's CPU time over the same span, in nanoseconds (for a thread that began
 *     before the agent's baseline, other than the one that started the recording, from that
 *     baseline on: the trace attribute {@code agent.thread_times_from}); -1 when not measured
 *     (older traces, a JVM or system that cannot say)
 * @param runQueueNs its time runnable but waiting for a core over the same span (Linux's {@code
 *     schedstat}); -1 when not measured (other systems, threads that began before the recording and
 *     recorded nothing themselves, threads that began during it and were still alive at the close)
 * @param timesFromNs when the span of {@code cpuNs} and {@code runQueueNs} began, on the trace
 *     clock, for a thread that began before an attach and measured its own times from its first
 *     recorded event on; -1 when the span is the default one above
 */
public record ThreadJvmCounts(
    int stream,
    long blockedCount,
    long waitedCount,
    long cpuNs,
    long runQueueNs,
    long timesFromNs) {
  /** The JVM's counts alone, without the operating system's times. */
  public ThreadJvmCounts(int stream, long blockedCount, long waitedCount) {
    this(stream, blockedCount, waitedCount, -1, -1, -1);
  }

  /** The counts with the times over the default span. */
  public ThreadJvmCounts(
      int stream, long blockedCount, long waitedCount, long cpuNs, long runQueueNs) {
    this(stream, blockedCount, waitedCount, cpuNs, runQueueNs, -1);
  }

  /** Whether the thread's CPU time was measured. */
  public boolean hasCpu() {
    return cpuNs >= 0;
  }

  /** Whether its run-queue time was measured. */
  public boolean hasRunQueue() {
    return runQueueNs >= 0;
  }

  /** Whether the times span from a moment of the thread's own ({@link #timesFromNs}). */
  public boolean hasOwnTimesFrom() {
    return timesFromNs >= 0;
  }
}
