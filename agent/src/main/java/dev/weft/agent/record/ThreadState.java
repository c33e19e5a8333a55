package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.util.Arrays;

/**
 * What the recorder keeps per thread: its stream (opened at its first event), the re-entrancy
 * guard, the stack of open user regions, the locks it holds, its open spin and its latest barrier
 * arrival. Touched only by its own thread (a carrier's also by the virtual thread it carries, never
 * at the same time), so nothing here is synchronized.
 */
final class ThreadState extends ThreadGuard {
  /** Deepest user-region nesting remembered; deeper regions are still balanced by a counter. */
  private static final int MAX_DEPTH = 4096;

  /** Most lock holds remembered; deeper ones are not checked for re-entrancy. */
  private static final int MAX_HELD = 64;

  final Thread thread;

  /** The recorder's path this state belongs to (see {@link EventPath#state}). */
  final EventPath path;

  /** Never records (agent threads): the state exists only to say so cheaply. */
  final boolean ignored;

  /** A virtual thread: it has no stream; its events go to its carrier's, between mount records. */
  final boolean virtual;

  /** The state whose guard the current event holds: this one, or its carrier's. */
  ThreadState writing = this;

  StreamWriter stream;

  /**
   * The thread's stream could not be opened (disk full, I/O error): its events are counted here as
   * dropped, and it never asks for a stream again (that would define a second one).
   */
  TraceWriter.LostStream lost;

  /** Opening the stream failed unexpectedly: events are counted by the recorder instead. */
  boolean noStream;

  /**
   * Of a virtual thread: its logical stream on its carriers' streams, 0 before its first event, -1
   * when it could not be defined.
   */
  int carriedStream;

  /**
   * Of a platform thread carried on an ended thread's stream ({@code stream} is then that host's):
   * the host and its own stream id; else null.
   */
  TraceWriter.Hosted hosted;

  /** The id of the stream this thread's events are reported under (its own, or hosted), or 0. */
  int streamId;

  /** The thread wrote its THREAD_END and gave its stream up: it records nothing more. */
  boolean finished;

  /** Of a carrier: the Java id of the virtual thread whose events follow in the stream, or 0. */
  long mounted;

  /** The thread name last recorded, compared by reference to notice renames cheaply. */
  String name;

  /** The pool this thread works for, when announced at its creation (0: none or unknown). */
  int pool;

  /** Lookups of this state that missed {@link EventPath#state}'s table (see there). */
  int recentMisses;

  /** Whether THREAD_BEGIN was recorded (THREAD_END is recorded only then). */
  boolean begun;

  /** Whether it is inside a thread_start wait ({@link EventPath#threadStartsUnderway}). */
  boolean startingThread;

  /** Whether it is inside a consumer's take from a queue ({@link EventPath#takersWaiting}). */
  boolean takingFromQueue;

  /** The JVM's counts of this thread are still to be recorded, at its end or the close. */
  boolean jvmCounted;

  /**
   * Its Linux thread id (0: not known), named by itself at its first event if it began before the
   * recording, else from a thread dump at the close ({@link JvmCounts}).
   */
  long osTask;

  /** While it writes its THREAD_BEGIN: its start was seen, its stream spans its life. */
  boolean beginning;

  /**
   * Of a thread that began before an attach: its own {CPU ns, run-queue ns} read at its first
   * recorded event, and when (the trace clock); null when not read. Its times are measured from
   * there.
   */
  long[] osTimesFrom;

  long osTimesFromTime;

  /**
   * Of a thread whose start was not seen: the JVM's {blocked, waited} counts at its first event,
   * which its record leaves out; null when not read ({@link JvmCounts}).
   */
  long[] jvmCountsFrom;

  /** A carrier of virtual threads (a worker of the JDK's virtual-thread scheduler). */
  final boolean carrier;

  /** Aggregated fork-join tasks: tasks open on this thread (0: no busy interval open). */
  int aggDepth;

  /** Aggregated fork-join tasks: start of the busy interval not yet summarised. */
  long aggStart;

  /** Aggregated fork-join tasks: tasks begun in that interval. */
  long aggCount;

  /** Aggregated fork-join tasks: blocked in a join (not busy) since JOIN_WAIT_ENTER. */
  boolean aggBlocked;

  /** Depth of join waits recorded at application call sites (full mode). */
  int callSiteJoins;

  /** What the innermost open join wait, recorded, waits for (a thread, a future, a task). */
  Object joinObject;

  /** Full mode: a join wait recorded from the park inside {@code ForkJoinTask.awaitDone}. */
  boolean parkedJoin;

  /** Aggregated fork-join tasks: the pool id of this thread's summaries (-1: not yet known). */
  int summaryPool = -1;

  private int[] regions = new int[16];
  private int depth;
  private int overflow;

  // ---- locks: what this thread holds, for re-entrancy and for ids without hashing a held monitor

  private Object[] heldObjects = new Object[4];
  private long[] heldIds = new long[4];
  private int heldCount;

  /** The object of the last LOCK_REQUEST not yet answered by LOCK_ACQUIRED, and its id. */
  Object requestObject;

  long requestId;
  int requestTraits;

  /** The object of the last LOCK_RELEASED written by a woven call site. */
  Object releasedObject;

  /** The class whose traits were looked up last, and those traits. */
  Class<?> traitsClass;

  int traits;

  /**
   * The object that stood for the lock this thread last looked up, and its id: taking and releasing
   * one lock over and over looks it up once. Keeps that one object reachable until the thread locks
   * another.
   */
  Object lastLock;

  long lastLockId;

  // ---- spinning: one SPIN_ENTER per spin loop, SPIN_EXIT written before the thread's next event

  /** Region of the open spin, 0 when the thread is not spinning. */
  int spinRegion;

  /** When the latest spin call of the open spin returned. */
  long spinLastEnd;

  /** The thread's CPU time (-1: unknown) when last sampled during the spin, and when that was. */
  long spinCpu;

  long spinCpuAt;

  // ---- barriers: the generation of the latest arrival, for its departure

  Object barrierObject;
  long barrierGeneration;

  ThreadState(Thread thread, boolean ignored, boolean virtual, EventPath path) {
    this.path = path;
    this.thread = thread;
    this.ignored = ignored;
    this.virtual = virtual;
    this.carrier = EventPath.isCarrier(thread);
  }

  /** The id of a lock this thread holds through {@code lock} (the same reference), or 0. */
  long heldIdOf(Object lock) {
    for (int i = heldCount - 1; i >= 0; i--) {
      if (heldObjects[i] == lock) {
        return heldIds[i];
      }
    }
    return 0;
  }

  /** Whether this thread holds the lock with this id. */
  boolean holds(long id) {
    for (int i = heldCount - 1; i >= 0; i--) {
      if (heldIds[i] == id) {
        return true;
      }
    }
    return false;
  }

  /** Remembers a hold of lock {@code id}, taken through {@code lock}. */
  void hold(Object lock, long id) {
    if (heldCount == heldIds.length) {
      if (heldCount >= MAX_HELD) {
        return;
      }
      heldObjects = Arrays.copyOf(heldObjects, heldCount * 2);
      heldIds = Arrays.copyOf(heldIds, heldCount * 2);
    }
    heldObjects[heldCount] = lock;
    heldIds[heldCount++] = id;
  }

  /** Forgets the innermost hold of lock {@code id}; false when it was not remembered. */
  boolean unhold(long id) {
    int top = heldCount - 1;
    if (top >= 0 && heldIds[top] == id) { // the usual case: the innermost hold ends
      heldObjects[top] = null;
      heldCount = top;
      return true;
    }
    for (int i = top - 1; i >= 0; i--) {
      if (heldIds[i] == id) {
        heldCount--;
        System.arraycopy(heldObjects, i + 1, heldObjects, i, heldCount - i);
        System.arraycopy(heldIds, i + 1, heldIds, i, heldCount - i);
        heldObjects[heldCount] = null;
        return true;
      }
    }
    return false;
  }

  /** Remembers an entered user region (0 when its enter was not recorded). */
  void pushRegion(int region) {
    if (depth == regions.length) {
      if (depth >= MAX_DEPTH) {
        overflow++;
        return;
      }
      regions = Arrays.copyOf(regions, depth * 2);
    }
    regions[depth++] = region;
  }

  /** The innermost user region, removed; 0 when none (or its enter was not recorded). */
  int popRegion() {
    if (overflow > 0) {
      overflow--;
      return 0;
    }
    return depth == 0 ? 0 : regions[--depth];
  }
}
