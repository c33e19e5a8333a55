package dev.weft.agent.record;

import dev.weft.trace.TraceWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The JVM's own count of each recorded platform thread's monitor blocks and waits during the
 * recording, written as one THREAD_JVM_COUNTS definition per thread: a cross-check that lets the
 * analysis say when threads blocked on monitors the agent cannot see (taken inside JDK or other
 * unwoven code), instead of counting that time as execution without a word.
 *
 * <ul>
 *   <li><b>Baseline.</b> Threads created after the recording started (Java ids are handed out in
 *       creation order, so a larger id than one drawn then) start from 0. Older threads start from
 *       the counts of one snapshot of all threads taken on an agent thread, started once the
 *       agent's weaving is in place, off the application's path. Until the snapshot is taken
 *       nothing is counted: a thread that ends before it gets no record (and never waits for {@code
 *       java.management} to load), and {@link #missed()} counts it, so the analysis can say which
 *       threads it could not cross-check.
 *   <li><b>End.</b> A thread whose {@code run()} returns is counted there, on itself (one {@code
 *       ThreadMXBean.getThreadInfo} call, under the thread's guard, never throwing). Threads still
 *       alive at the close are counted then, in one call. A thread that ends without a hooked
 *       {@code run()} returning ({@code main}; at an attach, threads whose {@code run()} was
 *       running) is counted as it terminates, at the entry of {@code Thread.exit()} (hooked by the
 *       threads family; {@link ThreadEvents#threadExiting}).
 * </ul>
 *
 * <p><b>Times.</b> With the counts goes the time the operating system counted for the thread over
 * the same span: its CPU time and its time waiting for a core ({@link OsThreadTimes}, on the thread
 * itself as it ends), which the analysis compares with the time it counts as execution. Both are
 * known for threads that began during the recording (from 0) and for the thread that starts it
 * ({@code main} under {@code -javaagent}: its times are taken in the agent's start). Other threads
 * that began before (an attach) read their own times and Linux thread id at their first recorded
 * event and are measured from there (the record says when): a program that keeps more threads busy
 * than it has cores is then told from one that waits in code Weft does not see, which the JVM's CPU
 * time alone could not. Such a thread that records nothing itself gets its CPU time from the JVM,
 * from the baseline on, without the run queue: the trace attribute {@link #TIMES_FROM} says when
 * the baseline was taken, so that the analysis allows for the gap. A thread still alive at the
 * close is read there from {@code /proc/self/task/<tid>/schedstat}: a thread that began before the
 * recording named its id itself at its first event (one {@code readlink} of {@code
 * /proc/thread-self}); the others' ids come from one thread dump at the close ({@link
 * NativeThreadIds}); one whose id is still unknown gets its CPU time from the JVM, without the run
 * queue. Where {@code /proc} is missing, the CPU time comes from the JVM alone.
 *
 * <p>Virtual threads and carriers of virtual threads get no record (the JVM does not count virtual
 * threads; a carrier's stream mixes the virtual threads it ran). Once measurement is switched off,
 * nothing more is written: the JVM keeps counting while the trace does not. Nothing here ever
 * enables the JVM's thread contention monitoring (it costs on every contended monitor).
 */
final class JvmCounts {
  private static final long[] ZERO = {0, 0, 0};

  /**
   * The trace attribute with the trace-clock time of the baseline: CPU times of threads that began
   * before it count from it.
   */
  static final String TIMES_FROM = "agent.thread_times_from";

  /** When the baseline was taken ({@code System.nanoTime}), or 0 before. */
  private volatile long baselineTime;

  /** CPU and run-queue time not measured (and no span of the thread's own). */
  private static final long[] NO_TIMES = {-1, -1, -1};

  private final TraceWriter writer;
  private final Set<ThreadState> live = ConcurrentHashMap.newKeySet();
  private volatile boolean off;

  /** Threads with a larger Java id were created after the recording started: they start at 0. */
  private final long boundary;

  /** The Java id of the thread that started the recording. */
  private final long starter;

  /** Its {CPU, run-queue} ns at the recording's start, or null where the system cannot say. */
  private final long[] starterTimes;

  /** Threads that ended before the baseline was taken: they have no record. */
  private final AtomicLong missed = new AtomicLong();

  /** Java id → {blocked, waited} at the baseline; null until it is taken. */
  private volatile Map<Long, long[]> baseline;

  /**
   * Threads with a stream opened for them that they have not taken (a thread alive at an attach
   * records its first event itself, or never: its open wait is written by an agent thread): Java id
   * → stream id. Counted at their termination or at the close, like the registered ones.
   */
  private final Map<Long, Integer> unclaimed = new ConcurrentHashMap<>();

  JvmCounts(TraceWriter writer, boolean on) {
    this.writer = writer;
    this.off = !on;
    // The next Java id: a thread object never started, only to draw one. Named, so that it takes
    // no number from the JVM's "Thread-N" names (the application's unnamed threads keep theirs).
    this.boundary = new Thread(null, null, "weft-id-boundary", 0, false).getId();
    this.starter = Thread.currentThread().getId();
    this.starterTimes = on ? OsThreadTimes.self() : null;
  }

  /** Threads that ended after the recording started but before the baseline: no record. */
  long missed() {
    return missed.get();
  }

  /** When the baseline was taken ({@code System.nanoTime}, the trace's clock), or 0 before. */
  long baselineTime() {
    return baselineTime;
  }

  /** No more records: measurement was switched off, or the JVM cannot say. */
  void disable() {
    off = true;
    live.clear();
    unclaimed.clear();
  }

  /**
   * Takes the baseline of every live thread, on the calling (agent) thread: once per recording,
   * after the agent's weaving is in place.
   */
  void takeBaseline() {
    if (off) {
      return;
    }
    try {
      long t = System.nanoTime();
      baseline = JvmThreadInfo.snapshot();
      baselineTime = t;
    } catch (Throwable e) {
      // java.management is not there (a runtime image or module graph without it), or refused.
      disable();
    }
  }

  /**
   * A stream was opened for a platform thread that has not taken it yet (see {@link #unclaimed}).
   */
  void registerUnclaimed(long javaId, int stream) {
    if (!off) {
      unclaimed.put(javaId, stream);
    }
  }

  /** A thread's stream was opened: it will be counted at its end or at the close. */
  void register(ThreadState s) {
    long id = s.thread.getId();
    unclaimed.remove(id);
    if (!off && !s.virtual && !s.carrier) {
      s.jvmCounted = true;
      live.add(s);
      if (id <= boundary ? id != starter : !s.beginning) {
        // Began before the recording (an attach), or during it unseen (its first event is not its
        // THREAD_BEGIN: started by code not woven, or while the agent wove): its stream spans
        // from here, not its whole life.
        ownTimesFromNow(s);
        if (id > boundary && baseline != null) {
          ownCountsFromNow(s, id);
        }
      }
    }
  }

  /**
   * A thread that began before the recording (an attach), or during it without its start being
   * seen, records its first event: it reads its own times and Linux thread id now, so that its CPU
   * and run-queue times can be measured from here to its end or the close (only the thread itself
   * can name its id; the JVM's CPU time from the baseline has no run queue, and a thread's whole
   * life would span more than its stream). Once per such thread.
   */
  private static void ownTimesFromNow(ThreadState s) {
    long[] t = OsThreadTimes.self();
    long task = t == null ? -1 : OsThreadTimes.selfTask();
    if (task > 0) {
      s.osTask = task;
      s.osTimesFrom = t;
      s.osTimesFromTime = System.nanoTime();
    }
  }

  /**
   * A thread whose start was not seen, at its first event: the JVM's counts of its monitor blocks
   * and waits so far are left out of its record, which then spans its stream, as its times do. Only
   * once the baseline is taken: before, {@code java.management} may not be loaded, and an
   * application thread must not wait for it (its record then spans its whole life).
   */
  private static void ownCountsFromNow(ThreadState s, long id) {
    try {
      s.jvmCountsFrom = JvmThreadInfo.counts(id);
    } catch (Throwable e) {
      // Its record spans its whole life, as before.
    }
  }

  /** The calling thread's {@code run()} returns: its record, if it has one to write. */
  void threadEnded(ThreadState s) {
    if (!s.jvmCounted || s.busy || off) {
      return;
    }
    s.jvmCounted = false;
    if (!live.remove(s)) {
      return; // the close counted it already
    }
    countEnding(s, s.thread.getId(), s.streamId);
  }

  /**
   * The calling thread terminates ({@code Thread.exit()}) with a stream it never took: its record,
   * guarded by its state {@code s}.
   */
  void unclaimedEnded(ThreadState s) {
    if (s.busy || off || unclaimed.isEmpty()) {
      return;
    }
    long id = s.thread.getId();
    Integer stream = unclaimed.remove(id);
    if (stream != null) {
      countEnding(s, id, stream);
    }
  }

  private void countEnding(ThreadState s, long id, int stream) {
    long[] base = base(id);
    if (base == null) {
      if (!off) {
        missed.incrementAndGet();
      }
      return;
    }
    s.busy = true;
    try {
      long[] now = JvmThreadInfo.counts(id);
      if (now != null && !off) {
        write(stream, now, countsBase(s, base), ownTimes(s, id, base));
      }
    } catch (Throwable e) {
      // Only this thread's record is lost; nothing may reach the host.
    } finally {
      s.busy = false;
    }
  }

  /** At the close (or as events stop at a detach, before the restore): the threads still alive. */
  void close() {
    if (off || (live.isEmpty() && unclaimed.isEmpty()) || baseline == null) {
      return;
    }
    // The counts are read first and a thread is taken from the live ones only after: a thread
    // ending meanwhile either took itself first (and wrote its own record, alive) or is written
    // here with the counts read while it was alive. Taken first, a thread that died before the read
    // had no record from either side.
    List<Long> ids = new ArrayList<>();
    List<Integer> streams = new ArrayList<>();
    List<ThreadState> states = new ArrayList<>(); // null for a stream never taken
    for (ThreadState s : live) {
      ids.add(s.thread.getId());
      streams.add(s.streamId);
      states.add(s);
    }
    for (Map.Entry<Long, Integer> e : unclaimed.entrySet()) {
      ids.add(e.getKey());
      streams.add(e.getValue());
      states.add(null);
    }
    long[] idArray = new long[ids.size()];
    for (int i = 0; i < idArray.length; i++) {
      idArray[i] = ids.get(i);
    }
    nameTasks(states);
    long[][] now;
    try {
      now = JvmThreadInfo.counts(idArray);
    } catch (Throwable e) {
      return;
    }
    for (int i = 0; i < idArray.length; i++) {
      ThreadState s = states.get(i);
      boolean taken = s != null ? live.remove(s) : unclaimed.remove(idArray[i], streams.get(i));
      long[] base = base(idArray[i]);
      if (taken && now[i] != null && base != null) {
        try {
          write(streams.get(i), now[i], countsBase(s, base), liveTimes(s, idArray[i], base));
        } catch (Throwable e) {
          // The disk refused it: that thread has no record.
        }
      }
    }
  }

  /**
   * Names the Linux thread id of each live thread in {@code states} that did not name it itself
   * (those that began during the recording), from one thread dump, so that their run-queue times
   * can be read; none when every id is known.
   */
  private static void nameTasks(List<ThreadState> states) {
    Map<Long, Long> tasks = null;
    for (ThreadState s : states) {
      if (s != null && s.osTask <= 0 && s.osTimesFrom == null && s.thread.isAlive()) {
        if (tasks == null) {
          tasks = NativeThreadIds.ofLiveThreads();
        }
        Long task = tasks.get(s.thread.getId());
        if (task != null) {
          s.osTask = task;
        }
      }
    }
  }

  /** The counts a thread's record starts from: its own at its first event, else {@code base}. */
  private static long[] countsBase(ThreadState s, long[] base) {
    return s != null && s.jvmCountsFrom != null ? s.jvmCountsFrom : base;
  }

  /**
   * The thread's counts at the baseline; null before the baseline is taken (nothing is counted
   * then, so that no application thread ever waits for {@code java.management} to load).
   */
  private long[] base(long javaId) {
    Map<Long, long[]> b = baseline;
    if (b == null) {
      return null;
    }
    if (javaId > boundary) {
      return ZERO;
    }
    long[] counts = b.get(javaId);
    return counts != null ? counts : ZERO; // not alive at the baseline: started after it
  }

  /**
   * The calling thread's {CPU, run-queue} ns over its recorded span, as it ends; -1 each where not
   * measured (see the class comment, "Times").
   */
  private long[] ownTimes(ThreadState s, long javaId, long[] base) {
    long[] own = sinceStart(s, javaId, base, OsThreadTimes.self());
    if (own != null) {
      return own;
    }
    if (base == ZERO) { // began during the recording: the JVM's CPU time of its whole life
      return new long[] {JvmThreadInfo.currentCpu(), -1, -1};
    }
    return javaId == starter && starterTimes != null
        ? NO_TIMES
        : sinceBaseline(JvmThreadInfo.currentCpu(), base);
  }

  /**
   * A thread alive at the close ({@code s}, null for a stream never taken): its CPU and run-queue
   * times from its Linux thread's {@code schedstat}, when its id is known (from its first event for
   * one that began before the recording); else its CPU time from the JVM, without the run queue.
   */
  private long[] liveTimes(ThreadState s, long javaId, long[] base) {
    if (s != null && s.osTask > 0 && s.thread.isAlive()) {
      long[] now = OsThreadTimes.ofTask(s.osTask);
      // Alive after the read too: the id was not yet free for another thread to take.
      long[] own = s.thread.isAlive() ? sinceStart(s, javaId, base, now) : null;
      if (own != null) {
        return own;
      }
    }
    long cpu = JvmThreadInfo.cpu(javaId);
    if (javaId == starter && starterTimes != null) {
      return cpu < 0 ? NO_TIMES : new long[] {Math.max(0, cpu - starterTimes[0]), -1, -1};
    }
    return base == ZERO ? new long[] {cpu, -1, -1} : sinceBaseline(cpu, base);
  }

  /**
   * A thread's times {@code now} (its {@code schedstat}, read by itself as it ends or for it at the
   * close) over its recorded span: from its first event if it measured its own times from there,
   * its whole life if it began during the recording, from the recording's start for the thread that
   * started it; null where {@code now} is null or not the same thread's (counters lower than at the
   * span's start) or the span's start is not known.
   */
  private long[] sinceStart(ThreadState s, long javaId, long[] base, long[] now) {
    if (s.osTimesFrom != null) {
      return sinceOwnStart(s, now);
    }
    if (now == null) {
      return null;
    }
    if (base == ZERO) {
      return new long[] {now[0], now[1], -1};
    }
    if (javaId == starter && starterTimes != null) {
      long[] from = starterTimes;
      return now[0] < from[0] || now[1] < from[1]
          ? null
          : new long[] {now[0] - from[0], now[1] - from[1], -1};
    }
    return null;
  }

  /** A thread's times since its first event ({@link #ownTimesFromNow}); null if {@code now} is. */
  private static long[] sinceOwnStart(ThreadState s, long[] now) {
    long[] from = s.osTimesFrom;
    if (now == null || now[0] < from[0] || now[1] < from[1]) {
      return null; // not the same thread's counters
    }
    return new long[] {now[0] - from[0], now[1] - from[1], s.osTimesFromTime};
  }

  /** A thread that began before the baseline: its CPU time since it, without the run queue. */
  private static long[] sinceBaseline(long cpu, long[] base) {
    return cpu < 0 || base[2] < 0 ? NO_TIMES : new long[] {Math.max(0, cpu - base[2]), -1, -1};
  }

  private void write(int stream, long[] now, long[] base, long[] times) throws Exception {
    writer.defineThreadJvmCounts(
        stream,
        Math.max(0, now[0] - base[0]),
        Math.max(0, now[1] - base[1]),
        times[0],
        times[1],
        times[2]);
  }
}
