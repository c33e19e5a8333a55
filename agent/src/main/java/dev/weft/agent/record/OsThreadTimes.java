package dev.weft.agent.record;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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

  private static final Path THREAD_SELF = Path.of("/proc/thread-self");

  /** Set when {@code /proc/thread-self} could not be read as a link: no thread tries again. */
  private static volatile boolean noTaskLink;

  /** Set after the first failure: the file is not there, so no thread tries again. */
  private static volatile boolean unavailable;

  private OsThreadTimes() {}

  /** {CPU ns, run-queue ns} of the calling thread since it began, or null where not available. */
  static long[] self() {
    return read(FILE);
  }

  /**
   * The calling thread's Linux thread id (the last part of the link {@code /proc/thread-self}, one
   * system call), or -1 where not available: with it another thread can read its times later
   * ({@link #ofTask}).
   */
  static long selfTask() {
    if (unavailable || noTaskLink) {
      return -1;
    }
    try {
      String link = Files.readSymbolicLink(THREAD_SELF).toString(); // "<pid>/task/<tid>"
      return Long.parseLong(link.substring(link.lastIndexOf('/') + 1));
    } catch (IOException | RuntimeException e) {
      noTaskLink = true;
      return -1;
    }
  }

  /**
   * {CPU ns, run-queue ns} of thread {@code task} of this process (its Linux thread id), or null
   * when it is gone or the system cannot say.
   */
  static long[] ofTask(long task) {
    return task <= 0 ? null : read("/proc/self/task/" + task + "/schedstat");
  }

  private static long[] read(String file) {
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
    long[] times = parse(b, n);
    if (times == null && file.equals(FILE)) {
      unavailable = true;
    }
    return times;
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
