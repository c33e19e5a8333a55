package dev.weft.agent.record;

import java.io.FileInputStream;
import java.io.IOException;

/**
 * The calling thread's own times as the operating system counts them: its CPU time and its time
 * runnable but waiting for a core, from Linux's {@code /proc/thread-self/schedstat} (three numbers:
 * nanoseconds on a CPU, nanoseconds waiting on a run queue, time slices). Read by the thread
 * itself, so no native thread id is needed, and without {@code java.management}, so the thread that
 * starts the recording can take its baseline in the agent's start. Elsewhere (other systems, a
 * {@code /proc} not mounted) it answers null once and then never tries again.
 */
final class OsThreadTimes {
  private static final String FILE = "/proc/thread-self/schedstat";

  /** Its first field is the calling thread's Linux thread id. */
  private static final String STAT = "/proc/thread-self/stat";

  /** Set after the first failure: the file is not there, so no thread tries again. */
  private static volatile boolean unavailable;

  private OsThreadTimes() {}

  /** {CPU ns, run-queue ns} of the calling thread since it began, or null where not available. */
  static long[] self() {
    return read(FILE, true);
  }

  /**
   * {CPU ns, run-queue ns, Linux thread id} of the calling thread, or null where not available:
   * with the id another thread can read its times later ({@link #ofTask}).
   */
  static long[] selfWithTask() {
    long[] times = self();
    if (times == null) {
      return null;
    }
    long[] id = read(STAT, false); // "tid (name) state ...": the first number, then a non-digit
    return id == null ? null : new long[] {times[0], times[1], id[0]};
  }

  /**
   * {CPU ns, run-queue ns} of thread {@code task} of this process (its Linux thread id), or null
   * when it is gone or the system cannot say.
   */
  static long[] ofTask(long task) {
    return task <= 0 ? null : read("/proc/self/task/" + task + "/schedstat", true);
  }

  private static long[] read(String file, boolean twoNumbers) {
    if (unavailable) {
      return null;
    }
    byte[] b = new byte[64];
    int n;
    try (FileInputStream in = new FileInputStream(file)) {
      n = in.readNBytes(b, 0, b.length);
    } catch (IOException | SecurityException e) {
      if (file.equals(FILE)) {
        unavailable = true; // the system has no such file; another thread's may just be gone
      }
      return null;
    }
    if (!twoNumbers) {
      long id = firstNumber(b, n);
      return id > 0 ? new long[] {id} : null;
    }
    long[] times = parse(b, n);
    if (times == null && file.equals(FILE)) {
      unavailable = true;
    }
    return times;
  }

  /** The decimal number that starts {@code b[0..n)} and ends at a space, or -1. */
  static long firstNumber(byte[] b, int n) {
    long x = 0;
    int i = 0;
    while (i < n && i < 18 && b[i] >= '0' && b[i] <= '9') {
      x = x * 10 + (b[i++] - '0');
    }
    return i > 0 && i < n && b[i] == ' ' ? x : -1;
  }

  /** The first two decimal numbers of {@code b[0..n)}, or null if it does not hold two. */
  static long[] parse(byte[] b, int n) {
    long[] v = new long[2];
    int field = 0;
    int i = 0;
    while (field < 2) {
      while (i < n && b[i] == ' ') {
        i++;
      }
      int from = i;
      long x = 0;
      while (i < n && b[i] >= '0' && b[i] <= '9' && i - from < 18) {
        x = x * 10 + (b[i++] - '0');
      }
      if (i == from || (i < n && b[i] != ' ' && b[i] != '\n')) {
        return null;
      }
      v[field++] = x;
    }
    return v;
  }
}
