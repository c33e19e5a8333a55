package dev.weft.analysis;

import static dev.weft.analysis.CallPathTree.ROOT;
import static dev.weft.analysis.ThreadState.F_BARRIER;
import static dev.weft.analysis.ThreadState.F_JOIN;
import static dev.weft.analysis.ThreadState.F_WAIT;

import dev.weft.trace.ThreadJvmCounts;

/**
 * The replay of threads: their lifetimes (begin, end), the time between two of a thread's events
 * charged to its innermost frame (execution, or the wait it is in), a pool worker's idle stretches,
 * the frame stack every construct family pushes onto, and carriers mounting virtual threads. Emits
 * {@link ThreadTime} (execution no property claimed), {@link IdleTime} and {@link CarrierSwitch}.
 */
final class ThreadReplay {
  private final Replay r;
  private final Occurrences out;
  private final IdleTime idle = new IdleTime();
  private final ThreadTime remainder = new ThreadTime();
  private final CarrierSwitch carrierSwitch = new CarrierSwitch();

  ThreadReplay(Replay replay) {
    this.r = replay;
    this.out = replay.occurrences;
  }

  // ---- lifetimes --------------------------------------------------------------------------------

  /**
   * The thread begins at {@code t}: at its THREAD_BEGIN ({@code atRun}: its {@code run()} starts
   * there), or at its definition (it was running before its stream was opened, or its THREAD_BEGIN
   * is still to come).
   */
  void begin(ThreadState th, long t, boolean atRun) {
    th.started = true;
    th.begin = t;
    th.lastT = t;
    if (th.worker()) {
      startIdle(th, t);
      th.startingUp = atRun && neverWaited(th);
    }
    r.critical.threadBegan(th.index, r.javaId(th), ROOT, t);
  }

  /** The thread's THREAD_END. */
  void end(ThreadState th, long t) {
    closeAll(th, t, true);
    th.ended = true;
    r.critical.completed(th.index, t, r.javaId(th), true);
    r.joinCauses.ended(th.index, ROOT, r.javaId(th), t);
    th.releaseAfterEnd();
  }

  /** Ends a thread that did not end itself at {@code t}: charges it and closes what is open. */
  void stop(ThreadState th, long t) {
    charge(th, t);
    closeAll(th, t, false);
  }

  /**
   * Closes everything the thread has open at {@code t}, which becomes its end ({@code exits}: its
   * THREAD_END, so a worker's time since its last task was its way out).
   */
  private void closeAll(ThreadState th, long t, boolean exits) {
    while (th.depth > 0) {
      r.closeTop(th, t);
    }
    if (th.idlesOutsideFrames()) {
      if (exits && neverWaited(th)) {
        endStartOrExit(th, t, th.startingUp); // start-up to the end when it never had a task
      } else {
        endIdle(th, t, -1);
      }
    }
    flushIdle(th);
    flushExec(th);
    th.end = t;
  }

  /**
   * A mount or unmount of a virtual thread on carrier {@code th}. A carrier (a pool worker of the
   * virtual-thread scheduler) runs the virtual thread from the mount to the unmount: outside frames
   * of its own that time is not idle but execution at {@link CallPathTree#runningVirtualThreads}.
   * The critical path still sees it as the carrier waiting: the virtual thread's own chain carries
   * that work.
   */
  void carrierSwitch(ThreadState th, long t, boolean mount, long vthreadJavaId) {
    if (mount && !th.mounted) {
      if (th.depth == 0 && th.worker()) {
        endIdle(th, t, -1);
      }
      th.mounted = true;
    } else if (!mount && th.mounted) {
      th.mounted = false;
      if (th.depth == 0 && th.worker()) {
        startIdle(th, t);
      }
    }
    if (!out.wantsCarrierSwitches()) {
      return;
    }
    ThreadState v = r.thread(r.defs().carriedStream(vthreadJavaId));
    CarrierSwitch s = carrierSwitch;
    s.carrier = th.index;
    s.vthread = v == null ? -1 : v.index;
    s.time = t;
    s.mount = mount;
    out.carrierSwitch(s);
  }

  // ---- time accounting --------------------------------------------------------------------------

  /** Charges the thread's time since its previous event to its innermost frame. */
  void charge(ThreadState th, long t) {
    long d = t - th.lastT;
    if (d <= 0) {
      return;
    }
    th.lastT = t;
    int top = th.depth - 1;
    if (top < 0) {
      if (th.mounted) {
        exec(th, r.tree.runningVirtualThreads(), -1, d);
        r.critical.waiting(th.index, ROOT, t);
      } else if (!th.worker()) {
        exec(th, ROOT, -1, d);
        r.critical.work(th.index, ROOT, t);
      } else {
        r.critical.waiting(th.index, ROOT, t);
      }
      // A worker's idle stretch is measured from its start when it ends.
      return;
    }
    byte k = th.kind[top];
    if (k < F_JOIN) {
      // Regions, forks, tasks and helping (the common case): execution.
      exec(th, th.node[top], th.stat[top], d);
      r.critical.work(th.index, th.node[top], t);
      return;
    }
    while (k == F_WAIT && WaitReplay.partOfOuter(th.aux[top])) {
      top--; // how the outer wait is implemented: its time is the outer wait's
      k = th.kind[top];
    }
    th.accum[top] += d;
    r.critical.waiting(th.index, th.node[top], t);
    if (k == F_JOIN) {
      r.tasks.chargeJoin(th, top, t, d);
    }
  }

  void exec(ThreadState th, int node, int stat, long d) {
    int s = node & (ThreadState.EXEC_SLOTS - 1);
    if (th.execNode[s] != node || th.execStat[s] != stat) {
      flushExec(th, s);
      th.execNode[s] = node;
      th.execStat[s] = stat;
    }
    th.execAmount[s] += d;
    th.execTotal += d;
    if (stat >= 0 && d > 0) {
      RegionBusy busy = r.regionStats.get(stat);
      busy.busy[th.index] += d;
      busy.member[th.index] = true;
    }
  }

  /** Hands all gathered execution time of a thread to the properties. */
  private void flushExec(ThreadState th) {
    for (int s = 0; s < ThreadState.EXEC_SLOTS; s++) {
      flushExec(th, s);
    }
  }

  private void flushExec(ThreadState th, int s) {
    long a = th.execAmount[s];
    if (a <= 0) {
      return;
    }
    th.execAmount[s] = 0;
    remainder.reset(r.cube, th.index, th.execNode[s], th.lastT - a, th.lastT, a);
    out.remainder(remainder);
  }

  /** Gives what no property claimed of a finished wait to execution at the wait's call path. */
  void rest(ThreadState th, ThreadTime w, int stat) {
    long u = w.unclaimed();
    if (u > 0) {
      exec(th, w.node(), stat, u);
      th.execInWaits += u;
    }
  }

  // ---- idle workers -----------------------------------------------------------------------------

  private void startIdle(ThreadState th, long t) {
    th.idleStart = t;
    th.idleInFlightAtStart = r.pools.inFlightUpTo(th.pool, t);
    th.idleTimerAtStart = r.pools.timerUpTo(th.pool, t);
  }

  /**
   * Ends a worker's idle stretch at {@code e}. When it ends with the worker's first task of region
   * instance {@code inst}, the part after that instance's fork is handed over at once (it belongs
   * to the region's call path); the rest waits in the thread's pending idle time until a task
   * summary or the thread's end.
   */
  void endIdle(ThreadState th, long e, int inst) {
    long s = th.idleStart;
    long total = e - s;
    boolean startUp = th.startingUp;
    th.startingUp = false;
    if (total <= 0) {
      return;
    }
    InstanceTable instances = r.instances;
    long inFlight = r.pools.inFlightUpTo(th.pool, e) - th.idleInFlightAtStart;
    long timer = r.pools.timerUpTo(th.pool, e) - th.idleTimerAtStart;
    long afterFork = 0;
    if (inst >= 0 && !instances.started(inst, th.index)) {
      afterFork = Math.min(total, e - Math.max(s, instances.fork[inst]));
      if (afterFork > 0) {
        inFlight = Math.max(inFlight, afterFork);
        dispatchIdle(
            th, afterFork, afterFork, 0, afterFork, instances.node[inst], e - afterFork, e);
      } else {
        afterFork = 0;
      }
    }
    if (startUp) {
      th.idleStart = s;
      endStartOrExit(th, e - afterFork, true);
    } else {
      th.pendingIdle += total - afterFork;
      th.pendingIdleInFlight += Math.min(inFlight, total) - afterFork;
      th.pendingIdleTimer += Math.max(0, Math.min(timer, total - Math.min(inFlight, total)));
    }
    th.idleStart = e;
    th.idleInFlightAtStart = r.pools.inFlightUpTo(th.pool, e);
    th.idleTimerAtStart = r.pools.timerUpTo(th.pool, e);
  }

  /**
   * Ends the worker's stretch outside frames at {@code e} as its start-up ({@code start}: since its
   * THREAD_BEGIN, before its first task) or its way out (since its last task, up to its
   * THREAD_END): thread management, not idle, since the JVM counted no wait of it ({@link
   * #neverWaited}). Waiting for a core counts with it: the JVM sees a runnable thread.
   */
  private void endStartOrExit(ThreadState th, long e, boolean start) {
    long s = th.idleStart;
    th.idleStart = e;
    th.startingUp = false;
    if (e <= s) {
      return;
    }
    idle.workerStart = start ? e - s : 0;
    idle.workerExit = start ? 0 : e - s;
    idle.workerNode = start ? r.tree.workerStart() : r.tree.workerExit();
    dispatchIdle(th, e - s, 0, 0, 0, -1, s, e);
  }

  /**
   * Whether the JVM counted no park, sleep or {@code Object.wait} of worker {@code th} in its life
   * (its THREAD_JVM_COUNTS record): then its time outside tasks was never a wait for work. A worker
   * of a pool that starts a thread per task (and retires it after) is such a thread; a worker that
   * ever waited for its next task is not, and its start and end stay idle, as the trace cannot tell
   * its waits apart.
   */
  private boolean neverWaited(ThreadState th) {
    ThreadJvmCounts c = r.defs().jvmCounts(th.stream);
    return c != null && c.waitedCount() == 0;
  }

  void flushIdle(ThreadState th) {
    long total = th.pendingIdle;
    if (total > 0) {
      long inFlight = Math.max(0, Math.min(th.pendingIdleInFlight, total));
      long timer = Math.max(0, Math.min(th.pendingIdleTimer, total - inFlight));
      dispatchIdle(th, total, inFlight, timer, 0, -1, th.idleStart - total, th.idleStart);
    }
    th.pendingIdle = 0;
    th.pendingIdleInFlight = 0;
    th.pendingIdleTimer = 0;
  }

  private void dispatchIdle(
      ThreadState th,
      long total,
      long inFlight,
      long timer,
      long afterFork,
      int forkNode,
      long s,
      long e) {
    idle.reset(r.cube, th.index, ROOT, s, e, total);
    idle.inFlight = inFlight;
    idle.timer = timer;
    idle.afterFork = afterFork;
    idle.forkNode = forkNode;
    out.idle(idle);
    rest(th, idle, -1);
    idle.workerStart = 0; // set by endStartOrExit for one dispatch
    idle.workerExit = 0;
    idle.workerNode = -1;
  }

  // ---- frames -----------------------------------------------------------------------------------

  /** Pushes a frame that inherits the enclosing region instance; returns its index. */
  int push(ThreadState th, byte kind, int node, int region, long t, long obj, int endsIdleOf) {
    return pushIn(
        th, kind, node, region, th.currentInstance(), th.currentStat(), t, obj, endsIdleOf);
  }

  /**
   * Pushes a frame in region instance {@code inst}; a worker's first frame ends its idle stretch
   * (see {@link #endIdle} for {@code endsIdleOf}).
   */
  int pushIn(
      ThreadState th,
      byte kind,
      int node,
      int region,
      int inst,
      int stat,
      long t,
      long obj,
      int endsIdleOf) {
    if (th.depth == 0 && th.idlesOutsideFrames()) {
      endIdle(th, t, endsIdleOf);
    }
    r.load.opened(node);
    if (kind == F_WAIT || kind == F_BARRIER || kind == F_JOIN) {
      th.parkableWaits++;
    }
    return th.push(kind, node, region, inst, stat, t, obj);
  }

  void pop(ThreadState th, long t) {
    th.depth--;
    if (th.depth == 0 && th.idlesOutsideFrames()) {
      startIdle(th, t);
    }
  }

  /** Closes frames above {@code i} as if they ended at {@code t} (their end events are missing). */
  void closeAbove(ThreadState th, int i, long t) {
    while (th.depth - 1 > i) {
      r.closeTop(th, t);
    }
  }
}
