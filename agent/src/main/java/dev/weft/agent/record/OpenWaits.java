package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits already in progress when the agent attached: a thread parked in a barrier or a lock, in
 * {@code Object.wait} or blocked on a monitor since before the recording. Neither a hook nor the
 * JVM's monitor events can see them (they began before either existed), so their threads are polled
 * until each leaves its wait, and the part of the wait inside the recording is written, from the
 * recording's start, into a {@link ThreadDef#SUPPLEMENT supplement} stream of the thread. Its
 * region, at the user's line, is named after the JDK method the user called with {@value #MARK}.
 *
 * <p>A thread is still in the same wait while its state, its park blocker and (once known) the
 * JVM's counts of its waits and blocked entries ({@link ThreadMXBean}) are unchanged, or while the
 * counts changed but the thread used less than SAME_WAIT_CPU_NANOS of CPU since the last poll (a
 * park that returned and was parked again within the same call). The end is the midpoint between
 * the last poll that saw it waiting and the first that did not. Polls come every millisecond at
 * first and then every hundredth of the wait's age, at least every 10 ms: the end is off by at most
 * half the distance of the two polls (5 ms, more when the poller runs late on a busy host), which
 * is written with the wait in {@code agent.waits_open_at_attach} as its uncertainty.
 *
 * <p>What is recorded: a monitor entry (BLOCKED) as LOCK_REQUEST at the start and LOCK_ACQUIRED
 * (CONTENDED) and LOCK_RELEASED at the end, like the JVM's events ({@link RunningMonitors}; the
 * monitor's id is its identity hash with bit 61 set); {@code Object.wait} as an object_wait, {@code
 * Thread.sleep} as a sleep, and a park as a park (WAIT_ENTER/WAIT_EXIT): a barrier's generation, a
 * lock's holder and the like are not known. Only the user's waits: the thread's stack at the attach
 * has an application frame below the JDK's (an idle executor worker has none).
 */
final class OpenWaits {
  /** How the region of a wait open at the attach is marked. */
  static final String MARK = " (begun before the attach)";

  /** Monitor ids of blocked entries: the object's identity hash with this bit set. */
  static final long IDENTITY_ID = 1L << 61;

  private static final long MIN_POLL_NANOS = 1_000_000;
  private static final long MAX_POLL_NANOS = 10_000_000;

  /** Less CPU than this between two polls that saw a thread wait again: one and the same wait. */
  private static final long SAME_WAIT_CPU_NANOS = 100_000;

  /** One wait open at the attach. */
  private static final class Open {
    final Thread thread;
    final Thread.State state;
    final Object blocker;
    final int region;
    final int waitKind; // -1 for a monitor entry
    final String what;
    long blockedCount = -1;
    long waitedCount = -1;
    long cpu = -1;
    long lockId;
    String lockClass = "java.lang.Object";
    long lastSeen;

    Open(Thread thread, Thread.State state, Object blocker, int region, int waitKind, String what) {
      this.thread = thread;
      this.state = state;
      this.blocker = blocker;
      this.region = region;
      this.waitKind = waitKind;
      this.what = what;
    }
  }

  private final TraceWriter writer;
  private final long start;
  private final List<Open> open = new ArrayList<>();
  private final List<String> recorded = new ArrayList<>();
  private int ended;
  private boolean stopped;
  private ThreadMXBean threads;

  /**
   * The waits open at {@code start} (the recording's start) of {@code waiting}, threads that were
   * not RUNNABLE then: read now, before their frames' classes are retransformed, so that their
   * lines are those of the code they run.
   */
  OpenWaits(TraceWriter writer, RegionRegistry regions, long start, List<Thread> waiting) {
    this.writer = writer;
    this.start = start;
    for (Thread t : waiting) {
      Thread.State state = t.getState();
      if (state != Thread.State.BLOCKED
          && state != Thread.State.WAITING
          && state != Thread.State.TIMED_WAITING) {
        continue;
      }
      Object blocker = LockSupport.getBlocker(t);
      StackTraceElement[] stack = t.getStackTrace();
      int user = 0;
      while (user < stack.length && RunningMonitors.isJdk(stack[user].getClassName())) {
        user++;
      }
      if (user == stack.length || stack[user].getClassName().startsWith("dev.weft.agent.")) {
        continue; // not the user's wait
      }
      StackTraceElement at = stack[user];
      int waitKind;
      ConstructKind kind;
      String name;
      if (state == Thread.State.BLOCKED) {
        if (user != 0) {
          continue; // a monitor of the JDK's own code
        }
        waitKind = -1;
        kind = ConstructKind.MONITOR;
        name = "synchronized";
      } else if (user == 0) {
        continue; // waiting without a JDK frame above: not a wait we can name
      } else {
        StackTraceElement called = stack[user - 1];
        String simple = called.getClassName().substring(called.getClassName().lastIndexOf('.') + 1);
        name = simple + "." + called.getMethodName();
        if (name.equals("Object.wait")) {
          waitKind = WaitKind.OBJECT_WAIT;
          kind = ConstructKind.OBJECT_WAIT;
        } else if (name.equals("Thread.sleep")) {
          waitKind = WaitKind.SLEEP;
          kind = ConstructKind.SLEEP;
        } else {
          waitKind = WaitKind.PARK;
          kind = ConstructKind.PARK;
        }
      }
      String file = at.getFileName() == null ? "" : at.getFileName();
      int line = Math.max(0, at.getLineNumber());
      int region =
          regions.register(
              kind, name + MARK, at.getClassName(), at.getMethodName(), file, line, line);
      open.add(new Open(t, state, blocker, region, waitKind, t.getName() + " " + name));
    }
  }

  /** Whether there is any wait to poll. */
  boolean any() {
    return !open.isEmpty();
  }

  /** Polls the threads until each has left its wait or the recording stops (an agent thread). */
  void run() {
    try {
      threads = ManagementFactory.getThreadMXBean();
    } catch (Throwable e) { // no java.management: state and blocker alone
      threads = null;
    }
    while (true) {
      long age;
      synchronized (this) {
        if (stopped || open.isEmpty()) {
          return;
        }
        poll();
        age = System.nanoTime() - start;
      }
      LockSupport.parkNanos(Math.max(MIN_POLL_NANOS, Math.min(MAX_POLL_NANOS, age / 100)));
    }
  }

  private void poll() {
    ThreadInfo[] infos = null;
    if (threads != null) {
      long[] ids = new long[open.size()];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = open.get(i).thread.getId();
      }
      try {
        infos = threads.getThreadInfo(ids);
      } catch (RuntimeException e) {
        threads = null;
      }
    }
    // Still waiting: it waited at this moment, which lies between the two observations (the
    // thread infos above, the state read below). Ended: it ended before the state read, so the
    // clock is read again after it; a poller descheduled in between must not date the end early.
    long now = System.nanoTime();
    for (int i = open.size() - 1; i >= 0; i--) {
      Open w = open.get(i);
      ThreadInfo info = infos == null ? null : infos[i];
      if (stillWaiting(w, info)) {
        w.lastSeen = now;
      } else {
        long seen = w.lastSeen == 0 ? start : w.lastSeen;
        long after = System.nanoTime();
        write(w, seen + (after - seen) / 2, (after - seen) / 2);
        open.remove(i);
        ended++;
      }
    }
  }

  private boolean stillWaiting(Open w, ThreadInfo info) {
    Thread t = w.thread;
    if (t.getState() != w.state || LockSupport.getBlocker(t) != w.blocker) {
      return false;
    }
    if (info == null) {
      return t.isAlive();
    }
    long cpu = cpuTime(w.thread);
    if (w.waitedCount < 0) {
      w.waitedCount = info.getWaitedCount();
      w.blockedCount = info.getBlockedCount();
      w.cpu = cpu;
      if (info.getLockInfo() != null) {
        w.lockId = IDENTITY_ID | (info.getLockInfo().getIdentityHashCode() & 0xffffffffL);
        w.lockClass = info.getLockInfo().getClassName();
      }
      return true;
    }
    if (info.getWaitedCount() == w.waitedCount && info.getBlockedCount() == w.blockedCount) {
      w.cpu = cpu;
      return true;
    }
    // Waited again on the same object since the last poll. A park may return and be parked again
    // inside the same call (AQS does so; the runs of OpenWaitsIT saw a lock wait counted as ended
    // 11 ms before its lock was released), which takes microseconds of CPU: the same wait. A
    // thread that did work in between has left its wait and begun another.
    if (cpu >= 0 && w.cpu >= 0 && cpu - w.cpu < SAME_WAIT_CPU_NANOS) {
      w.waitedCount = info.getWaitedCount();
      w.blockedCount = info.getBlockedCount();
      w.cpu = cpu;
      return true;
    }
    return false;
  }

  /** The thread's CPU time, or -1 when the JVM does not measure it. */
  private long cpuTime(Thread t) {
    try {
      return threads.getThreadCpuTime(t.getId());
    } catch (RuntimeException e) { // UnsupportedOperationException
      return -1;
    }
  }

  /**
   * The recording stops at {@code at}: the waits still open are written as lasting to it. Returns
   * the trace attribute's value: how many were recorded and the first ten.
   */
  synchronized String stop(long at) {
    if (!stopped) {
      stopped = true;
      for (Open w : open) {
        write(w, at, 0);
      }
    }
    int n = recorded.size();
    if (n == 0) {
      return "0";
    }
    List<String> named = recorded.subList(0, Math.min(n, 10));
    return n
        + " ("
        + String.join(", ", named)
        + (n > 10 ? ", and more" : "")
        + "; "
        + (n - ended)
        + " lasted to the end)";
  }

  /** Writes the wait as ending at {@code end}, give or take {@code uncertainty} nanoseconds. */
  private void write(Open w, long end, long uncertainty) {
    StreamWriter s;
    try {
      s = writer.openStream(w.thread.getId(), w.thread.getName(), ThreadDef.SUPPLEMENT, 0, start);
    } catch (TraceWriter.StreamNotOpenedException | RuntimeException e) {
      return; // the writer counts what it could not write
    }
    if (w.waitKind < 0) {
      long id = w.lockId != 0 ? w.lockId : IDENTITY_ID;
      try {
        writer.defineObject(new ObjectDef(id, ConstructKind.MONITOR, w.lockClass, 0));
      } catch (Exception e) {
        // Optional: the events keep the id.
      }
      s.lockRequest(start, w.region, id);
      s.lockAcquired(end, id, LockFlags.CONTENDED);
      s.lockReleased(end, id);
    } else {
      s.waitEnter(start, w.region, w.waitKind);
      s.waitExit(end, w.region);
    }
    recorded.add(
        uncertainty == 0
            ? w.what
            : String.format(Locale.ROOT, "%s ±%.1f ms", w.what, uncertainty / 1e6));
  }
}
