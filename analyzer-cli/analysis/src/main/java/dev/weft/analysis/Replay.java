package dev.weft.analysis;

import static dev.weft.analysis.CallPathTree.ROOT;
import static dev.weft.analysis.ThreadState.F_BARRIER;
import static dev.weft.analysis.ThreadState.F_FORK;
import static dev.weft.analysis.ThreadState.F_HELP;
import static dev.weft.analysis.ThreadState.F_JOIN;
import static dev.weft.analysis.ThreadState.F_LOCK;
import static dev.weft.analysis.ThreadState.F_REGION;
import static dev.weft.analysis.ThreadState.F_SPIN;
import static dev.weft.analysis.ThreadState.F_TASK;
import static dev.weft.analysis.ThreadState.F_WAIT;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.WaitKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.DoubleConsumer;
import java.util.function.IntPredicate;

/**
 * The replay engine: one pass over the trace's events in time order, keeping per-thread state
 * (frame stack), per-lock, per-barrier-generation, per-pool and per-region-instance state, and
 * handing what it finds (waits, idle stretches, execution) to the properties. Memory is bounded by
 * threads × stack depth plus live objects; nothing is allocated per event.
 *
 * <p>Every event is replayed. {@link #finish} then ends the threads still alive at the end of the
 * run, each as far as its stream tells: see {@link #finish} for threads of a trace that was cut.
 */
final class Replay {
  private final Definitions defs;
  private final DoubleConsumer progress;
  private final long progressFrom;
  private final long progressTo;

  final CallPathTree tree = new CallPathTree();
  final SeverityCube cube = new SeverityCube();
  final List<Property> properties;

  private final Property[] idleHandlers;
  private final Property[] joinHandlers;
  private final Property[] barrierHandlers;
  private final Property[] lockHandlers;
  private final Property[] spinHandlers;
  private final Property[] waitHandlers;
  private final Property[] remainderHandlers;
  private final Property[] taskHandlers;
  private final Property[] regionHandlers;
  private final Property[] carrierHandlers;

  // Occurrences handed to properties: flyweights, reused.
  private final IdleTime idle = new IdleTime();
  private final JoinWaitSegment joinSegment = new JoinWaitSegment();
  private final JoinCauses joinCauses = new JoinCauses();
  private final BarrierArrival arrival = new BarrierArrival();
  private final LockAcquisition acquisition = new LockAcquisition();
  private final WaitSpan waitSpan = new WaitSpan();
  private final ThreadTime remainder = new ThreadTime();
  private final TaskStart taskStart = new TaskStart();
  private final CarrierSwitch carrierSwitch = new CarrierSwitch();

  final ThreadState[] threads;
  // Threads by stream id: a dense array for the usual small ids, a map for any others (stream ids
  // come from the trace and may be anything an int holds).
  private final ThreadState[] byStream;
  private final LongIntMap sparseStreams = new LongIntMap(16);
  private final ThreadState[] beginOrder;
  private int nextBeginIndex;
  private long nextBegin;

  final PoolTable pools;

  /** Null unless the caller asked for the waits one by one ({@link Analyzer.Options#withWaits}). */
  private WaitLog waits;

  final CriticalPath critical;
  private final long[] javaIds;
  private final InstanceTable instances;
  private final TaskTable tasks = new TaskTable();
  private final LockTable locks = new LockTable();
  private final LongIntMap barrierObjects = new LongIntMap(16);
  private final List<BarrierObject> barriers = new ArrayList<>();
  final List<RegionBusy> regionStats = new ArrayList<>();
  private final int[] teamScratch;
  private final long[] busyScratch;
  private final LongIntMap parallelStatByRegion = new LongIntMap(16);
  private final LongIntMap barrierStatBySite = new LongIntMap(16);
  private final LongIntMap regionKinds = new LongIntMap(64);
  private final LongIntMap objectKinds = new LongIntMap(64);
  private final LongIntMap userRegions = new LongIntMap(64);

  // What the replay saw, for the trace facts and the notes.
  long eventsRead;
  long maxTime = Long.MIN_VALUE;
  long minTime = Long.MAX_VALUE;
  final Counters counters = new Counters();

  /** Counts of things the replay could not attribute or had to correct. */
  static final class Counters {
    long eventsAfterThreadEnd;
    long exitWithoutEnter;
    long joinWithoutFork;
    long taskBeginWithoutCreate;
    long taskEndWithoutBegin;
    long taskIdReused;
    long joinWaitExitWithoutEnter;
    long barrierExitWithoutArrival;
    long partialGenerations;
    long lockReleaseWithoutAcquire;
    long lockAcquiredWhileHeld;
    long waitExitWithoutEnter;
    long spinExitWithoutEnter;
    long helpExitWithoutEnter;
    long openFramesAtEnd;
    long openWaitsAtCut;
    long eventsWithoutThread;
    long tasksStillQueued;
    long summaryTasks;
    long measurementOff;
    long virtualThreadRecords;
  }

  /** Live state of one barrier object: its generations that still have threads inside. */
  private static final class BarrierObject {
    final int stat;
    final int parties;
    int count;
    long[] generation = new long[2];
    int[] arrivals = new int[2];
    int[] departures = new int[2];
    long[] latest = new long[2];
    boolean[] noted = new boolean[2];
    boolean[] released = new boolean[2];
    CriticalPath.Segment[] lastChain = new CriticalPath.Segment[2];
    int[] lastThread = new int[2];
    int[] lastNode = new int[2];

    /** Per generation: the arrived threads and their busy ns since their previous departure. */
    int[][] team = new int[2][];

    long[][] teamBusy = new long[2][];
    long[][] teamArrival = new long[2][];

    BarrierObject(int stat, int parties) {
      this.stat = stat;
      this.parties = parties;
    }

    int find(long gen) {
      for (int i = 0; i < count; i++) {
        if (generation[i] == gen) {
          return i;
        }
      }
      return -1;
    }

    int add(long gen) {
      if (count == generation.length) {
        int cap = count * 2;
        generation = Arrays.copyOf(generation, cap);
        arrivals = Arrays.copyOf(arrivals, cap);
        departures = Arrays.copyOf(departures, cap);
        latest = Arrays.copyOf(latest, cap);
        noted = Arrays.copyOf(noted, cap);
        released = Arrays.copyOf(released, cap);
        lastChain = Arrays.copyOf(lastChain, cap);
        lastThread = Arrays.copyOf(lastThread, cap);
        lastNode = Arrays.copyOf(lastNode, cap);
        team = Arrays.copyOf(team, cap);
        teamBusy = Arrays.copyOf(teamBusy, cap);
        teamArrival = Arrays.copyOf(teamArrival, cap);
      }
      if (team[count] == null) {
        team[count] = new int[4];
        teamBusy[count] = new long[4];
        teamArrival[count] = new long[4];
      }
      int i = count++;
      generation[i] = gen;
      arrivals[i] = 0;
      departures[i] = 0;
      latest[i] = Long.MIN_VALUE;
      noted[i] = false;
      released[i] = false;
      lastChain[i] = null;
      lastThread[i] = -1;
      return i;
    }

    void remove(int i) {
      int last = --count;
      generation[i] = generation[last];
      arrivals[i] = arrivals[last];
      departures[i] = departures[last];
      latest[i] = latest[last];
      noted[i] = noted[last];
      released[i] = released[last];
      lastChain[i] = lastChain[last];
      lastThread[i] = lastThread[last];
      lastNode[i] = lastNode[last];
      lastChain[last] = null;
      int[] freedTeam = team[i];
      long[] freedBusy = teamBusy[i];
      long[] freedArrival = teamArrival[i];
      team[i] = team[last];
      teamBusy[i] = teamBusy[last];
      teamArrival[i] = teamArrival[last];
      team[last] = freedTeam;
      teamBusy[last] = freedBusy;
      teamArrival[last] = freedArrival;
    }

    /** Records an arrival (the {@code arrivals[g]}-th, already counted): busy ns, arrival time. */
    void arrive(int g, int thread, long busy, long t) {
      int k = arrivals[g] - 1;
      if (k >= team[g].length) {
        int cap = team[g].length * 2;
        team[g] = Arrays.copyOf(team[g], cap);
        teamBusy[g] = Arrays.copyOf(teamBusy[g], cap);
        teamArrival[g] = Arrays.copyOf(teamArrival[g], cap);
      }
      team[g][k] = thread;
      teamBusy[g][k] = busy;
      teamArrival[g][k] = t;
    }

    /**
     * Hands a completed generation's team to the region's per-instance imbalance. A member loses at
     * most what it waited for the last arrival: work done before the generation's common start
     * (setup between two barrier objects of the call site) is no time the barrier made it lose.
     */
    void settle(int g, RegionBusy region) {
      int n = arrivals[g];
      long max = 0;
      for (int k = 0; k < n; k++) {
        max = Math.max(max, teamBusy[g][k]);
      }
      for (int k = 0; k < n; k++) {
        long waited = Math.max(0, latest[g] - teamArrival[g][k]);
        region.lost[team[g][k]] += Math.min(max - teamBusy[g][k], waited);
      }
    }
  }

  /**
   * @param threadStates one per traced thread, indexed by their {@code index}
   * @param progress told the fraction done now and then, or null
   * @param progressFrom trace time at which progress is 0
   * @param progressTo trace time at which progress is 1 (or Long.MIN_VALUE when unknown)
   */
  Replay(
      Definitions defs,
      List<Property> properties,
      ThreadState[] threadStates,
      PoolTable pools,
      DoubleConsumer progress,
      long progressFrom,
      long progressTo) {
    this.defs = defs;
    this.properties = properties;
    this.progress = progressTo > progressFrom ? progress : null;
    this.progressFrom = progressFrom;
    this.progressTo = progressTo;
    PropertyRegistry.bind(properties, cube);
    idleHandlers = handlers("onIdle", IdleTime.class);
    joinHandlers = handlers("onJoinWait", JoinWaitSegment.class);
    barrierHandlers = handlers("onBarrierWait", BarrierArrival.class);
    lockHandlers = handlers("onLockAcquisition", LockAcquisition.class);
    spinHandlers = handlers("onSpin", WaitSpan.class);
    waitHandlers = handlers("onWait", WaitSpan.class);
    remainderHandlers = handlers("onRemainder", ThreadTime.class);
    taskHandlers = handlers("onTaskStart", TaskStart.class);
    regionHandlers = handlers("onRegion", RegionBusy.class);
    carrierHandlers = handlers("onCarrierSwitch", CarrierSwitch.class);

    this.threads = threadStates;
    this.teamScratch = new int[threadStates.length];
    this.busyScratch = new long[threadStates.length];
    this.pools = pools;
    this.critical = new CriticalPath(threads.length, tree);
    this.instances = new InstanceTable(threads.length);
    int dense = 0;
    for (ThreadState t : threads) {
      if (t.stream >= 0 && t.stream < DENSE_STREAMS + threads.length) {
        dense = Math.max(dense, t.stream + 1);
      }
    }
    this.byStream = new ThreadState[dense];
    for (ThreadState t : threads) {
      if (t.stream >= 0 && t.stream < dense) {
        byStream[t.stream] = t;
      } else {
        sparseStreams.put(t.stream, t.index);
      }
    }
    this.beginOrder = threads.clone();
    Arrays.sort(beginOrder, Comparator.comparingLong(t -> t.begin));
    this.nextBegin = beginOrder.length > 0 ? beginOrder[0].begin : Long.MAX_VALUE;
    for (RegionDef r : defs.regions()) {
      regionKinds.put(r.id(), r.kind().code());
    }
    this.javaIds = new long[threads.length];
    Arrays.fill(javaIds, Long.MIN_VALUE);
    for (ThreadDef d : defs.threads()) {
      ThreadState th = thread(d.stream());
      if (th != null) {
        javaIds[th.index] = d.javaId();
      }
    }
  }

  /** A mount or unmount of a virtual thread on carrier {@code th}, for the properties. */
  private void carrierSwitch(ThreadState th, long t, boolean mount, long vthreadJavaId) {
    if (carrierHandlers.length == 0) {
      return;
    }
    ThreadState v = thread(defs.carriedStream(vthreadJavaId));
    CarrierSwitch s = carrierSwitch;
    s.carrier = th.index;
    s.vthread = v == null ? -1 : v.index;
    s.time = t;
    s.mount = mount;
    for (Property p : carrierHandlers) {
      p.onCarrierSwitch(s);
    }
  }

  /**
   * The properties that receive a callback from the engine: those overriding it whose parent does
   * not (a parent that handles a callback notifies its children itself).
   */
  private Property[] handlers(String method, Class<?> occurrence) {
    List<Property> list = new ArrayList<>();
    for (Property p : properties) {
      if (overrides(p, method, occurrence)
          && (p.parent() == null || !overrides(p.parent(), method, occurrence))) {
        list.add(p);
      }
    }
    return list.toArray(new Property[0]);
  }

  private static boolean overrides(Property p, String method, Class<?> occurrence) {
    try {
      return p.getClass().getMethod(method, occurrence).getDeclaringClass() != Property.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  // ---- the pass ---------------------------------------------------------------------------------

  /** Stream ids below this plus the thread count are looked up in an array, others in a map. */
  private static final int DENSE_STREAMS = 1024;

  /** The thread of a stream, or null. */
  ThreadState thread(int stream) {
    if (stream >= 0 && stream < byStream.length) {
      return byStream[stream];
    }
    int i = sparseStreams.get(stream);
    return i >= 0 ? threads[i] : null;
  }

  /** Replays every event of {@code c}. */
  void run(EventCursor c) {
    long n = 0;
    while (c.next()) {
      long t = c.time();
      if (n++ == 0) {
        minTime = t;
      }
      maxTime = t; // events come in time order
      if (t >= nextBegin) {
        beginThreadsUpTo(t);
      }
      int stream = c.stream();
      ThreadState th = stream >= 0 && stream < byStream.length ? byStream[stream] : thread(stream);
      if (th == null) {
        counters.eventsWithoutThread++; // the reader hands out only defined streams' events
        continue;
      }
      th.events++;
      if (th.ended) {
        counters.eventsAfterThreadEnd++;
        continue;
      }
      EventKind kind = c.kind();
      if (!th.started || th.events == 1 && kind == EventKind.THREAD_BEGIN && th.depth == 0) {
        // A thread starts with its run(), at THREAD_BEGIN: the time from its definition to there
        // is the recorder opening the thread's stream, which is not the thread's work.
        beginThread(th, t);
      }
      charge(th, t);
      // Region enter/exit dominate traces: kept here, everything else in its own method so that
      // the JIT's inlining budget of this loop goes to the common path.
      if (kind == EventKind.ENTER) {
        enter(th, t, (int) c.field(0));
      } else if (kind == EventKind.EXIT) {
        exit(th, t, (int) c.field(0));
      } else {
        other(th, t, kind, c);
      }
      if ((n & 0xFFFFF) == 0 && progress != null) {
        progress.accept(Math.min(1.0, (double) (t - progressFrom) / (progressTo - progressFrom)));
      }
    }
    eventsRead = n;
  }

  private void other(ThreadState th, long t, EventKind kind, EventCursor c) {
    switch (kind) {
      case FORK:
        fork(th, t, (int) c.field(0), (int) c.field(1));
        break;
      case JOIN:
        join(th, t, (int) c.field(0));
        break;
      case TASK_CREATE:
        taskCreate(th, t, (int) c.field(0), c.field(1), (int) c.field(2));
        break;
      case TASK_BEGIN:
        taskBegin(th, t, c.field(0));
        break;
      case TASK_END:
        taskEnd(th, t, c.field(0));
        break;
      case JOIN_WAIT_ENTER:
        {
          int r = (int) c.field(0);
          int i = push(th, F_JOIN, childOrSame(th.currentNode(), r), r, t, r, -1);
          critical.joinEntered(th.index, i, c.field(1));
          joinCauses.entered(th.index, i, c.field(1));
          break;
        }
      case JOIN_WAIT_EXIT:
        joinWaitExit(th, t, (int) c.field(0));
        break;
      case BARRIER_ENTER:
        barrierEnter(th, t, (int) c.field(0), c.field(1), c.field(2));
        break;
      case BARRIER_EXIT:
        barrierExit(th, t, c.field(1), c.field(2), (int) c.field(3));
        break;
      case LOCK_REQUEST:
        lockRequest(th, t, (int) c.field(0), c.field(1));
        break;
      case LOCK_ACQUIRED:
        lockAcquired(th, t, c.field(0), (int) c.field(1));
        break;
      case LOCK_RELEASED:
        lockReleased(th, t, c.field(0));
        break;
      case WAIT_ENTER:
        waitEnter(th, t, (int) c.field(0), (int) c.field(1));
        break;
      case WAIT_EXIT:
        waitExit(th, t, (int) c.field(0));
        break;
      case SPIN_ENTER:
        {
          int r = (int) c.field(0);
          push(th, F_SPIN, tree.child(th.currentNode(), r), r, t, r, -1);
          break;
        }
      case SPIN_EXIT:
        spinExit(th, t, (int) c.field(0));
        break;
      case HELP_ENTER:
        {
          int r = (int) c.field(0);
          push(th, F_HELP, tree.child(th.currentNode(), r), r, t, r, -1);
          break;
        }
      case HELP_EXIT:
        helpExit(th, t, (int) c.field(0));
        break;
      case TASK_SUMMARY:
        taskSummary(th, t, (int) c.field(0), c.field(2), c.field(3));
        break;
      case THREAD_END:
        endThread(th, t);
        break;
      case THREAD_CREATE:
        critical.threadCreated(th.index, c.field(1), t);
        break;
      case DROPPED:
        th.droppedEvents = saturatedAdd(th.droppedEvents, c.field(0));
        break;
      case MEASUREMENT_OFF:
        counters.measurementOff++;
        break;
      case VTHREAD_MOUNT:
      case VTHREAD_UNMOUNT:
        counters.virtualThreadRecords++;
        carrierSwitch(th, t, kind == EventKind.VTHREAD_MOUNT, c.field(0));
        break;
      case NOTIFY:
        if (c.field(2) == WaitKind.OBJECT_WAIT || c.field(2) == WaitKind.CONDITION_AWAIT) {
          critical.notified(th.index, th.currentNode(), c.field(1), t);
        }
        break;
      default:
        // THREAD_BEGIN, MEASUREMENT_ON: nothing to replay.
        break;
    }
  }

  /**
   * Ends the replay at {@code end}, the end of the run, and ends every thread still alive (without
   * THREAD_END) as far as its stream tells:
   *
   * <ul>
   *   <li>its stream is damaged ({@code damaged}: cut short or corrupt, so its later events are
   *       lost): at its own last whole event; nothing open there is counted further;
   *   <li>the trace was closed cleanly: at {@code end} (the END record), with everything still open
   *       counted up to it, as the complete recording says;
   *   <li>the trace was cut (no END record) and the thread was blocked at its last event, i.e. its
   *       innermost frame is a join wait, barrier wait, lock request, wait (including sleep and
   *       park) or spin, or it is a pool worker outside any task (idle): at {@code end}, the cut;
   *       its open waits are counted up to the cut and marked open ({@link
   *       Counters#openWaitsAtCut});
   *   <li>the trace was cut and the thread was running at its last event (in a region, task or
   *       fork, or outside any region): at its own last event. It was alive until the cut, but what
   *       it did after its last event is unknown (running untraced code, blocked somewhere not
   *       recorded, or gone without a THREAD_END), so no time after it is counted, neither as
   *       execution nor as a wait; the frames still open are closed there.
   * </ul>
   *
   * @param closedCleanly the trace has its END record (and complete definitions)
   * @param damaged true for a stream id whose file was cut short or corrupt
   */
  void finish(long end, boolean closedCleanly, IntPredicate damaged) {
    beginThreadsUpTo(end);
    List<ThreadState> early = new ArrayList<>();
    List<ThreadState> atEnd = new ArrayList<>();
    for (ThreadState th : threads) {
      if (!th.started) {
        continue;
      }
      if (th.ended) {
        th.endKind = ThreadState.END_RECORDED;
        continue;
      }
      if (damaged.test(th.stream)) {
        th.endKind = ThreadState.END_DAMAGED;
        early.add(th);
      } else if (closedCleanly) {
        th.endKind = ThreadState.END_AT_CLOSE;
        atEnd.add(th);
      } else if (th.depth > 0 ? isWait(th.kind[th.depth - 1]) : th.worker()) {
        th.endKind = th.depth > 0 ? ThreadState.END_BLOCKED : ThreadState.END_IDLE;
        atEnd.add(th);
      } else {
        th.endKind = ThreadState.END_RUNNING;
        early.add(th);
      }
    }
    // Threads that stop early are closed first, in time order, so that pool and region-instance
    // state changes stay in time order as far as they can.
    early.sort(Comparator.comparingLong(th -> th.lastT));
    for (ThreadState th : early) {
      stop(th, th.lastT);
    }
    for (ThreadState th : atEnd) {
      if (th.endKind == ThreadState.END_AT_CLOSE) {
        counters.openFramesAtEnd += th.depth;
      } else {
        for (int i = 0; i < th.depth; i++) {
          if (isWait(th.kind[i])) {
            counters.openWaitsAtCut++;
          }
        }
      }
      stop(th, end);
    }
    tasks.forEachLive(
        s -> {
          if (!tasks.begun[s]) {
            counters.tasksStillQueued++;
            if (tasks.creator[s] >= 0) {
              startTask(s, end, true);
            }
          }
        });
    for (RegionBusy r : regionStats) {
      for (Property p : regionHandlers) {
        p.onRegion(r);
      }
    }
  }

  /** Frames in which a thread is held up rather than running. */
  private static boolean isWait(byte kind) {
    return kind == F_JOIN
        || kind == F_BARRIER
        || kind == F_LOCK
        || kind == F_WAIT
        || kind == F_SPIN;
  }

  /** Ends a thread that did not end itself at {@code t}: charges it and closes what is open. */
  private void stop(ThreadState th, long t) {
    charge(th, t);
    closeAll(th, t);
  }

  /** Closes everything the thread has open at {@code t}, which becomes its end. */
  private void closeAll(ThreadState th, long t) {
    while (th.depth > 0) {
      closeTop(th, t);
    }
    if (th.worker()) {
      endIdle(th, t, -1);
    }
    flushIdle(th);
    flushExec(th);
    th.end = t;
  }

  /** {@code a + b} for a count and an unsigned field value, saturating at Long.MAX_VALUE. */
  private static long saturatedAdd(long a, long unsignedB) {
    if (unsignedB < 0) {
      return Long.MAX_VALUE;
    }
    long r = a + unsignedB;
    return r < a ? Long.MAX_VALUE : r;
  }

  private void beginThreadsUpTo(long t) {
    while (nextBeginIndex < beginOrder.length && beginOrder[nextBeginIndex].begin <= t) {
      ThreadState th = beginOrder[nextBeginIndex++];
      if (!th.started) {
        beginThread(th, th.begin);
      }
    }
    nextBegin =
        nextBeginIndex < beginOrder.length ? beginOrder[nextBeginIndex].begin : Long.MAX_VALUE;
  }

  /** Hands every wait, as it ends, to {@code sink}. */
  void handWaitsTo(Analyzer.WaitSink sink) {
    waits = new WaitLog(sink, this, properties);
    cube.log = waits;
  }

  Definitions defs() {
    return defs;
  }

  private void beginWait() {
    if (waits != null) {
      waits.begin();
    }
  }

  private void beginThread(ThreadState th, long t) {
    th.started = true;
    th.begin = t;
    th.lastT = t;
    if (th.worker()) {
      startIdle(th, t);
    }
    critical.threadBegan(th.index, javaIds[th.index], ROOT, t);
  }

  private void endThread(ThreadState th, long t) {
    closeAll(th, t);
    th.ended = true;
    critical.completed(th.index, t, javaIds[th.index], true);
    joinCauses.ended(th.index, ROOT, javaIds[th.index], t);
  }

  // ---- time accounting --------------------------------------------------------------------------

  /** Charges the thread's time since its previous event to its innermost frame. */
  private void charge(ThreadState th, long t) {
    long d = t - th.lastT;
    if (d <= 0) {
      return;
    }
    th.lastT = t;
    int top = th.depth - 1;
    if (top < 0) {
      if (!th.worker()) {
        exec(th, ROOT, -1, d);
        critical.work(th.index, ROOT, t);
      } else {
        critical.waiting(th.index, ROOT, t);
      }
      // A worker's idle stretch is measured from its start when it ends.
      return;
    }
    byte k = th.kind[top];
    if (k < F_JOIN) {
      // Regions, forks, tasks and helping (the common case): execution.
      exec(th, th.node[top], th.stat[top], d);
      critical.work(th.index, th.node[top], t);
      return;
    }
    switch (k) {
      case F_JOIN:
        {
          th.accum[top] += d;
          critical.waiting(th.index, th.node[top], t);
          int inst = th.inst[top];
          if (inst >= 0
              && instances.master[inst] == th.index
              && instances.liveTasks[inst] == 0
              && instances.lastTaskEnd[inst] != Long.MIN_VALUE) {
            long from = Math.max(t - d, instances.lastTaskEnd[inst]);
            if (t > from) {
              th.aux[top] += t - from;
            }
          }
          break;
        }
      case F_BARRIER:
      case F_LOCK:
      case F_WAIT:
      case F_SPIN:
        th.accum[top] += d;
        critical.waiting(th.index, th.node[top], t);
        break;
      default:
        exec(th, th.node[top], th.stat[top], d);
        critical.work(th.index, th.node[top], t);
        break;
    }
  }

  private void exec(ThreadState th, int node, int stat, long d) {
    int s = node & (ThreadState.EXEC_SLOTS - 1);
    if (th.execNode[s] != node || th.execStat[s] != stat) {
      flushExec(th, s);
      th.execNode[s] = node;
      th.execStat[s] = stat;
    }
    th.execAmount[s] += d;
    th.execTotal += d;
    if (stat >= 0 && d > 0) {
      RegionBusy r = regionStats.get(stat);
      r.busy[th.index] += d;
      r.member[th.index] = true;
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
    remainder.reset(cube, th.index, th.execNode[s], th.lastT - a, th.lastT, a);
    for (Property p : remainderHandlers) {
      p.onRemainder(remainder);
    }
  }

  /** Gives what no property claimed of a finished wait to execution at the wait's call path. */
  private void rest(ThreadState th, ThreadTime w, int stat) {
    long u = w.unclaimed();
    if (u > 0) {
      exec(th, w.node(), stat, u);
    }
  }

  private void startIdle(ThreadState th, long t) {
    th.idleStart = t;
    th.idleInFlightAtStart = pools.inFlightUpTo(th.pool, t);
  }

  /**
   * Ends a worker's idle stretch at {@code e}. When it ends with the worker's first task of region
   * instance {@code inst}, the part after that instance's fork is handed over at once (it belongs
   * to the region's call path); the rest waits in the thread's pending idle time until a task
   * summary or the thread's end.
   */
  private void endIdle(ThreadState th, long e, int inst) {
    long s = th.idleStart;
    long total = e - s;
    if (total <= 0) {
      return;
    }
    long inFlight = pools.inFlightUpTo(th.pool, e) - th.idleInFlightAtStart;
    long afterFork = 0;
    if (inst >= 0 && !instances.started(inst, th.index)) {
      afterFork = Math.min(total, e - Math.max(s, instances.fork[inst]));
      if (afterFork > 0) {
        inFlight = Math.max(inFlight, afterFork);
        dispatchIdle(th, afterFork, afterFork, afterFork, instances.node[inst], e - afterFork, e);
      } else {
        afterFork = 0;
      }
    }
    th.pendingIdle += total - afterFork;
    th.pendingIdleInFlight += Math.min(inFlight, total) - afterFork;
    th.idleStart = e;
    th.idleInFlightAtStart = pools.inFlightUpTo(th.pool, e);
  }

  private void flushIdle(ThreadState th) {
    long total = th.pendingIdle;
    if (total > 0) {
      long inFlight = Math.max(0, Math.min(th.pendingIdleInFlight, total));
      dispatchIdle(th, total, inFlight, 0, -1, th.idleStart - total, th.idleStart);
    }
    th.pendingIdle = 0;
    th.pendingIdleInFlight = 0;
  }

  private void dispatchIdle(
      ThreadState th, long total, long inFlight, long afterFork, int forkNode, long s, long e) {
    idle.reset(cube, th.index, ROOT, s, e, total);
    idle.inFlight = inFlight;
    idle.afterFork = afterFork;
    idle.forkNode = forkNode;
    for (Property p : idleHandlers) {
      p.onIdle(idle);
    }
    rest(th, idle, -1);
  }

  // ---- frames -----------------------------------------------------------------------------------

  /** Pushes a frame that inherits the enclosing region instance; returns its index. */
  private int push(
      ThreadState th, byte kind, int node, int region, long t, long obj, int endsIdleOf) {
    return pushIn(
        th, kind, node, region, th.currentInstance(), th.currentStat(), t, obj, endsIdleOf);
  }

  private int pushIn(
      ThreadState th,
      byte kind,
      int node,
      int region,
      int inst,
      int stat,
      long t,
      long obj,
      int endsIdleOf) {
    if (th.depth == 0 && th.worker()) {
      endIdle(th, t, endsIdleOf);
    }
    return th.push(kind, node, region, inst, stat, t, obj);
  }

  private void pop(ThreadState th, long t) {
    th.depth--;
    if (th.depth == 0 && th.worker()) {
      startIdle(th, t);
    }
  }

  /** Closes frames above {@code i} as if they ended at {@code t} (their end events are missing). */
  private void closeAbove(ThreadState th, int i, long t) {
    while (th.depth - 1 > i) {
      closeTop(th, t);
    }
  }

  private void closeTop(ThreadState th, long t) {
    int top = th.depth - 1;
    switch (th.kind[top]) {
      case F_BARRIER:
        finishBarrier(th, top, t, 0, false);
        break;
      case F_LOCK:
        finishLock(th, top, t, 0, false);
        break;
      case F_JOIN:
        finishJoin(th, top, t);
        break;
      case F_WAIT:
        finishWait(th, top, t);
        break;
      case F_SPIN:
        finishSpin(th, top, t);
        break;
      case F_TASK:
        finishTask(th, top, t);
        break;
      case F_FORK:
        finishFork(th, top, t);
        break;
      default:
        break;
    }
    pop(th, t);
  }

  /**
   * Finds the innermost frame of {@code kind} for {@code key} (falling back to any of that kind).
   */
  private static int match(ThreadState th, byte kind, long key) {
    int top = th.depth - 1;
    if (top >= 0 && th.kind[top] == kind && th.obj[top] == key) {
      return top;
    }
    int i = th.find(kind, key);
    return i >= 0 ? i : th.find(kind);
  }

  // ---- regions ----------------------------------------------------------------------------------

  private void enter(ThreadState th, long t, int r) {
    int top = th.depth - 1;
    if (top < 0) {
      push(th, F_REGION, tree.child(ROOT, r), r, t, r, -1); // may end a worker's idle stretch
      return;
    }
    // Inside a frame (the common case): the new frame inherits its instance and region stat.
    th.push(F_REGION, tree.child(th.node[top], r), r, th.inst[top], th.stat[top], t, r);
  }

  private void exit(ThreadState th, long t, int r) {
    int top = th.depth - 1;
    if (top >= 0 && th.kind[top] == F_REGION && th.obj[top] == r) {
      pop(th, t);
      return;
    }
    int i = th.find(F_REGION, r);
    if (i < 0) {
      counters.exitWithoutEnter++;
      return;
    }
    closeAbove(th, i, t);
    pop(th, t);
  }

  private void helpExit(ThreadState th, long t, int r) {
    int i = match(th, F_HELP, r);
    if (i < 0) {
      counters.helpExitWithoutEnter++;
      return;
    }
    closeAbove(th, i, t);
    pop(th, t);
  }

  // ---- fork/join and tasks ----------------------------------------------------------------------

  private void fork(ThreadState th, long t, int r, int poolId) {
    int poolSlot = pools.slot(poolId);
    int node = tree.child(th.currentNode(), r);
    int stat = parallelStat(r, node);
    regionStats.get(stat).instances++;
    int inst = instances.open(stat, node, th.index, poolSlot, t);
    System.arraycopy(regionStats.get(stat).busy, 0, instances.busyAtFork[inst], 0, threads.length);
    pools.change(poolSlot, t, 1, 0);
    pushIn(th, F_FORK, node, r, inst, stat, t, r, -1);
  }

  private void join(ThreadState th, long t, int r) {
    int i = th.find(F_FORK, r);
    if (i < 0) {
      counters.joinWithoutFork++;
      return;
    }
    closeAbove(th, i, t);
    finishFork(th, i, t);
    pop(th, t);
  }

  private void finishFork(ThreadState th, int i, long t) {
    int inst = th.inst[i];
    instances.open[inst] = false;
    int p = instances.pool[inst];
    pools.change(p, t, -1, 0);
    RegionBusy stat = regionStats.get(instances.stat[inst]);
    // The instance's team: every thread that worked in it, and the pool's workers alive during it
    // (idle ones could have taken work). A master that only waited for the join is not in it: its
    // wait is join_wait, not work it lacked.
    long[] before = instances.busyAtFork[inst];
    int count = 0;
    for (int k = 0; k < threads.length; k++) {
      if (stat.busy[k] > before[k]) {
        teamScratch[count] = k;
        busyScratch[count++] = stat.busy[k] - before[k];
        before[k] = Long.MIN_VALUE;
      }
    }
    if (p >= 0) {
      long forkTime = instances.fork[inst];
      for (int k = 0; k < pools.workerCount[p]; k++) {
        ThreadState w = threads[pools.workers[p][k]];
        if (w.started
            && w.begin <= t
            && (!w.ended || w.end >= forkTime)
            && before[w.index] != Long.MIN_VALUE) {
          teamScratch[count] = w.index;
          busyScratch[count++] = 0;
          before[w.index] = Long.MIN_VALUE;
        }
      }
    }
    for (int k = 0; k < count; k++) {
      stat.member[teamScratch[k]] = true;
    }
    stat.settleInstance(teamScratch, busyScratch, count);
    instances.release(inst);
  }

  private int parallelStat(int region, int node) {
    int s = parallelStatByRegion.get(region);
    if (s < 0) {
      s = regionStats.size();
      regionStats.add(new RegionBusy(false, region, node, threads.length));
      parallelStatByRegion.put(region, s);
    }
    return s;
  }

  /**
   * The node of a call made at region {@code r} under {@code parent}: the parent itself when it is
   * the same call site (ForkJoinPool.invoke records a FORK, then its JOIN_WAIT and TASK_CREATE at
   * one call site: one frame, not three).
   */
  private int childOrSame(int parent, int r) {
    return parent != ROOT && tree.realRegion(parent) == r ? parent : tree.child(parent, r);
  }

  /**
   * The call path of a task created at region {@code r}: the creator's path plus the task's frame,
   * named by user code ({@link TaskNames}): the creation site when it is the user's, else the
   * nearest user code on the creator's path (the enclosing task or region). A fork recorded inside
   * the JDK ({@code ForkJoinPool$WorkQueue.push}) is thus named by the task that forked it, and a
   * recursive task's subtasks share its frame.
   */
  private int taskNode(int parent, int r) {
    return tree.task(parent, userSite(parent, r));
  }

  private int userSite(int parent, int r) {
    if (userCode(r)) {
      return r;
    }
    for (int n = parent; n > ROOT; n = tree.parent(n)) {
      int site = tree.taskSite(n);
      if (site != Integer.MIN_VALUE) {
        return site;
      }
      int real = tree.realRegion(n);
      if (real != Integer.MIN_VALUE && userCode(real)) {
        return real;
      }
    }
    return r; // no user code open: the creation site is all there is to name it by
  }

  private boolean userCode(int r) {
    int user = userRegions.get(r);
    if (user < 0) {
      user = TaskNames.isUserCode(defs.region(r)) ? 1 : 0;
      userRegions.put(r, user);
    }
    return user == 1;
  }

  private void taskCreate(ThreadState th, long t, int r, long task, int poolId) {
    int poolSlot = pools.slot(poolId);
    int node = taskNode(th.currentNode(), r);
    int inst = th.currentInstance();
    int old = tasks.get(task);
    if (old >= 0) {
      counters.taskIdReused++;
      endTaskRecord(old, t);
    }
    // Where it was created: the creator's path, with the creation site when it is user code.
    int at = userCode(r) ? childOrSame(th.currentNode(), r) : th.currentNode();
    int slot = tasks.add(task, node, at, poolSlot, th.index, inst, t);
    critical.taskCreated(slot, th.index);
    if (inst >= 0) {
      instances.liveTasks[inst]++;
      instances.retain(inst);
    }
    pools.change(poolSlot, t, 0, 1);
  }

  private void taskBegin(ThreadState th, long t, long task) {
    int s = tasks.get(task);
    int inst;
    int node;
    if (s < 0) {
      // Created before the trace started (or by an untraced thread): its origin is unknown.
      counters.taskBeginWithoutCreate++;
      node = tree.unknownTask(th.currentNode());
      s = tasks.add(task, node, node, th.pool, -1, -1, t);
      tasks.begun[s] = true;
      pools.change(th.pool, t, 0, 1);
      inst = -1;
    } else {
      node = tasks.node[s];
      inst = tasks.inst[s];
      if (!tasks.begun[s]) {
        tasks.begun[s] = true;
        startTask(s, t, false);
        CriticalPath.Segment created = critical.taskCreation(s);
        if (th.depth == 0 && th.worker()) {
          // An idle worker waited for this submission.
          critical.idleEnded(th.index, node, created, tasks.created[s], t);
        }
      }
    }
    int stat = inst >= 0 ? instances.stat[inst] : -1;
    int i = pushIn(th, F_TASK, node, -1, inst, stat, t, task, inst);
    th.aux[i] = s;
    if (inst >= 0) {
      instances.markStarted(inst, th.index);
    }
  }

  private void startTask(int s, long t, boolean stillQueued) {
    TaskStart ts = taskStart;
    ts.creator = tasks.creator[s];
    ts.node = tasks.createdAt[s];
    ts.pool = tasks.pool[s];
    ts.poolName = ts.pool >= 0 ? pools.name[ts.pool] : "(no pool)";
    ts.created = tasks.created[s];
    ts.begun = t;
    ts.stillQueued = stillQueued;
    if (ts.creator < 0) {
      return;
    }
    beginWait();
    for (Property p : taskHandlers) {
      p.onTaskStart(ts);
    }
    if (waits != null) {
      waits.end("queue", ts.poolName, ts.creator, ts.created, t, 0, -1);
    }
  }

  private void taskEnd(ThreadState th, long t, long task) {
    int i = th.find(F_TASK, task);
    if (i < 0) {
      counters.taskEndWithoutBegin++;
      int s = tasks.get(task);
      if (s >= 0) {
        endTaskRecord(s, t);
      }
      return;
    }
    closeAbove(th, i, t);
    finishTask(th, i, t);
    pop(th, t);
  }

  private void finishTask(ThreadState th, int i, long t) {
    critical.completed(th.index, t, th.obj[i], false);
    joinCauses.ended(th.index, th.node[i], th.obj[i], t);
    int s = (int) th.aux[i];
    if (tasks.live(s, th.obj[i])) {
      endTaskRecord(s, t);
    }
  }

  private void endTaskRecord(int s, long t) {
    pools.change(tasks.pool[s], t, 0, -1);
    int inst = tasks.inst[s];
    if (inst >= 0) {
      instances.liveTasks[inst]--;
      if (t > instances.lastTaskEnd[inst]) {
        instances.lastTaskEnd[inst] = t;
      }
      instances.release(inst);
    }
    tasks.remove(s);
  }

  private void taskSummary(ThreadState th, long t, int r, long count, long duration) {
    counters.summaryTasks = saturatedAdd(counters.summaryTasks, count);
    if (!th.worker() || th.depth > 0) {
      return; // the summarised tasks ran inside recorded activity: already execution
    }
    endIdle(th, t, -1);
    // Fields are unsigned: a duration above Long.MAX_VALUE reads as negative here.
    long busy = duration < 0 ? th.pendingIdle : Math.min(duration, th.pendingIdle);
    long fromInFlight = Math.min(busy, th.pendingIdleInFlight);
    th.pendingIdle -= busy;
    th.pendingIdleInFlight -= fromInFlight;
    flushIdle(th);
    if (busy > 0) {
      exec(th, tree.child(ROOT, r), -1, busy);
      critical.work(th.index, tree.child(ROOT, r), t);
    }
  }

  private void joinWaitExit(ThreadState th, long t, int r) {
    int i = match(th, F_JOIN, r);
    if (i < 0) {
      counters.joinWaitExitWithoutEnter++;
      return;
    }
    closeAbove(th, i, t);
    finishJoin(th, i, t);
    pop(th, t);
  }

  private void finishJoin(ThreadState th, int i, long t) {
    JoinWaitSegment j = joinSegment;
    j.reset(cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    int inst = th.inst[i];
    j.master = inst >= 0 && instances.master[inst] == th.index;
    j.afterLastTask = Math.min(th.aux[i], th.accum[i]);
    long[] cause = joinCauses.joined(th.index, i, th.start[i], t);
    j.causeTime = cause == null ? Long.MIN_VALUE : cause[0];
    j.causer = cause == null ? -1 : (int) cause[1];
    j.causerNode = cause == null ? ROOT : (int) cause[2];
    beginWait();
    for (Property p : joinHandlers) {
      p.onJoinWait(j);
    }
    if (waits != null) {
      int rk = regionKinds.get(th.region[i]);
      String construct = rk < 0 ? null : ConstructKind.ofCode(rk).id();
      waits.end("join", construct, th.index, th.start[i], t, 0, -1);
    }
    critical.joinEnded(th.index, i, th.node[i], th.start[i], t);
    rest(th, j, th.stat[i]);
  }

  // ---- barriers ---------------------------------------------------------------------------------

  private void barrierEnter(ThreadState th, long t, int r, long obj, long gen) {
    int node = tree.child(th.currentNode(), r);
    int b = barrierObjects.get(obj);
    if (b < 0) {
      b = barriers.size();
      ObjectDef def = defs.object(obj);
      int parties =
          def != null && def.kind() == ConstructKind.CYCLIC_BARRIER
              ? Math.max(0, def.parties())
              : 0;
      barriers.add(new BarrierObject(barrierStat(r, node), parties));
      barrierObjects.put(obj, b);
    }
    BarrierObject bo = barriers.get(b);
    int g = bo.find(gen);
    RegionBusy stat = regionStats.get(bo.stat);
    if (g < 0) {
      g = bo.add(gen);
      stat.instances++;
    }
    bo.arrivals[g]++;
    if (t >= bo.latest[g]) {
      bo.latest[g] = t;
      bo.lastChain[g] = critical.snapshot(th.index);
      bo.lastThread[g] = th.index;
      bo.lastNode[g] = th.currentNode();
    }
    // Busy time since the previous departure (or thread start): execution in between.
    long busy = th.execTotal - stat.snapshot[th.index];
    stat.busy[th.index] += busy;
    stat.snapshot[th.index] = th.execTotal;
    stat.member[th.index] = true;
    bo.arrive(g, th.index, busy, t);
    int i = push(th, F_BARRIER, node, r, t, obj, -1);
    th.aux[i] = gen;
  }

  private int barrierStat(int site, int node) {
    int s = barrierStatBySite.get(site);
    if (s < 0) {
      s = regionStats.size();
      RegionBusy r = new RegionBusy(true, site, node, threads.length);
      r.snapshot = new long[threads.length];
      regionStats.add(r);
      barrierStatBySite.put(site, s);
    }
    return s;
  }

  private void barrierExit(ThreadState th, long t, long obj, long gen, int outcome) {
    int i = th.find(F_BARRIER, obj);
    if (i < 0) {
      int b = barrierObjects.get(obj);
      int g = b >= 0 ? barriers.get(b).find(gen) : -1;
      if ((outcome & BarrierOutcome.LAST) != 0) {
        // A releasing arrival recorded as a departure only (e.g. the count-down that opens a
        // latch).
        if (g >= 0) {
          BarrierObject bo = barriers.get(b);
          if (t >= bo.latest[g]) {
            bo.latest[g] = t;
            bo.lastChain[g] = critical.snapshot(th.index);
            bo.lastThread[g] = th.index;
            bo.lastNode[g] = th.currentNode();
          }
          bo.released[g] = true;
        }
      } else {
        counters.barrierExitWithoutArrival++;
      }
      return;
    }
    closeAbove(th, i, t);
    finishBarrier(th, i, t, outcome, true);
    pop(th, t);
  }

  private void finishBarrier(ThreadState th, int i, long t, int outcome, boolean departed) {
    long obj = th.obj[i];
    long gen = th.aux[i];
    BarrierObject bo = barriers.get(barrierObjects.get(obj));
    int g = bo.find(gen);
    BarrierArrival a = arrival;
    a.reset(cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    a.object = obj;
    a.generation = gen;
    a.latestArrival = g >= 0 ? bo.latest[g] : th.start[i];
    if (!departed
        && (g < 0 || !bo.released[g])
        && (bo.parties == 0 || g < 0 || bo.arrivals[g] < bo.parties)) {
      // Still waiting where its wait ends (the run ended, or the departure is missing) and nothing
      // says the generation was complete: the thread was waiting for an arrival that had not come,
      // so the whole wait is waiting for the last arrival, none of it release latency.
      a.latestArrival = t;
    }
    a.outcome = outcome;
    a.departed = departed;
    a.lastArriver = g >= 0 ? bo.lastThread[g] : -1;
    a.lastArriverNode = g >= 0 ? bo.lastNode[g] : ROOT;
    beginWait();
    for (Property p : barrierHandlers) {
      p.onBarrierWait(a);
    }
    if (waits != null) {
      int last = a.lastArriver != th.index ? a.lastArriver : -1;
      String construct = lockKind(obj, th.region[i]).id();
      waits.end("barrier", construct, th.index, th.start[i], t, obj, last);
    }
    if (departed && g >= 0 && bo.lastThread[g] >= 0 && bo.lastThread[g] != th.index) {
      critical.handOver(th.index, th.node[i], bo.lastChain[g], bo.latest[g], t);
    } else {
      critical.waited(th.index, th.node[i], t);
    }
    rest(th, a, th.stat[i]);
    if (g >= 0) {
      if (departed) {
        bo.released[g] = true;
      }
      if (departed && bo.parties > 0 && bo.arrivals[g] < bo.parties && !bo.noted[g]) {
        bo.noted[g] = true;
        counters.partialGenerations++;
      }
      if (++bo.departures[g] >= bo.arrivals[g]) {
        bo.settle(g, regionStats.get(bo.stat));
        bo.remove(g);
      }
    }
    regionStats.get(bo.stat).snapshot[th.index] = th.execTotal;
  }

  // ---- locks ------------------------------------------------------------------------------------

  private void lockRequest(ThreadState th, long t, int r, long obj) {
    int l = locks.getOrAdd(obj);
    locks.waiters[l]++;
    int holder = locks.holder[l];
    boolean exclusiveByOther = holder >= 0 && holder != th.index;
    int ownShared = 0;
    for (int k = 0; k < th.heldCount; k++) {
      if (th.held[k] == obj && th.heldShared[k]) {
        ownShared++;
      }
    }
    boolean byOther = exclusiveByOther || locks.shared[l] - ownShared > 0;
    int i = push(th, F_LOCK, tree.child(th.currentNode(), r), r, t, obj, -1);
    th.aux[i] = (exclusiveByOther ? 1 : 0) | (byOther ? 2 : 0);
  }

  private void lockAcquired(ThreadState th, long t, long obj, int flags) {
    int i = th.find(F_LOCK, obj);
    if (i >= 0) {
      closeAbove(th, i, t);
      finishLock(th, i, t, flags, true);
      pop(th, t);
    }
    takeLock(th, obj, flags);
  }

  private void finishLock(ThreadState th, int i, long t, int flags, boolean acquired) {
    long obj = th.obj[i];
    int l = locks.get(obj);
    LockAcquisition a = acquisition;
    a.reset(cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    a.object = obj;
    a.flags = flags;
    a.acquired = acquired;
    a.heldExclusivelyByOther = (th.aux[i] & 1) != 0;
    a.heldByOther = (th.aux[i] & 2) != 0;
    if ((flags & LockFlags.CONTENDED) != 0) {
      // The JVM saw this wait for another thread's hold, which the trace does not show.
      a.heldByOther = true;
      a.heldExclusivelyByOther = true;
    }
    if (l >= 0) {
      a.lastRelease = locks.lastRelease[l];
      a.lastReleaser = locks.lastReleaser[l];
      a.releaserNode = locks.releaseNode[l];
      a.lastExclusiveRelease = locks.lastExclusiveRelease[l];
      a.lastExclusiveReleaser = locks.lastExclusiveReleaser[l];
      a.releases = locks.releases[l];
      a.releaseTimes = locks.releaseTimes[l];
      a.releaseThreads = locks.releaseThreads[l];
      a.releaseNodes = locks.releaseNodes[l];
    } else {
      a.releases = 0;
      a.lastRelease = LockTable.NEVER;
      a.lastReleaser = -1;
      a.lastExclusiveRelease = LockTable.NEVER;
      a.lastExclusiveReleaser = -1;
    }
    ConstructKind kind = lockKind(obj, th.region[i]);
    a.kind = kind;
    if (!acquired && l >= 0 && kind != ConstructKind.SEMAPHORE && heldByOtherNow(th, l, obj)) {
      // Still waiting where its wait ends (the run ended, or the acquisition is missing) while
      // another thread holds the lock: it was waiting for that holder, whatever releases came in
      // between. (A holder whose stream ended before its release is still the holder: no release
      // is invented for it.)
      a.heldByOther = true;
      a.heldExclusivelyByOther |= locks.holder[l] >= 0 && locks.holder[l] != th.index;
      a.lastRelease = LockTable.NEVER;
      a.lastReleaser = -1;
      a.lastExclusiveRelease = LockTable.NEVER;
      a.lastExclusiveReleaser = -1;
    }
    a.monitor = kind == ConstructKind.MONITOR || kind == ConstructKind.SYNCHRONIZED_METHOD;
    if (a.monitor
        && (flags & LockFlags.AFTER_WAIT) == 0
        && (!acquired || t - th.start[i] >= JvmCrossCheck.MIN_WAIT_NS)) {
      th.monitorWaits++; // the re-entry after a wait is counted at the wait's exit
    }
    a.waitingForHolder = 0;
    a.handoff = 0;
    beginWait();
    for (Property p : lockHandlers) {
      p.onLockAcquisition(a);
    }
    if (waits != null) {
      boolean shared = (flags & LockFlags.SHARED) != 0;
      long release = shared ? a.lastExclusiveRelease : a.lastRelease;
      int releaser = shared ? a.lastExclusiveReleaser : a.lastReleaser;
      int blocker = release > a.start() && releaser != th.index ? releaser : -1;
      String family = a.monitor ? "monitor" : "lock";
      waits.end(family, kind.id(), th.index, th.start[i], t, obj, blocker);
    }
    long waited = th.accum[i] - a.unclaimed();
    if (acquired && waited > 0 && l >= 0) {
      CriticalPath.Segment src = critical.lockRelease(l, a.lastReleaser, a.lastRelease);
      critical.handOver(th.index, th.node[i], src, a.lastRelease, t);
    } else {
      critical.waited(th.index, th.node[i], t);
    }
    rest(th, a, th.stat[i]);
    if (l >= 0) {
      locks.waiterDone(l);
      locks.releaseIfIdle(l);
    }
  }

  /** Whether another thread holds lock slot {@code l} (in any mode) now. */
  private boolean heldByOtherNow(ThreadState th, int l, long obj) {
    int holder = locks.holder[l];
    if (holder >= 0 && holder != th.index) {
      return true;
    }
    int ownShared = 0;
    for (int k = 0; k < th.heldCount; k++) {
      if (th.held[k] == obj && th.heldShared[k]) {
        ownShared++;
      }
    }
    return locks.shared[l] - ownShared > 0;
  }

  /** The lock's kind: from its object definition, else from the request's call site. */
  private ConstructKind lockKind(long obj, int region) {
    int k = objectKinds.get(obj);
    if (k < 0) {
      ObjectDef def = defs.object(obj);
      k = def != null ? def.kind().code() : ConstructKind.UNKNOWN.code();
      objectKinds.put(obj, k);
    }
    if (k == ConstructKind.UNKNOWN.code()) {
      int rk = regionKinds.get(region);
      if (rk >= 0) {
        k = rk;
      }
    }
    return ConstructKind.ofCode(k);
  }

  private void takeLock(ThreadState th, long obj, int flags) {
    if ((flags & (LockFlags.FAILED | LockFlags.ABORTED)) != 0) {
      return;
    }
    int l = locks.getOrAdd(obj);
    if ((flags & LockFlags.SHARED) != 0) {
      locks.shared[l]++;
      th.hold(obj, true);
    } else if ((flags & LockFlags.AFTER_WAIT) != 0
        && th.waitReleasePending
        && th.waitReleasedLock == obj) {
      retake(th, l);
    } else if ((flags & LockFlags.AFTER_WAIT) != 0
        && th.waitRetaken
        && th.waitRetakenLock == obj
        && locks.holder[l] == th.index) {
      th.waitRetaken = false; // already re-taken at the wait's end
    } else if (locks.holder[l] == th.index) {
      locks.depth[l]++;
    } else {
      int previous = locks.holder[l];
      if (previous >= 0) {
        // Another thread is recorded as holding it: its release is missing.
        counters.lockAcquiredWhileHeld++;
        threads[previous].unhold(obj, false);
      }
      locks.holder[l] = th.index;
      // A re-entrant first sight means the thread held it before the trace started.
      locks.depth[l] = (flags & LockFlags.REENTRANT) != 0 ? 2 : 1;
      th.hold(obj, false);
    }
  }

  private void retake(ThreadState th, int l) {
    int previous = locks.holder[l];
    if (previous >= 0 && previous != th.index) {
      counters.lockAcquiredWhileHeld++;
      threads[previous].unhold(locks.id[l], false);
    }
    if (previous != th.index) {
      th.hold(locks.id[l], false);
    }
    locks.holder[l] = th.index;
    locks.depth[l] = Math.max(1, th.waitReleasedDepth);
    th.waitReleasePending = false;
  }

  private void lockReleased(ThreadState th, long t, long obj) {
    int l = locks.get(obj);
    if (l < 0) {
      // No state: nobody waits for it. It was held since before the trace (or is a semaphore).
      if (!isSemaphore(obj)) {
        counters.lockReleaseWithoutAcquire++;
      }
      return;
    }
    if (locks.holder[l] == th.index) {
      th.releaseEvent = th.events;
      th.releasedLock = obj;
      th.releasedDepth = locks.depth[l];
      if (--locks.depth[l] <= 0) {
        locks.holder[l] = -1;
        locks.depth[l] = 0;
        locks.lastExclusiveRelease[l] = t;
        locks.lastExclusiveReleaser[l] = th.index;
        locks.lastRelease[l] = t;
        locks.lastReleaser[l] = th.index;
        th.unhold(obj, false);
      }
    } else if (th.unhold(obj, true)) {
      locks.shared[l]--;
      locks.lastRelease[l] = t;
      locks.lastReleaser[l] = th.index;
    } else {
      // Held since before the trace started, or a semaphore permit released by another thread.
      boolean semaphore = isSemaphore(obj);
      if (semaphore) {
        if (locks.shared[l] > 0) {
          locks.shared[l]--;
        }
      } else {
        counters.lockReleaseWithoutAcquire++;
        locks.lastExclusiveRelease[l] = t;
        locks.lastExclusiveReleaser[l] = th.index;
      }
      locks.lastRelease[l] = t;
      locks.lastReleaser[l] = th.index;
    }
    noteRelease(l, th, t);
    locks.releaseIfIdle(l);
  }

  /** Keeps the releaser's chain for a thread waiting for lock slot {@code l}. */
  private void noteRelease(int l, ThreadState th, long t) {
    if (locks.lastRelease[l] == t && locks.lastReleaser[l] == th.index) {
      locks.releaseNode[l] = th.currentNode();
    }
    if (locks.waiters[l] > 0 && locks.lastRelease[l] == t && locks.lastReleaser[l] == th.index) {
      critical.lockReleased(l, th.index, t);
      locks.addRelease(l, t, th.index, locks.releaseNode[l]);
    }
  }

  private boolean isSemaphore(long obj) {
    return lockKind(obj, Integer.MIN_VALUE) == ConstructKind.SEMAPHORE;
  }

  // ---- waits ------------------------------------------------------------------------------------

  private void waitEnter(ThreadState th, long t, int r, int kind) {
    int i = push(th, F_WAIT, tree.child(th.currentNode(), r), r, t, r, -1);
    th.aux[i] = kind;
    if (notifiable(kind)) {
      critical.openNotifiedWaits++;
    }
    if ((kind == WaitKind.OBJECT_WAIT || kind == WaitKind.CONDITION_AWAIT)
        && th.releaseEvent == th.events - 1) {
      // The recorder wrote the wait's release (LOCK_RELEASED just before WAIT_ENTER): that lock is
      // the one given up, in full however deep it was held; its AFTER_WAIT acquisition re-takes it.
      long lock = th.releasedLock;
      int l = locks.get(lock);
      th.waitReleasedLock = lock;
      th.waitReleasedDepth = th.releasedDepth;
      th.waitReleasePending = true;
      th.waitReleaseRecorded = true;
      th.waitRetaken = false;
      if (l >= 0 && locks.holder[l] == th.index) {
        // Held re-entrantly: the one release left it held, but the wait gives it up entirely.
        locks.holder[l] = -1;
        locks.depth[l] = 0;
        locks.lastRelease[l] = t;
        locks.lastReleaser[l] = th.index;
        locks.lastExclusiveRelease[l] = t;
        locks.lastExclusiveReleaser[l] = th.index;
        th.unhold(lock, false);
        noteRelease(l, th, t);
        locks.releaseIfIdle(l);
      }
    } else if (kind == WaitKind.OBJECT_WAIT || kind == WaitKind.CONDITION_AWAIT) {
      // No release recorded: the wait gives up the monitor (or lock) it waits on, the innermost
      // one held exclusively, and gets it back at its end.
      int h = th.innermostExclusive();
      if (h >= 0) {
        long lock = th.held[h];
        int l = locks.get(lock);
        if (l >= 0 && locks.holder[l] == th.index) {
          th.waitReleasedLock = lock;
          th.waitReleasedDepth = locks.depth[l];
          th.waitReleasePending = true;
          th.waitReleaseRecorded = false;
          th.waitRetaken = false;
          locks.holder[l] = -1;
          locks.depth[l] = 0;
          locks.lastRelease[l] = t;
          locks.lastReleaser[l] = th.index;
          locks.lastExclusiveRelease[l] = t;
          locks.lastExclusiveReleaser[l] = th.index;
          th.unhold(lock, false);
          noteRelease(l, th, t);
          locks.releaseIfIdle(l);
        }
      }
    }
  }

  /** Waits that a NOTIFY on the lock or monitor they gave up ends. */
  private static boolean notifiable(int kind) {
    return kind == WaitKind.OBJECT_WAIT || kind == WaitKind.CONDITION_AWAIT;
  }

  private void waitExit(ThreadState th, long t, int r) {
    int i = match(th, F_WAIT, r);
    if (i < 0) {
      counters.waitExitWithoutEnter++;
      return;
    }
    closeAbove(th, i, t);
    finishWait(th, i, t);
    pop(th, t);
  }

  private void finishWait(ThreadState th, int i, long t) {
    WaitSpan w = waitSpan;
    w.reset(cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    w.waitKind = (int) th.aux[i];
    long[] notification =
        notifiable(w.waitKind) && th.waitReleasePending
            ? critical.notification(th.index, th.waitReleasedLock, th.start[i], t)
            : null;
    w.notifier = notification == null ? -1 : (int) notification[1];
    w.notifierNode = notification == null ? ROOT : (int) notification[2];
    w.notifyTime = notification == null ? Long.MIN_VALUE : notification[0];
    if (w.waitKind == WaitKind.OBJECT_WAIT) {
      th.monitorWaits++; // re-entering the monitor inside Object.wait may block
    }
    beginWait();
    for (Property p : waitHandlers) {
      p.onWait(w);
    }
    if (waits != null) {
      waits.end("condition", WaitKind.name(w.waitKind), th.index, th.start[i], t, 0, -1);
    }
    if (notifiable(w.waitKind)) {
      critical.openNotifiedWaits = Math.max(0, critical.openNotifiedWaits - 1);
    }
    if (notifiable(w.waitKind) && th.waitReleasePending) {
      critical.notifiedWaitEnded(th.index, th.waitReleasedLock, notification, th.node[i], t);
    } else {
      critical.waited(th.index, th.node[i], t);
    }
    rest(th, w, th.stat[i]);
    if (th.waitReleasePending && !th.waitReleaseRecorded) {
      // Object.wait returns holding the monitor again (a recorded release is re-taken by the
      // recorded AFTER_WAIT acquisition, after any contention for it).
      long lock = th.waitReleasedLock;
      retake(th, locks.getOrAdd(lock));
      th.waitRetaken = true;
      th.waitRetakenLock = lock;
    }
  }

  private void spinExit(ThreadState th, long t, int r) {
    int i = match(th, F_SPIN, r);
    if (i < 0) {
      counters.spinExitWithoutEnter++;
      return;
    }
    closeAbove(th, i, t);
    finishSpin(th, i, t);
    pop(th, t);
  }

  private void finishSpin(ThreadState th, int i, long t) {
    WaitSpan w = waitSpan;
    w.reset(cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    w.waitKind = 0;
    beginWait();
    w.notifier = -1;
    for (Property p : spinHandlers) {
      p.onSpin(w);
    }
    if (waits != null) {
      waits.end("spin", "spin", th.index, th.start[i], t, 0, -1);
    }
    critical.waited(th.index, th.node[i], t);
    rest(th, w, th.stat[i]);
  }
}
