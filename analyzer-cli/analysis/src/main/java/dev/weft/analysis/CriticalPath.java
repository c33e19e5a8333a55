package dev.weft.analysis;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The critical path, computed forwards in the replay: every thread carries the chain of work and
 * hand-overs that led to where it is now (Lamport-style), as a list of immutable segments shared
 * between threads. A chain is contiguous in time: a thread's execution extends it, and so does
 * every wait. When a wait ends because of another thread that released it during the wait (the
 * lock's releaser, the barrier's last arrival, the completion a join waited for, the submission a
 * worker idled for, the thread that started it), the thread takes the releaser's chain as it was at
 * the release, plus the hand-over time: the thread's own past did not decide when it went on, the
 * release did (as Scalasca's backward replay follows a wait state to its cause). Unless the
 * releaser's chain is no cause ({@link #causes}): it went through idle time whose end nothing
 * recorded explains, or it starts later than the thread's own; then the heavier of the two goes on,
 * the thread's own through the wait when the releaser's weighs less. A chain's weight is its length
 * without the waits that lie on no chain: such a wait, and idle time. A wait whose releaser is not
 * recorded (a sleep, a timeout, a spin) is weighed as the thread's own: the analysis cannot say
 * whom it waited for. A wait still open when the recording ended is not weighed: its cause lies
 * outside the recording ({@link #recordingEnded}). The critical path is the chain that ends where
 * the run ends ({@link #pathEnd}); its length (time) reaches back to where the earliest chain
 * starts (the first thread's begin, for a run whose threads were all started by recorded ones): the
 * run's length.
 *
 * <p>Besides its exact on-path ns per (thread, call path), a chain keeps its timed {@link
 * PathPieces}: who was on the path when, at which call path, doing what ({@link #WORK}, {@link
 * #HAND_OVER}, {@link #WAIT}). Their number is bounded: see {@link PathPieces#coarsen}.
 *
 * <p>Memory: one segment per snapshot someone takes over (a contended release, a barrier's last
 * arrival, a submission, a completion that a join waits for), shared by the chains that contain it;
 * a chain longer than {@link #FOLD_DEPTH} segments or {@code 2 * }{@link #MAX_PIECES} pieces is
 * folded into one. A task's or thread's end is kept only while a join already waits for it (a join
 * that starts after its target ended did not wait for it), and a thread's start only until the
 * thread ends: what is kept follows the open joins and live threads, not the run's length (the live
 * heap stays at 3–4 MiB from 10 M to 100 M events of the mixed benchmark trace).
 *
 * <p>The replay talks to it only through {@link CriticalPathFeed}, and never reads it before the
 * end, so it may run on a thread of its own: every chain the replay used to hand back (a lock's
 * release, a task's creation, a barrier's latest arrival, a notification) is kept here under the
 * replay's slot or handle for it.
 */
final class CriticalPath {
  /** Chains longer than this many segments are folded into one segment. */
  static final int FOLD_DEPTH = 256;

  /** Timed pieces kept per chain (and written per critical path). */
  static final int MAX_PIECES = AnalysisResult.CriticalPath.MAX_SEGMENTS;

  /** A piece's kind: the thread executed. */
  static final byte WORK = 0;

  /** A piece's kind: from a release to the released thread's wake-up, on the woken thread. */
  static final byte HAND_OVER = 1;

  /**
   * A piece's kind: a wait of the thread whose releaser is unrecorded, or whose releaser's chain
   * was lighter and no cause, or idle time.
   */
  static final byte WAIT = 2;

  /**
   * An immutable piece of a chain: on-path ns per (thread, call-path node) key and the timed pieces
   * of that time, after {@code prev}.
   */
  static final class Segment {
    final Segment prev;
    final long[] keys;
    final long[] ns;
    final PathPieces pieces;
    final long length;

    /** The chain's weight: its length without the waits that lie on no chain (see class doc). */
    final long weight;

    final int depth;
    final int pieceCount;

    /** The time this segment's chain reaches: its last piece's end. */
    final long end;

    /**
     * Whether the chain went through an idle stretch whose end nothing recorded explains ({@link
     * #idled}): from there on it is not the cause of what it hands over, only a candidate.
     */
    final boolean unseenCause;

    Segment(
        Segment prev,
        long[] keys,
        long[] ns,
        long own,
        long ownWeight,
        PathPieces pieces,
        long end,
        boolean unseenCause) {
      this.prev = prev;
      this.unseenCause = unseenCause;
      this.keys = keys;
      this.ns = ns;
      this.pieces = pieces;
      this.end = end;
      this.length = (prev == null ? 0 : prev.length) + own;
      this.weight = (prev == null ? 0 : prev.weight) + ownWeight;
      this.depth = prev == null ? 1 : prev.depth + 1;
      this.pieceCount = (prev == null ? 0 : prev.pieceCount) + pieces.size;
    }
  }

  /** On-path time of one thread since its chain's last segment: a small map key → ns. */
  private static final class Pending {
    long[] keys = new long[8];
    long[] ns = new long[8];
    int size;
    long total;
    long weight;

    /** Time of the wait pieces since the last other piece: weighed when the wait ends. */
    long waitNs;

    int last = -1;
    final PathPieces pieces = new PathPieces();

    void add(long key, long d) {
      int i = last >= 0 && keys[last] == key ? last : find(key);
      if (i < 0) {
        if (size == keys.length) {
          keys = Arrays.copyOf(keys, size * 2);
          ns = Arrays.copyOf(ns, size * 2);
        }
        i = size++;
        keys[i] = key;
        ns[i] = 0;
      }
      ns[i] += d;
      total += d;
      last = i;
    }

    private int find(long key) {
      for (int i = size - 1; i >= 0; i--) {
        if (keys[i] == key) {
          return i;
        }
      }
      return -1;
    }

    void clear() {
      size = 0;
      total = 0;
      weight = 0;
      last = -1;
      pieces.clear();
    }
  }

  /** The pieces of a segment that only carries sums ({@link #sumPerKey}). */
  private static final PathPieces NO_PIECES = new PathPieces(0);

  private final Segment[] chain;
  private final Pending[] pending;

  /** Up to when each thread's chain is accounted; Long.MIN_VALUE before the thread began. */
  private final long[] pos;

  /** When each thread last executed (or was handed over to): a later release can wake it. */
  private final long[] busyUntil;

  /** The replay's call-path tree, or null when the replay runs on another thread (see below). */
  private final CallPathTree tree;

  /** The tree's ancestry as the latest batch of a threaded feed handed it over ({@link #fed}). */
  private CallPathTree.Ancestry fedAncestry;

  // Snapshots waiting to be taken over.
  private Segment[] lockSnap = new Segment[16];
  private long[] lockSnapTime = new long[16];
  private int[] lockSnapThread = new int[16];
  private Segment[] taskSnap = new Segment[16];

  /** Ends of tasks and threads that open joins wait for (see {@link AwaitedIds}). */
  private final Map<Long, Segment> endedTasks = new HashMap<>();

  private final AwaitedIds awaited = new AwaitedIds();
  private final Map<Long, Long> endedTaskTimes = new HashMap<>();

  /** Started threads not begun yet, by Java id: the starter's chain, when and where it started. */
  private final Map<Long, ThreadStart> threadStarts = new HashMap<>();

  private record ThreadStart(Segment chain, long time, int node) {}

  private Segment lastCompletion;
  private long lastCompletionTime = Long.MIN_VALUE;
  private int lastCompletionThread = -1;
  int openJoins;

  /**
   * Threads that ended and whose chains were let go: of the ended threads only two chains can be
   * the critical path ({@link #pathEnd}), so only they are kept ({@link #retire}).
   */
  private final boolean[] retired;

  /** Daemon threads: the JVM does not wait for them to end. */
  private final boolean[] daemon;

  /** Per thread: its chain now went through an idle stretch of unseen cause ({@link #idled}). */
  private final boolean[] unseenCause;

  /** The ended thread whose chain is heaviest (the first of equals), or -1. */
  private int heaviestEnded = -1;

  /**
   * The ended non-daemon thread whose chain starts earliest and, of those, ends latest (then the
   * heaviest, then the first), or -1.
   */
  private int lastEndedNonDaemon = -1;

  /** Whether the recording has ended: see {@link #recordingEnded}. */
  private boolean ended;

  /**
   * @param daemon which of the replay's threads are daemon threads (one entry per thread)
   * @param tree the replay's call-path tree, read when pieces are coarsened; null when this runs on
   *     a thread of its own, which is then {@linkplain #fed fed} the tree's ancestry
   */
  CriticalPath(boolean[] daemon, CallPathTree tree) {
    int threads = daemon.length;
    this.daemon = daemon.clone();
    this.unseenCause = new boolean[threads];
    this.tree = tree;
    chain = new Segment[threads];
    pending = new Pending[threads];
    pos = new long[threads];
    Arrays.fill(pos, Long.MIN_VALUE);
    busyUntil = new long[threads];
    Arrays.fill(busyUntil, Long.MIN_VALUE);
    retired = new boolean[threads];
    for (int i = 0; i < threads; i++) {
      pending[i] = new Pending();
    }
  }

  /** The call-path tree's ancestry as the replay handed it over with a batch of operations. */
  void fed(CallPathTree.Ancestry ancestry) {
    fedAncestry = ancestry;
  }

  private CallPathTree.Ancestry ancestry() {
    return tree != null ? tree.ancestry() : fedAncestry;
  }

  /** A piece kind's name in the JSON document. */
  static String kindName(byte kind) {
    switch (kind) {
      case HAND_OVER:
        return "hand_over";
      case WAIT:
        return "wait";
      default:
        return "work";
    }
  }

  static long key(int thread, int node) {
    return ((long) thread << 32) | (node & 0xFFFFFFFFL);
  }

  static int thread(long key) {
    return (int) (key >>> 32);
  }

  static int node(long key) {
    return (int) key;
  }

  /** Thread {@code th} executed at {@code node} up to {@code t}. */
  void work(int th, int node, long t) {
    advance(th, node, WORK, t);
  }

  /**
   * Thread {@code th} waited (or idled) at {@code node} up to {@code t}: how much that weighs is
   * decided when the wait ends.
   */
  void waiting(int th, int node, long t) {
    advance(th, node, WAIT, t);
  }

  /**
   * Thread {@code th}'s wait at {@code node} ended at {@code t}; its releaser is unknown, so it is
   * weighed as the thread's own (a sleep, a timeout, a spin), unless the recording ended first.
   */
  void waited(int th, int node, long t) {
    if (ended) {
      waitedUnweighed(th, node, t);
      return;
    }
    advance(th, node, WAIT, t);
    Pending p = pending[th];
    p.weight += p.waitNs;
    p.waitNs = 0;
  }

  /**
   * Thread {@code th} was idle at {@code node} up to {@code t}, waiting for work that nothing
   * recorded brought (the network's, in a select or an accept; a task from a queue whose put the
   * recorder did not see hand over): as a pool worker's idle time, the wait lies on no chain, and
   * what ended it is unseen, so the chain no longer shows what caused its thread to go on.
   */
  void idled(int th, int node, long t) {
    waitedUnweighed(th, node, t);
    unseenCause[th] = true;
  }

  /**
   * Thread {@code th} waited at {@code node} up to {@code t} for a task to come due (a timer's
   * wait): idle time, on no chain's weight, but its end has a cause the analysis knows, the time.
   */
  void timerWaited(int th, int node, long t) {
    waitedUnweighed(th, node, t);
  }

  /** As {@link #waited}, but the wait is not weighed: it lies on no chain. */
  private void waitedUnweighed(int th, int node, long t) {
    advance(th, node, WAIT, t);
    pending[th].waitNs = 0;
  }

  /**
   * Thread {@code th} was at {@code node} up to {@code t}, doing {@code kind} ({@link #WORK}: as
   * {@link #work}; {@link #WAIT}: as {@link #waiting}; {@link #HAND_OVER}).
   */
  void advance(int th, int node, byte kind, long t) {
    long from = pos[th];
    if (from == Long.MIN_VALUE) {
      pos[th] = t;
      return;
    }
    if (t <= from) {
      return;
    }
    Pending p = pending[th];
    long key = key(th, node);
    p.add(key, t - from);
    p.pieces.add(key, kind, from, t);
    pos[th] = t;
    if (kind != WAIT) {
      busyUntil[th] = t;
      p.weight += t - from;
      if (p.waitNs != 0) {
        // A wait nothing settled (a pool worker's idle time that no task ended): its end's cause
        // is unseen.
        unseenCause[th] = true;
        p.waitNs = 0;
      }
    } else {
      p.waitNs += t - from;
    }
    if (p.pieces.size > 2 * MAX_PIECES) {
      p.pieces.coarsen(MAX_PIECES, ancestry());
    }
  }

  /**
   * The recording ended: the waits that end from now on are the ones still open at its end, closed
   * by the replay without their own end. Nothing recorded released them, and their releaser, if
   * any, came after the recording, so they lie on no chain: none is weighed, none is handed over.
   */
  void recordingEnded() {
    ended = true;
  }

  /** The length of thread {@code th}'s chain up to where it is accounted. */
  long length(int th) {
    return (chain[th] == null ? 0 : chain[th].length) + pending[th].total;
  }

  /** The weight of thread {@code th}'s chain (the waits not yet ended not weighed). */
  long weight(int th) {
    return (chain[th] == null ? 0 : chain[th].weight) + pending[th].weight;
  }

  /** Thread {@code th}'s chain now, as a segment others can take over. */
  private Segment snapshot(int th) {
    Pending p = pending[th];
    if (p.size == 0 && (chain[th] == null || chain[th].unseenCause == unseenCause[th])) {
      return chain[th];
    }
    // Freezing the pending part keeps later snapshots of the same thread from copying it again.
    Segment s =
        new Segment(
            chain[th],
            Arrays.copyOf(p.keys, p.size),
            Arrays.copyOf(p.ns, p.size),
            p.total,
            p.weight,
            p.pieces.copy(),
            pos[th],
            unseenCause[th]);
    chain[th] = s.depth > FOLD_DEPTH || s.pieceCount > 2 * MAX_PIECES ? fold(s) : s;
    long waiting = p.waitNs;
    p.clear();
    p.waitNs = waiting;
    return chain[th];
  }

  /**
   * A wait of thread {@code th} at {@code node} ended at {@code t}; the release that may have ended
   * it happened at {@code releaseTime}, with chain {@code source}. The release hands over when the
   * thread was waiting at that time (it had not executed since) and its chain is the wait's cause
   * ({@link #causes}) or, plus the hand-over, weighs at least as much as the thread's own; then the
   * thread's chain is the release's. Otherwise its own chain goes on through the wait: weighed as
   * its own when the release is unknown (or was not during the wait), unweighed when the release's
   * chain is lighter (the wait then lies on no chain's weight, and the chain no longer shows what
   * made its thread go on) or when the recording ended first (a release during the wait did not end
   * it).
   */
  private void handOver(int th, int node, Segment source, long releaseTime, long t) {
    if (ended) {
      waitedUnweighed(th, node, t);
    } else if (!releasedDuringWait(th, source, releaseTime, t)) {
      waited(th, node, t);
    } else if (causes(source, th) || heavierOrEqual(source, t, th)) {
      takeOver(th, node, source, t);
    } else {
      waitedUnweighed(th, node, t);
      unseenCause[th] = true;
    }
  }

  /**
   * As {@link #handOver}, for a release that only may have ended the wait (a join's latest
   * completion by any thread, when the one it waited for is unknown): it hands over only when its
   * chain weighs at least as much as the thread's own.
   */
  private void guessedHandOver(int th, int node, Segment source, long releaseTime, long t) {
    if (ended || !releasedDuringWait(th, source, releaseTime, t)) {
      handOver(th, node, source, releaseTime, t);
    } else if (heavierOrEqual(source, t, th)) {
      takeOver(th, node, source, t);
    } else {
      waitedUnweighed(th, node, t);
      unseenCause[th] = true;
    }
  }

  /**
   * An idle worker began a task at {@code node} at {@code t}, submitted at {@code releaseTime} by a
   * thread whose chain was then {@code source}: a hand-over as {@link #handOver}, except that idle
   * time is never weighed (nothing says the worker's idling was work the run waited for).
   */
  private void idleEnded(int th, int node, Segment source, long releaseTime, long t) {
    if (releasedDuringWait(th, source, releaseTime, t)
        && (causes(source, th) || heavierOrEqual(source, t, th))) {
      takeOver(th, node, source, t);
    } else {
      waitedUnweighed(th, CallPathTree.ROOT, t);
      unseenCause[th] = true;
    }
  }

  private boolean releasedDuringWait(int th, Segment source, long releaseTime, long t) {
    return source != null
        && releaseTime != Long.MIN_VALUE
        && releaseTime <= t
        && releaseTime >= busyUntil[th];
  }

  /**
   * Whether the release with chain {@code source}, during thread th's wait, is what made th go on,
   * whatever its weight: its chain shows every cause back to where th's own chain starts (none of
   * its stretches ended for an unseen reason, and it starts no later, so taking it over loses none
   * of the run from the path; chains are contiguous, so a chain starts at its end less its length).
   */
  private boolean causes(Segment source, int th) {
    return !source.unseenCause
        && (pos[th] == Long.MIN_VALUE || source.end - source.length <= pos[th] - length(th));
  }

  /** Whether {@code source} extended to {@code t} weighs at least as much as th's own chain. */
  private boolean heavierOrEqual(Segment source, long t, int th) {
    long own = pos[th] == Long.MIN_VALUE ? 0 : weight(th);
    return source.weight + (t - source.end) >= own;
  }

  private void takeOver(int th, int node, Segment source, long t) {
    chain[th] = source;
    unseenCause[th] = source.unseenCause;
    pending[th].clear();
    pending[th].waitNs = 0; // the hand-over settles the wait
    pos[th] = Math.min(source.end, t);
    advance(th, node, HAND_OVER, t);
  }

  // ---- locks

  void lockReleased(int slot, int th, long t) {
    if (slot >= lockSnap.length) {
      int cap = Math.max(slot + 1, lockSnap.length * 2);
      lockSnap = Arrays.copyOf(lockSnap, cap);
      lockSnapTime = Arrays.copyOf(lockSnapTime, cap);
      lockSnapThread = Arrays.copyOf(lockSnapThread, cap);
    }
    lockSnap[slot] = snapshot(th);
    lockSnapTime[slot] = t;
    lockSnapThread[slot] = th;
  }

  /**
   * Thread {@code th}'s wait for lock slot {@code slot} at {@code node} ended at {@code t}, when
   * {@code releaser} had released it last, at {@code releaseTime}: a {@link #handOver} from the
   * chain at that release.
   */
  void lockHandOver(int th, int node, int slot, int releaser, long releaseTime, long t) {
    handOver(th, node, lockRelease(slot, releaser, releaseTime), releaseTime, t);
  }

  /** The chain at lock slot {@code slot}'s release by {@code releaser} at {@code t}, or null. */
  private Segment lockRelease(int slot, int releaser, long t) {
    if (slot < 0
        || slot >= lockSnap.length
        || lockSnapThread[slot] != releaser
        || lockSnapTime[slot] != t) {
      return null;
    }
    return lockSnap[slot];
  }

  // ---- tasks

  void taskCreated(int slot, int th) {
    if (slot >= taskSnap.length) {
      taskSnap = Arrays.copyOf(taskSnap, Math.max(slot + 1, taskSnap.length * 2));
    }
    taskSnap[slot] = snapshot(th);
  }

  /**
   * Thread {@code th} began the task created into {@code slot} at {@code created}, at {@code node}
   * at {@code t}: as an idle worker that waited for it ({@link #idleEnded}) or not.
   */
  void taskBegun(int th, int node, int slot, boolean idleWorker, long created, long t) {
    Segment s = taskCreation(slot);
    if (idleWorker) {
      idleEnded(th, node, s, created, t);
    }
  }

  private Segment taskCreation(int slot) {
    Segment s = slot >= 0 && slot < taskSnap.length ? taskSnap[slot] : null;
    if (slot >= 0 && slot < taskSnap.length) {
      taskSnap[slot] = null;
    }
    return s;
  }

  /** A task or thread ended: what a join may have waited for. */
  void completed(int th, long t, long taskId, boolean thread) {
    if (thread && pending[th] != null && pending[th].waitNs != 0) {
      // The thread ended at the end of a wait nothing settled (a pool worker stopped while idle,
      // by an interrupt or a flag at its pool's shutdown): why it ended then is unseen.
      unseenCause[th] = true;
    }
    if (openJoins == 0 && !thread) {
      return;
    }
    Segment s = snapshot(th);
    lastCompletion = s;
    lastCompletionTime = t;
    lastCompletionThread = th;
    if (thread) {
      threadStarts.remove(taskId);
    }
    if (awaited.contains(taskId)) {
      endedTasks.put(taskId, s);
      endedTaskTimes.put(taskId, t);
    }
    if (thread) {
      retire(th);
    }
  }

  /**
   * Thread {@code th} ended: its chain no longer changes, and what others take over from it was
   * snapshotted. Of the ended threads only two chains can be the critical path ({@link #pathEnd}):
   * the heaviest, and the non-daemon one that starts earliest and ends latest. The others are let
   * go, so that memory follows the live threads, not every thread that ever ran.
   */
  private void retire(int th) {
    int heaviest = heaviestEnded < 0 || heavier(th, heaviestEnded) ? th : heaviestEnded;
    int last = lastEndedNonDaemon;
    if (!daemon[th] && (last < 0 || endsLater(th, last))) {
      last = th;
    }
    letGoUnless(heaviestEnded, heaviest, last);
    letGoUnless(lastEndedNonDaemon, heaviest, last);
    letGoUnless(th, heaviest, last);
    heaviestEnded = heaviest;
    lastEndedNonDaemon = last;
  }

  private void letGoUnless(int th, int kept, int alsoKept) {
    if (th >= 0 && th != kept && th != alsoKept && !retired[th]) {
      letGo(th);
    }
  }

  /** Whether a's chain weighs more than b's, or as much and a comes first. */
  private boolean heavier(int a, int b) {
    long wa = weight(a);
    long wb = weight(b);
    return wa > wb || (wa == wb && a < b);
  }

  /** Whether a's chain starts earlier than b's, or as early and ends later, or then is heavier. */
  private boolean endsLater(int a, int b) {
    if (start(a) != start(b)) {
      return start(a) < start(b);
    }
    return pos[a] != pos[b] ? pos[a] > pos[b] : heavier(a, b);
  }

  /** Where thread {@code th}'s chain starts: chains are contiguous in time. */
  private long start(int th) {
    return pos[th] - length(th);
  }

  private void letGo(int th) {
    retired[th] = true;
    chain[th] = null;
    pending[th] = null;
    if (th < joinTargets.length) {
      joinTargets[th] = null;
    }
  }

  private long[][] joinTargets = new long[0][];

  /**
   * Thread {@code th} began a join wait in frame {@code frame}, for task or thread {@code target}.
   */
  void joinEntered(int th, int frame, long target) {
    openJoins++;
    if (joinTargets.length <= th) {
      joinTargets = Arrays.copyOf(joinTargets, Math.max(th + 1, chain.length));
    }
    long[] a = joinTargets[th];
    if (a == null || a.length <= frame) {
      a = Arrays.copyOf(a == null ? new long[0] : a, Math.max(frame + 1, 16));
      joinTargets[th] = a;
    }
    a[frame] = target;
    awaited.add(target);
  }

  /**
   * Thread {@code th}'s join wait in frame {@code frame} at {@code node} (from {@code start}) ended
   * at {@code t}.
   */
  void joinEnded(int th, int frame, int node, long start, long t) {
    openJoins = Math.max(0, openJoins - 1);
    long target =
        th < joinTargets.length && joinTargets[th] != null && frame < joinTargets[th].length
            ? joinTargets[th][frame]
            : Long.MIN_VALUE;
    awaited.remove(target);
    Segment s = endedTasks.remove(target);
    Long when = endedTaskTimes.remove(target);
    if (s == null
        && lastCompletionTime >= start
        && lastCompletionThread != th
        && lastCompletionTime <= t) {
      guessedHandOver(th, node, lastCompletion, lastCompletionTime, t);
      return;
    }
    handOver(th, node, s, when == null ? Long.MIN_VALUE : when, t);
  }

  // ---- notifications

  /** The chain of each lock or monitor at its latest notification while waits were open. */
  private final Map<Long, Segment> notifyChains = new HashMap<>();

  /**
   * Thread {@code th} notified (or signalled) the waiters of lock or monitor {@code obj} while a
   * notifiable wait was open (the replay keeps the notification's time and thread: {@link
   * WaitReplay}).
   */
  void notified(int th, long obj) {
    notifyChains.put(obj, snapshot(th));
  }

  /** The replay forgot its notifications ({@link WaitReplay}): so does this. */
  void notificationsCleared() {
    notifyChains.clear();
  }

  /**
   * Thread {@code th}'s wait on {@code obj} at {@code node} ended at {@code t}: a notification
   * during the wait, at {@code notifyTime}, hands over; without one ({@code Long.MIN_VALUE}: a
   * timeout, a spurious wake-up, an unrecorded notifier) the wait stays on the thread's own chain.
   */
  void notifiedWaitEnded(int th, long obj, long notifyTime, int node, long t) {
    if (notifyTime == Long.MIN_VALUE) {
      waited(th, node, t);
      return;
    }
    handOver(th, node, notifyChains.get(obj), notifyTime, t);
  }

  // ---- barriers

  /** The chain at the latest arrival of each barrier generation, by the replay's handle for it. */
  private Segment[] barrierSnap = new Segment[16];

  /** Thread {@code th} is now the latest arrival of the barrier generation {@code handle}. */
  void barrierArrivedLast(int handle, int th) {
    if (handle >= barrierSnap.length) {
      barrierSnap = Arrays.copyOf(barrierSnap, Math.max(handle + 1, barrierSnap.length * 2));
    }
    barrierSnap[handle] = snapshot(th);
  }

  /**
   * Thread {@code th}'s wait at a barrier at {@code node} ended at {@code t}, released by the
   * latest arrival of generation {@code handle}, at {@code releaseTime}: a {@link #handOver}.
   */
  void barrierHandOver(int th, int node, int handle, long releaseTime, long t) {
    handOver(th, node, handle < barrierSnap.length ? barrierSnap[handle] : null, releaseTime, t);
  }

  /** The barrier generation {@code handle} is done with: its chain is no longer needed. */
  void barrierDropped(int handle) {
    if (handle < barrierSnap.length) {
      barrierSnap[handle] = null;
    }
  }

  // ---- threads

  /** Thread {@code th} started thread {@code childJavaId} at {@code node} at {@code t}. */
  void threadCreated(int th, long childJavaId, int node, long t) {
    threadStarts.put(childJavaId, new ThreadStart(snapshot(th), t, node));
  }

  /**
   * Thread {@code th} began at {@code t}. It may begin twice (at its definition, then at its
   * THREAD_BEGIN when the recorder took time to open its stream): the start edge is kept, so that
   * the later begin counts the whole hand-over from the parent's {@code Thread.start}. The
   * hand-over is on the path at the start call's path: the time a thread takes to start is the
   * start's (a program that starts a thread per task sees it there, not outside every region).
   */
  void threadBegan(int th, long javaId, int rootNode, long t) {
    ThreadStart start = threadStarts.get(javaId);
    if (pos[th] == Long.MIN_VALUE) {
      pos[th] = t;
    }
    // A thread's start always precedes it: no "during the wait" test.
    if (start != null
        && start.chain() != null
        && start.time() <= t
        && heavierOrEqual(start.chain(), t, th)) {
      takeOver(th, start.node(), start.chain(), t);
    } else {
      waitedUnweighed(th, rootNode, t);
    }
  }

  // ---- the result

  /**
   * The thread whose chain is the critical path (after the replay), or -1: the chain that ends
   * where the run ends, when it shows why. The run ends where the last of the non-daemon threads
   * whose chains reach back to the run's start ended (the JVM waits for them, not for daemon
   * threads, which may outlive the run: a timer idling until the JVM exits), or at the recording's
   * end for those alive then. Of those threads' chains that end there and show every cause ({@link
   * #causes}), the heaviest. When none does (the last thread to end idled for a reason nothing
   * recorded: a pool's thread stopped by a flag or an interrupt at shutdown), or without non-daemon
   * threads, the heaviest chain of all, as for a hand-over whose cause is unseen.
   */
  int pathEnd() {
    long rootStart = Long.MAX_VALUE;
    for (int i = 0; i < chain.length; i++) {
      if (!retired[i] && !daemon[i] && pos[i] != Long.MIN_VALUE) {
        rootStart = Math.min(rootStart, start(i));
      }
    }
    long runEnd = Long.MIN_VALUE;
    for (int i = 0; i < chain.length; i++) {
      if (!retired[i] && !daemon[i] && pos[i] != Long.MIN_VALUE && start(i) == rootStart) {
        runEnd = Math.max(runEnd, pos[i]);
      }
    }
    int best = -1;
    for (int i = 0; i < chain.length; i++) {
      // Only the threads the run waited for: a daemon thread alive at the recording's end (a
      // timer idling between its checks) ends there too, but its chain says nothing of why the
      // program took this long.
      boolean shows = runEnd != Long.MIN_VALUE && !daemon[i] && pos[i] == runEnd && !unseenCause[i];
      if (!retired[i] && shows && (best < 0 || heavier(i, best))) {
        best = i;
      }
    }
    if (best >= 0) {
      return best;
    }
    for (int i = 0; i < chain.length; i++) {
      if (!retired[i] && (best < 0 || heavier(i, best))) {
        best = i;
      }
    }
    return best;
  }

  /** On-path ns per (thread, node) key of thread {@code th}'s chain. */
  Map<Long, Long> breakdown(int th) {
    Map<Long, Long> m = new HashMap<>();
    Pending p = pending[th];
    for (int i = 0; i < p.size; i++) {
      m.merge(p.keys[i], p.ns[i], Long::sum);
    }
    for (Segment s = chain[th]; s != null; s = s.prev) {
      for (int i = 0; i < s.keys.length; i++) {
        m.merge(s.keys[i], s.ns[i], Long::sum);
      }
    }
    return m;
  }

  /** The timed pieces of thread {@code th}'s chain, oldest first, at most {@link #MAX_PIECES}. */
  PathPieces pieces(int th) {
    PathPieces all = chainPieces(chain[th]);
    all.append(pending[th].pieces);
    all.coarsen(MAX_PIECES, ancestry());
    return all;
  }

  private static PathPieces chainPieces(Segment last) {
    if (last == null) {
      return new PathPieces();
    }
    return chainPieces(last, new PathPieces(Math.max(8, last.pieceCount)));
  }

  /** The pieces of the chain ending at {@code last}, oldest first, into {@code all} (emptied). */
  private static PathPieces chainPieces(Segment last, PathPieces all) {
    Segment[] order = new Segment[last.depth];
    for (Segment s = last; s != null; s = s.prev) {
      order[s.depth - 1] = s;
    }
    all.clear();
    for (Segment s : order) {
      all.append(s.pieces);
    }
    return all;
  }

  /**
   * Where folds gather a chain's pieces before coarsening them: reused, so that a fold allocates
   * only the coarsened pieces it keeps, not room for all it read (folds run every few hundred
   * snapshots of a chain of hand-overs).
   */
  private final PathPieces foldScratch = new PathPieces(4 * MAX_PIECES);

  /**
   * One segment for the chain ending at {@code s}: its on-path ns summed per key, its pieces
   * coarsened to {@link #MAX_PIECES}. The loops are in methods of their own: folds are rare but
   * long, and a fold compiled with all of them inside (three times: twice on-stack) cost half a
   * second of JIT time on a 40 M-event trace.
   */
  private Segment fold(Segment s) {
    Segment summed = sumPerKey(s);
    PathPieces all = chainPieces(s, foldScratch);
    all.coarsen(MAX_PIECES, ancestry());
    PathPieces pieces = all.copy();
    return new Segment(
        null, summed.keys, summed.ns, summed.length, s.weight, pieces, s.end, s.unseenCause);
  }

  /**
   * The chain's on-path ns summed per key, as a segment without pieces. Keys are summed through an
   * unboxed index ({@link LongIntMap}): folds run at every {@code MAX_PIECES} pieces of every
   * thread's chain, and a boxed map was most of their cost.
   */
  private static Segment sumPerKey(Segment s) {
    // Sized for the distinct keys, which are far fewer than the entries (a few per thread and call
    // path, against hundreds of segments): both grow when a chain has more.
    LongIntMap index = new LongIntMap(16);
    long[] keys = new long[16];
    long[] ns = new long[16];
    int distinct = 0;
    long total = 0;
    for (Segment x = s; x != null; x = x.prev) {
      for (int i = 0; i < x.keys.length; i++) {
        int at = index.get(x.keys[i]);
        if (at < 0) {
          at = distinct++;
          if (at == keys.length) {
            keys = Arrays.copyOf(keys, at * 2);
            ns = Arrays.copyOf(ns, at * 2);
          }
          index.put(x.keys[i], at);
          keys[at] = x.keys[i];
        }
        ns[at] += x.ns[i];
        total += x.ns[i];
      }
    }
    return new Segment(
        null,
        Arrays.copyOf(keys, distinct),
        Arrays.copyOf(ns, distinct),
        total,
        0,
        NO_PIECES,
        s.end,
        s.unseenCause);
  }
}
