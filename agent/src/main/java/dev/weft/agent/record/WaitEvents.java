package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;
import dev.weft.trace.WaitKind;

/**
 * Wait events: WAIT_ENTER and WAIT_EXIT (sleeps, parks, monitor and condition waits), NOTIFY, and
 * spins (SPIN_ENTER, SPIN_EXIT), of which one spin loop writes one pair. A consumer's take from a
 * queue is a WAIT_ENTER_ON naming the queue, and an element another thread puts into a queue while
 * some consumer waits is a NOTIFY of that queue: the take's waker.
 */
final class WaitEvents {
  /**
   * Spin calls closer together than this (from the end of one to the start of the next), or with
   * less CPU time used in between, belong to one spin: a spin loop's own work between two calls is
   * short; more is work of its own.
   */
  static final long SPIN_GAP_NANOS = 100_000;

  /**
   * A longer gap still continues the spin when the thread was on a CPU for at most {@link
   * #SPIN_GAP_NANOS} plus this fraction (1/n) of it: the thread was descheduled. A descheduled
   * thread's CPU clock is not still: on a virtual machine it runs on while the host has the virtual
   * CPU (measured here: 6–12 ms of "CPU" in gaps of 0.1–0.6 s, 0.1–0.5 ms in gaps of 2–80 ms), and
   * a fixed allowance split one spin loop into many pieces under load (see the cap below).
   */
  static final long SPIN_DESCHEDULED_CPU_SHARE = 4;

  /**
   * At most this much CPU time counts as stolen, whatever the gap: a thread that was on a CPU for
   * longer did work of its own, even if it was descheduled for far longer around it (a busy host
   * gives a working thread a tenth of a CPU). Measured on a loaded VM, 3 seconds of spinning: with
   * the fixed allowance 15–23 pieces and 72–147 ms counted as work; with this rule 3–5 pieces and
   * 0.5–2.3 ms.
   */
  static final long SPIN_DESCHEDULED_CPU_MAX_NANOS = 1_000_000;

  /** Whether a thread on a CPU for {@code used} ns of a {@code gap} ns gap was descheduled. */
  static boolean descheduled(long used, long gap) {
    return used
        <= SPIN_GAP_NANOS
            + Math.min(gap / SPIN_DESCHEDULED_CPU_SHARE, SPIN_DESCHEDULED_CPU_MAX_NANOS);
  }

  private final EventPath path;
  private final ObjectDefinitions objects;

  WaitEvents(EventPath path, ObjectDefinitions objects) {
    this.path = path;
    this.objects = objects;
  }

  void waitEnter(int region, int waitKind) {
    ThreadState s = path.state();
    if (waitKind == WaitKind.THREAD_START && !s.ignored && !s.startingThread) {
      s.startingThread = true;
      path.threadStartsUnderway.incrementAndGet();
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.waitEnter(System.nanoTime(), region, waitKind);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * The thread parks: WAIT_ENTER_ON (park) naming the thread itself, as {@code
   * LockSupport.unpark(thread)} names it in its NOTIFY ({@link #notify}): the unpark during the
   * park is its waker.
   */
  void parkEnter(int region) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        long self = objects.objectId(region, Thread.currentThread());
        w.waitEnterOn(System.nanoTime(), region, WaitKind.PARK, self);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * A consumer's take from {@code queue} begins: WAIT_ENTER_ON naming it. While the take lasts, the
   * thread counts among {@link EventPath#takersWaiting}, so that producers write their hand-overs.
   */
  void queueTakeEnter(int region, int waitKind, Object queue) {
    ThreadState s = path.state();
    if (!s.ignored && !s.takingFromQueue) {
      s.takingFromQueue = true;
      path.takersWaiting.incrementAndGet();
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.waitEnterOn(System.nanoTime(), region, waitKind, objects.objectId(region, queue));
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /** The take begun by {@link #queueTakeEnter} is over. */
  void queueTakeExit(int region) {
    ThreadState s = path.state();
    if (s.takingFromQueue) {
      s.takingFromQueue = false;
      path.takersWaiting.decrementAndGet();
    }
    waitExit(region);
  }

  /** Whether some consumer is in a take now ({@link #queueTakeEnter}): hand-overs are recorded. */
  boolean takersWaiting() {
    return path.takersWaiting.get() > 0;
  }

  /**
   * The thread put an element into {@code queue} in a call that began at {@code since}, while some
   * consumer was in a take: NOTIFY (queue) naming the queue, at the call's start (the element was
   * in by its end, and a consumer it woke leaves its take after that; the writer moves the time up
   * to the stream's latest event if the call wrote any).
   */
  void queueHandedOver(int region, Object queue, long since) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.notify(since, region, objects.objectId(region, queue), WaitKind.QUEUE);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void waitExit(int region) {
    ThreadState s = path.state();
    if (s.startingThread) {
      s.startingThread = false;
      path.threadStartsUnderway.decrementAndGet();
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.waitExit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void notify(int region, Object object, int waitKind) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        long id = notifiedId(s, region, object);
        w.notify(System.nanoTime(), region, id, waitKind);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /** The id NOTIFY names: a held monitor's id, a condition's lock, else the object's own id. */
  private long notifiedId(ThreadState s, int region, Object object) {
    if (object == null) {
      return 0;
    }
    long id = s.heldIdOf(object);
    if (id != 0) {
      return id;
    }
    int traits = LockObjects.traits(object.getClass());
    if ((traits & LockObjects.CONDITION) != 0) {
      Object lock = LockObjects.lockOf(object, traits);
      if (lock != null) {
        return objects.objectId(region, lock);
      }
    }
    return objects.objectId(region, object);
  }

  /**
   * A spin call ({@code Thread.onSpinWait}, {@code Thread.yield}) starts. The first call of a spin
   * loop writes SPIN_ENTER; later calls continue the same spin and write nothing, as long as the
   * thread did no work since the previous call returned: at most {@link #SPIN_GAP_NANOS} passed, or
   * the thread was on a CPU for little of the time meanwhile (it was descheduled, which a busy host
   * does to spinning threads all the time; see {@link #SPIN_DESCHEDULED_CPU_SHARE}). The spin ends,
   * with SPIN_EXIT at the end of its last call, when the thread records anything else.
   */
  void spinEnter(int region) {
    ThreadState s = path.state();
    if (s.virtual) {
      return; // not recorded: a virtual thread's spin could end on another carrier's stream
    }
    long now = System.nanoTime();
    if (s.spinRegion != 0 && !s.busy && path.on()) {
      if (now - s.spinLastEnd <= SPIN_GAP_NANOS) {
        return;
      }
      long cpu = ThreadCpu.now();
      // CPU used since the last call returned, within the sampling error (<= SPIN_GAP_NANOS).
      long gap = now - s.spinLastEnd;
      if (cpu >= 0 && s.spinCpu >= 0 && descheduled(cpuSinceLastCall(s, cpu), gap)) {
        s.spinCpu = cpu;
        s.spinCpuAt = now;
        return;
      }
    }
    StreamWriter w = path.begin(s); // ends a previous spin, if any
    if (w != null) {
      try {
        w.spinEnter(now, region);
        s.spinRegion = region;
        s.spinLastEnd = now;
        s.spinCpu = ThreadCpu.now();
        s.spinCpuAt = now;
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * A spin call returned: remembered as the end of the open spin, with the thread's CPU time at
   * most every {@link #SPIN_GAP_NANOS} (reading it costs a system call); nothing is written.
   */
  void spinExit(int region) {
    ThreadState s = path.state();
    if (s.spinRegion != 0 && !s.busy && !s.virtual) {
      long now = System.nanoTime();
      s.spinLastEnd = now;
      if (now - s.spinCpuAt > SPIN_GAP_NANOS) {
        s.spinCpu = ThreadCpu.now();
        s.spinCpuAt = now;
      }
    }
  }

  /** The longest stretch after a spin's last call that {@link #spinEnd} adds to the spin. */
  static final long SPIN_END_DESCHEDULED_MAX_NANOS = 20_000_000;

  /**
   * When the open spin of {@code s} ended, called as the thread records its next event: the return
   * of its last spin call, or later when the thread was descheduled after that call and left the
   * loop once it ran again (a spinning thread is preempted often on a busy host, and the loop's
   * condition came true meanwhile): then the spin ends the CPU time the thread has used since,
   * before now, and at most {@link #SPIN_END_DESCHEDULED_MAX_NANOS} after the last call. Time
   * blocked without an event (I/O) right after a spin loop is taken for descheduling too, within
   * that bound.
   */
  static long spinEnd(ThreadState s) {
    long last = s.spinLastEnd;
    long now = System.nanoTime();
    long gap = now - last;
    if (gap <= SPIN_GAP_NANOS || s.spinCpu < 0) {
      return last;
    }
    long cpu = ThreadCpu.now();
    if (cpu < 0) {
      return last;
    }
    long used = Math.max(0, cpuSinceLastCall(s, cpu));
    if (!descheduled(used, gap)) {
      return last; // the thread worked after the loop
    }
    return Math.max(last, Math.min(now - used, last + SPIN_END_DESCHEDULED_MAX_NANOS));
  }

  /**
   * The CPU time the thread used since its last spin call returned, given its CPU time now: the
   * last sample is up to {@link #SPIN_GAP_NANOS} older than that return, and the thread is taken to
   * have been on a CPU in between (spinning).
   */
  private static long cpuSinceLastCall(ThreadState s, long cpu) {
    return (cpu - s.spinCpu) - (s.spinLastEnd - s.spinCpuAt);
  }

  /** The calling thread's CPU time, or -1 where the JVM cannot tell (or lacks java.management). */
  private static final class ThreadCpu {
    private static final java.lang.management.ThreadMXBean THREADS = threads();

    private static java.lang.management.ThreadMXBean threads() {
      try {
        java.lang.management.ThreadMXBean t =
            java.lang.management.ManagementFactory.getThreadMXBean();
        return t.isCurrentThreadCpuTimeSupported() && t.isThreadCpuTimeEnabled() ? t : null;
      } catch (Throwable e) {
        return null;
      }
    }

    static long now() {
      try {
        return THREADS == null ? -1 : THREADS.getCurrentThreadCpuTime();
      } catch (RuntimeException e) {
        return -1;
      }
    }
  }

  /** {@link #waitEnter} at time {@code t} (for RunningFrames, which takes it before a walk). */
  void waitEnterAt(long t, int region, int waitKind) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.waitEnter(t, region, waitKind);
      } finally {
        s.writing.busy = false;
      }
    }
  }
}
