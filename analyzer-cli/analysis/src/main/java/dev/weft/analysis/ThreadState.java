package dev.weft.analysis;

import dev.weft.trace.pairing.PairMatcher;
import java.util.Arrays;

/**
 * One thread's replay state: its frame stack (regions, tasks and waits, innermost last), the
 * execution time not yet handed to properties, its idle stretch and the locks it holds. Memory is
 * proportional to the stack depth.
 */
final class ThreadState {
  // Frame kinds: one per nested construct of the pairing grammar (Construct), the replay's frame
  // for it. Below F_JOIN the thread runs (execution); from F_JOIN on it waits.
  static final byte F_REGION = 1;
  static final byte F_FORK = 2;
  static final byte F_TASK = 3;
  static final byte F_HELP = 4;
  static final byte F_JOIN = 5;
  static final byte F_BARRIER = 6;
  static final byte F_LOCK = 7;
  static final byte F_WAIT = 8;
  static final byte F_SPIN = 9;

  final int index;
  final int stream;
  final String name;

  /** Pool slot of a pool worker, -1 for other threads. */
  final int pool;

  /** A daemon thread: the JVM does not wait for it to end. */
  boolean daemon;

  // How a thread's lifetime ended (see Replay.finish).
  static final byte END_RECORDED = 1;
  static final byte END_AT_CLOSE = 2;
  static final byte END_BLOCKED = 3;
  static final byte END_IDLE = 4;
  static final byte END_RUNNING = 5;
  static final byte END_DAMAGED = 6;

  /** Lifetime start (definition time) and end (THREAD_END, or where Replay.finish ended it). */
  long begin;

  long end;
  boolean started;
  boolean ended;

  /** One of the END_ constants once the replay is finished; 0 before. */
  byte endKind;

  /**
   * What this thread's events open and close (the pairing grammar); its depth is {@link #depth}.
   */
  PairMatcher pairs;

  /** Time up to which this thread's time has been charged. */
  long lastT;

  // Frame stack, struct of arrays.
  int depth;
  byte[] kind = new byte[16];
  int[] node = new int[16];
  int[] region = new int[16];
  int[] inst = new int[16];
  int[] stat = new int[16];
  long[] start = new long[16];
  long[] accum = new long[16];
  long[] aux = new long[16];
  long[] obj = new long[16];

  /** Slots of the execution cache (a power of two). */
  static final int EXEC_SLOTS = 32;

  // Execution time gathered per (call path, region stat) before it is handed to properties: a
  // small direct-mapped cache, so the per-event path is an array update, not a hash lookup.
  final int[] execNode = filled(EXEC_SLOTS, -1);
  final int[] execStat = new int[EXEC_SLOTS];
  final long[] execAmount = new long[EXEC_SLOTS];

  /** All execution time of this thread so far (barrier-region busy time is its difference). */
  long execTotal;

  /**
   * The part of {@link #execTotal} spent inside recorded waits that no property claimed (sleeps,
   * yields, lock requests that found the lock free): what the thread was doing there is known.
   */
  long execInWaits;

  // Idle stretch of a pool worker, and idle time not yet handed to properties.
  long idleStart;
  long idleInFlightAtStart;
  long idleTimerAtStart;
  long pendingIdle;
  long pendingIdleInFlight;
  long pendingIdleTimer;

  /**
   * A worker between its THREAD_BEGIN and its first frame that the JVM says never waited: that
   * stretch is its start-up (see {@link ThreadReplay#endIdle}).
   */
  boolean startingUp;

  // Locks held, innermost last.
  long[] held = new long[8];
  boolean[] heldShared = new boolean[8];
  int heldCount;

  // The monitor (or lock) given up by Object.wait / Condition.await, re-taken at the wait's end
  // (implicit release) or by the AFTER_WAIT acquisition (release recorded by the recorder).
  long waitReleasedLock;
  int waitReleasedDepth;
  boolean waitReleasePending;
  boolean waitReleaseRecorded;
  long waitRetakenLock;
  boolean waitRetaken;

  // Events replayed on this thread, and which of them was the latest LOCK_RELEASED (of what lock,
  // held how deep before): a release immediately followed by a wait is the wait's own.
  long events;
  long releaseEvent = -1;
  long releasedLock;
  int releasedDepth;

  // Facts for the notes.
  long droppedEvents;

  /**
   * Recorded monitor waits the JVM may have counted as blocks of this thread: monitor acquisitions
   * that waited at least {@link JvmCrossCheck#MIN_WAIT_NS} or were still waiting at the end, and
   * {@code Object.wait} exits (the monitor is re-entered inside the wait). See {@link
   * JvmCrossCheck}.
   */
  long monitorWaits;

  /**
   * Recorded waits the JVM may have counted as waits of this thread (parks, sleeps, Object.wait):
   * every wait, barrier arrival and join wait, and every request of a lock that is not a monitor.
   * See {@link JvmCrossCheck#waitsNote}.
   */
  long parkableWaits;

  /** It ran virtual threads (a VTHREAD_MOUNT on its stream): the JVM does not count carriers. */
  boolean carrier;

  /**
   * It runs a virtual thread now (between a VTHREAD_MOUNT and its VTHREAD_UNMOUNT): time outside
   * its own frames is then not idle but {@link CallPathTree#runningVirtualThreads} (see {@link
   * ThreadReplay#carrierSwitch}).
   */
  boolean mounted;

  ThreadState(int index, int stream, String name, int pool, long begin) {
    this.index = index;
    this.stream = stream;
    this.name = name;
    this.pool = pool;
    this.begin = begin;
  }

  private static int[] filled(int n, int v) {
    int[] a = new int[n];
    Arrays.fill(a, v);
    return a;
  }

  boolean worker() {
    return pool >= 0;
  }

  /**
   * Whether its time outside frames of its own is idle: a pool worker not running a virtual thread
   * now (a carrier's mounted time is execution, see {@link ThreadReplay#carrierSwitch}).
   */
  boolean idlesOutsideFrames() {
    return worker() && !mounted;
  }

  int top() {
    return depth - 1;
  }

  /** Pushes a frame; returns its index. */
  int push(byte k, int n, int r, int instance, int regionStat, long t, long object) {
    if (depth == kind.length) {
      int cap = depth * 2;
      kind = Arrays.copyOf(kind, cap);
      node = Arrays.copyOf(node, cap);
      region = Arrays.copyOf(region, cap);
      inst = Arrays.copyOf(inst, cap);
      stat = Arrays.copyOf(stat, cap);
      start = Arrays.copyOf(start, cap);
      accum = Arrays.copyOf(accum, cap);
      aux = Arrays.copyOf(aux, cap);
      obj = Arrays.copyOf(obj, cap);
    }
    int i = depth++;
    kind[i] = k;
    node[i] = n;
    region[i] = r;
    inst[i] = instance;
    stat[i] = regionStat;
    start[i] = t;
    accum[i] = 0;
    aux[i] = 0;
    obj[i] = object;
    return i;
  }

  /**
   * Gives back the frame stack and the pairing state once the thread has ended (its THREAD_END): no
   * event of it is replayed after that, and a program may run hundreds of thousands of short
   * threads (virtual threads), whose state would otherwise stay until the end of the analysis.
   */
  void releaseAfterEnd() {
    kind = new byte[1];
    node = new int[1];
    region = new int[1];
    inst = new int[1];
    stat = new int[1];
    start = new long[1];
    accum = new long[1];
    aux = new long[1];
    obj = new long[1];
    held = new long[1];
    heldShared = new boolean[1];
    heldCount = 0; // locks it never released stay in the lock table, as another's now (LockReplay)
    pairs = null;
  }

  /** The innermost frame of kind {@code k} whose object is {@code object}, or -1. */
  int find(byte k, long object) {
    for (int i = depth - 1; i >= 0; i--) {
      if (kind[i] == k && obj[i] == object) {
        return i;
      }
    }
    return -1;
  }

  /** The innermost frame of kind {@code k}, or -1. */
  int find(byte k) {
    for (int i = depth - 1; i >= 0; i--) {
      if (kind[i] == k) {
        return i;
      }
    }
    return -1;
  }

  int currentNode() {
    return depth == 0 ? CallPathTree.ROOT : node[depth - 1];
  }

  int currentInstance() {
    return depth == 0 ? -1 : inst[depth - 1];
  }

  int currentStat() {
    return depth == 0 ? -1 : stat[depth - 1];
  }

  void hold(long lock, boolean shared) {
    if (heldCount == held.length) {
      held = Arrays.copyOf(held, heldCount * 2);
      heldShared = Arrays.copyOf(heldShared, heldCount * 2);
    }
    held[heldCount] = lock;
    heldShared[heldCount] = shared;
    heldCount++;
  }

  /** Removes the innermost hold of {@code lock} in the given mode; false if there is none. */
  boolean unhold(long lock, boolean shared) {
    for (int i = heldCount - 1; i >= 0; i--) {
      if (held[i] == lock && heldShared[i] == shared) {
        System.arraycopy(held, i + 1, held, i, heldCount - i - 1);
        System.arraycopy(heldShared, i + 1, heldShared, i, heldCount - i - 1);
        heldCount--;
        return true;
      }
    }
    return false;
  }

  /** The innermost lock held exclusively, or -1 (index into {@link #held}). */
  int innermostExclusive() {
    for (int i = heldCount - 1; i >= 0; i--) {
      if (!heldShared[i]) {
        return i;
      }
    }
    return -1;
  }
}
