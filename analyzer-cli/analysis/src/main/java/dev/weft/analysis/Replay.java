package dev.weft.analysis;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.pairing.Construct;
import dev.weft.trace.pairing.PairMatcher;
import dev.weft.trace.pairing.Role;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.DoubleConsumer;
import java.util.function.IntPredicate;

/**
 * The replay engine's driver: one pass over the trace's events in time order. Each thread's events
 * go through its {@link PairMatcher}, the pairing grammar every reader of the trace shares, which
 * says what an event opens and what it closes; the driver hands each opening and closing to the
 * construct family that owns it ({@link RegionReplay}, {@link TaskReplay}, {@link BarrierReplay},
 * {@link LockReplay}, {@link WaitReplay}; {@link ThreadReplay} keeps the threads' lifetimes, time
 * and frames), and the events that pair with nothing (task creation, notifications, ...) to theirs.
 * The families emit typed occurrences to {@link Occurrences}, which hands them to the properties.
 * Memory is bounded by threads × stack depth plus live objects; nothing is allocated per event.
 *
 * <p>Every event is replayed. {@link #finish} then ends the threads still alive at the end of the
 * run, each as far as its stream tells: see {@link #finish} for threads of a trace that was cut.
 */
final class Replay implements PairMatcher.Listener {
  private final Definitions defs;
  private final DoubleConsumer progress;
  private final long progressFrom;
  private final long progressTo;

  final CallPathTree tree = new CallPathTree();
  final SeverityCube cube = new SeverityCube();
  final List<Property> properties;
  final PropertyDispatch occurrences;

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
  WaitLog waits;

  /** What the replay tells the critical path; see {@link #criticalPathOnItsOwnThread}. */
  CriticalPathFeed critical;

  final JoinCauses joinCauses = new JoinCauses();
  private final long[] javaIds;
  final InstanceTable instances;
  final List<RegionBusy> regionStats = new ArrayList<>();
  private final LongIntMap regionKinds = new LongIntMap(64);
  private final LongIntMap objectKinds = new LongIntMap(64);

  // The construct families, each owning its state.
  final ThreadReplay frames;
  private final RegionReplay regions;
  final TaskReplay tasks;
  private final BarrierReplay barriers;
  final LockReplay locks;
  private final WaitReplay waitReplay;

  /** Event kinds the pairing grammar pairs (the others are instants, gaps and ends). */
  private static final boolean[] PAIRED = new boolean[EventKind.values().length];

  static {
    for (EventKind k : EventKind.values()) {
      Role role = Construct.role(k);
      PAIRED[k.ordinal()] =
          role == Role.OPENS || role == Role.CLOSES || role == Role.CLOSES_AND_OPENS;
    }
  }

  // The event the matchers are applying: their listener callbacks are about it.
  private ThreadState current;
  private long now;

  // What the replay saw, for the trace facts and the notes.
  long eventsRead;
  long maxTime = Long.MIN_VALUE;
  long minTime = Long.MAX_VALUE;
  final Counters counters = new Counters();

  /** Constructs opened per call path, for the note on what the recording cost the program. */
  final RecordingLoad load = new RecordingLoad();

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
    long delayedTasks;
    long delayedTasksNotRun;
    long summaryTasks;
    long measurementOff;
    long virtualThreadRecords;
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
    this.occurrences = new PropertyDispatch(properties);

    this.threads = threadStates;
    this.pools = pools;
    this.critical = CriticalPathFeed.inline(new CriticalPath(daemons(), tree));
    this.instances = new InstanceTable(threads.length);
    int dense = 0;
    for (ThreadState t : threads) {
      t.pairs = new PairMatcher(this);
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
    this.frames = new ThreadReplay(this);
    this.regions = new RegionReplay(this);
    this.tasks = new TaskReplay(this);
    this.barriers = new BarrierReplay(this);
    this.locks = new LockReplay(this);
    this.waitReplay = new WaitReplay(this);
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

  /**
   * Computes the critical path on a thread of its own while this one replays ({@link
   * CriticalPathFeed}); before {@link #run}. The caller must {@link #criticalPath} or close it
   * ({@link #closeCriticalPath}).
   */
  void criticalPathOnItsOwnThread() {
    if (eventsRead > 0) {
      throw new IllegalStateException("the replay has begun");
    }
    critical = CriticalPathFeed.onItsOwnThread(daemons(), tree);
  }

  private boolean[] daemons() {
    boolean[] daemon = new boolean[threads.length];
    for (int i = 0; i < threads.length; i++) {
      daemon[i] = threads[i].daemon;
    }
    return daemon;
  }

  /** The critical path, once the replay and {@link #finish} are done. */
  CriticalPath criticalPath() {
    return critical.finish();
  }

  /** Stops the critical path's thread, if any (the replay failed, or its result is not needed). */
  void closeCriticalPath() {
    critical.close();
  }

  /**
   * Events before this trace time are replayed as if at it: an attached recording's analysis starts
   * once the agent had woven the classes loaded before the attach ({@link
   * AttachLimits#analysedFrom}); before, it saw too little for that time to count.
   */
  private long timeFloor = Long.MIN_VALUE;

  /** See {@link #timeFloor}; before {@link #run}. */
  void startAt(long floor) {
    timeFloor = floor;
  }

  /** Replays every event of {@code c}. */
  void run(EventCursor c) {
    long n = 0;
    long floor = timeFloor;
    while (c.next()) {
      long t = Math.max(c.time(), floor);
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
        frames.begin(th, t, kind == EventKind.THREAD_BEGIN);
      }
      frames.charge(th, t);
      current = th;
      now = t;
      th.pairs.event(c);
      if (!PAIRED[kind.ordinal()]) {
        instant(th, t, kind, c);
      }
      // Whether anyone is told first: without, this never branches. The other way round, its
      // first branch at the 2^20th event was a trap in the compiled loop, which was then
      // compiled again with everything it inlines.
      if (progress != null && (n & 0xFFFFF) == 0) {
        progress.accept(Math.min(1.0, (double) (t - progressFrom) / (progressTo - progressFrom)));
      }
    }
    eventsRead = n;
  }

  // ---- what the grammar pairs -------------------------------------------------------------------

  @Override
  public void opened(PairMatcher m, int depth, EventCursor e) {
    STEPS[m.construct(depth).ordinal()].open(this, current, now, e);
  }

  @Override
  public void closed(PairMatcher m, int depth, EventCursor e) {
    ThreadState th = current;
    long t = now;
    frames.closeAbove(th, depth, t);
    if (th.depth != depth + 1) {
      throw new IllegalStateException("replay frames out of step with the pairing grammar");
    }
    finishFrame(th, m.construct(depth), depth, t, e);
    frames.pop(th, t);
  }

  @Override
  public void unmatched(PairMatcher m, Construct c, EventCursor e) {
    ThreadState th = current;
    switch (c) {
      case REGION:
        counters.exitWithoutEnter++;
        break;
      case PARALLEL:
        counters.joinWithoutFork++;
        break;
      case TASK:
        tasks.endWithoutBegin(now, e.field(0));
        break;
      case JOIN_WAIT:
        counters.joinWaitExitWithoutEnter++;
        break;
      case BARRIER_WAIT:
        barriers.departureOnly(th, now, e.field(1), e.field(2), (int) e.field(3));
        break;
      case WAIT:
        counters.waitExitWithoutEnter++;
        break;
      case SPIN:
        counters.spinExitWithoutEnter++;
        break;
      case HELP:
        counters.helpExitWithoutEnter++;
        break;
      case LOCK_HOLD:
        // Not held as far as this thread's stream shows: held since before the trace started, or
        // a permit another thread took; the lock's state across threads says which.
        locks.released(th, now, e.field(0));
        break;
      default:
        break;
    }
  }

  @Override
  public void acquired(PairMatcher m, long lock, int count, boolean took, EventCursor e) {
    locks.take(current, lock, (int) e.field(1));
  }

  @Override
  public void released(PairMatcher m, long lock, int count, long since, EventCursor e) {
    locks.released(current, now, lock);
  }

  @Override
  public void mounted(PairMatcher m, long previous, EventCursor e) {
    counters.virtualThreadRecords++;
    current.carrier = true;
    frames.carrierSwitch(current, now, true, e.field(0));
  }

  @Override
  public void unmounted(PairMatcher m, long previous, EventCursor e) {
    counters.virtualThreadRecords++;
    frames.carrierSwitch(current, now, false, e.field(0));
  }

  @Override
  public void ended(PairMatcher m, EventCursor e) {
    frames.end(current, now);
  }

  /** An event the grammar pairs with nothing on its thread. */
  private void instant(ThreadState th, long t, EventKind kind, EventCursor c) {
    switch (kind) {
      case TASK_CREATE:
        tasks.create(th, t, (int) c.field(0), c.field(1), (int) c.field(2));
        break;
      case TASK_SUMMARY:
        tasks.summary(th, t, (int) c.field(0), c.field(2), c.field(3));
        break;
      case THREAD_CREATE:
        critical.threadCreated(
            th.index, c.field(1), tree.child(th.currentNode(), (int) c.field(0)), t);
        break;
      case NOTIFY:
        waitReplay.notify(th, t, (int) c.field(0), c.field(1), c.field(2));
        break;
      case DROPPED:
        th.droppedEvents = saturatedAdd(th.droppedEvents, c.field(0));
        break;
      case MEASUREMENT_OFF:
        counters.measurementOff++;
        break;
      default:
        // THREAD_BEGIN, MEASUREMENT_ON: nothing to replay; THREAD_END: the matcher's ended().
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
    // From here on, the waits that end are closed by the end of the recording, not by a release.
    critical.recordingEnded();
    beginThreadsUpTo(end);
    joinCauses.recordingEnded();
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
      } else if (th.depth > 0 ? th.pairs.construct(th.depth - 1).blocksThread() : th.worker()) {
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
      frames.stop(th, th.lastT);
    }
    // A join still open at the end waits for a thread or task still running then: its runner is
    // the cause so far, whichever of the two is closed first below.
    for (ThreadState th : atEnd) {
      joinCauses.runningAtEnd(th.index, CallPathTree.ROOT, javaId(th), end);
      for (int i = 0; i < th.depth; i++) {
        if (th.pairs.construct(i) == Construct.TASK) {
          joinCauses.runningAtEnd(th.index, th.node[i], th.obj[i], end);
        }
      }
    }
    for (ThreadState th : atEnd) {
      if (th.endKind == ThreadState.END_AT_CLOSE) {
        counters.openFramesAtEnd += th.depth;
      } else {
        for (int i = 0; i < th.depth; i++) {
          if (th.pairs.construct(i).blocksThread()) {
            counters.openWaitsAtCut++;
          }
        }
      }
      frames.stop(th, end);
    }
    tasks.endStillQueued(end);
    for (RegionBusy r : regionStats) {
      occurrences.region(r);
    }
  }

  /** Ends the open frame on top of {@code th}'s stack at {@code t}, its end event missing. */
  void closeTop(ThreadState th, long t) {
    int top = th.depth - 1;
    finishFrame(th, th.pairs.construct(top), top, t, null);
    frames.pop(th, t);
  }

  /**
   * Hands the end of frame {@code i}, construct {@code c}, to its family: closed by {@code e}, or
   * ended at {@code t} without its closing event ({@code e} null).
   */
  private void finishFrame(ThreadState th, Construct c, int i, long t, EventCursor e) {
    STEPS[c.ordinal()].close(this, th, i, t, e);
  }

  private static final Step[] STEPS = new Step[Construct.values().length];

  static {
    for (Construct c : Construct.values()) {
      STEPS[c.ordinal()] = Step.valueOf(c.name());
    }
  }

  /**
   * What opening and closing each construct does in the replay, one implementation per construct
   * (named as in {@link Construct}). The calls through it have many receivers, so the JIT never
   * inlines them: each construct's work is compiled on its own, instead of all of them into the
   * pairing grammar's dispatch (which it compiled into 50–70 KB of code, sometimes twice a run).
   */
  private enum Step {
    REGION {
      @Override
      void open(Replay r, ThreadState th, long t, EventCursor e) {
        r.regions.enter(th, t, (int) e.field(0));
      }
    },
    PARALLEL {
      @Override
      void open(Replay r, ThreadState th, long t, EventCursor e) {
        r.tasks.fork(th, t, (int) e.field(0), (int) e.field(1));
      }

      @Override
      void close(Replay r, ThreadState th, int i, long t, EventCursor e) {
        r.tasks.finishFork(th, i, t);
      }
    },
    TASK {
      @Override
      void open(Replay r, ThreadState th, long t, EventCursor e) {
        r.tasks.begin(th, t, e.field(0));
      }

      @Override
      void close(Replay r, ThreadState th, int i, long t, EventCursor e) {
        r.tasks.finishTask(th, i, t);
      }
    },
    JOIN_WAIT {
      @Override
      void open(Replay r, ThreadState th, long t, EventCursor e) {
        r.tasks.joinWaitEnter(th, t, (int) e.field(0), e.field(1));
      }

      @Override
      void close(Replay r, ThreadState th, int i, long t, EventCursor e) {
        r.tasks.finishJoin(th, i, t);
      }
    },
    BARRIER_WAIT {
      @Override
      void open(Replay r, ThreadState th, long t, EventCursor e) {
        r.barriers.enter(th, t, (int) e.field(0), e.field(1), e.field(2));
      }

      @Override
      void close(Replay r, ThreadState th, int i, long t, EventCursor e) {
        r.barriers.finish(th, i, t, e == null ? 0 : (int) e.field(3), e != null);
      }
    },
    LOCK_WAIT {
      @Override
      void open(Replay r, ThreadState th, long t, EventCursor e) {
        r.locks.request(th, t, (int) e.field(0), e.field(1));
      }

      @Override
      void close(Replay r, ThreadState th, int i, long t, EventCursor e) {
        r.locks.finish(th, i, t, e == null ? 0 : (int) e.field(1), e != null);
      }
    },
    WAIT {
      @Override
      void open(Replay r, ThreadState th, long t, EventCursor e) {
        long on = e.kind() == EventKind.WAIT_ENTER_ON ? e.field(2) : 0;
        r.waitReplay.enter(th, t, (int) e.field(0), (int) e.field(1), on);
      }

      @Override
      void close(Replay r, ThreadState th, int i, long t, EventCursor e) {
        r.waitReplay.finishWait(th, i, t);
      }
    },
    SPIN {
      @Override
      void open(Replay r, ThreadState th, long t, EventCursor e) {
        r.waitReplay.spinEnter(th, t, (int) e.field(0));
      }

      @Override
      void close(Replay r, ThreadState th, int i, long t, EventCursor e) {
        r.waitReplay.finishSpin(th, i, t);
      }
    },
    HELP {
      @Override
      void open(Replay r, ThreadState th, long t, EventCursor e) {
        r.regions.helpEnter(th, t, (int) e.field(0));
      }
    },
    LOCK_HOLD,
    MOUNT;

    /** The construct opened at {@code t} by {@code e}, the thread's newest frame. */
    void open(Replay r, ThreadState th, long t, EventCursor e) {
      throw new IllegalStateException("not a nested construct: " + this);
    }

    /**
     * The frame {@code i} of the construct closes at {@code t}: by {@code e}, or by the replay
     * (null) when a thread ends or a frame above closes it. Regions and helping: the pop is all.
     */
    void close(Replay r, ThreadState th, int i, long t, EventCursor e) {}
  }

  /** {@code a + b} for a count and an unsigned field value, saturating at Long.MAX_VALUE. */
  static long saturatedAdd(long a, long unsignedB) {
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
        frames.begin(th, th.begin, false);
      }
    }
    nextBegin =
        nextBeginIndex < beginOrder.length ? beginOrder[nextBeginIndex].begin : Long.MAX_VALUE;
  }

  /** Hands every wait, as it ends, to {@code sink}. */
  void handWaitsTo(Analyzer.WaitSink sink) {
    waits = new WaitLog(sink, this, properties);
    cube.log = waits;
    occurrences.logWaitsTo(waits);
  }

  Definitions defs() {
    return defs;
  }

  /** The Java id of a thread, or Long.MIN_VALUE. */
  long javaId(ThreadState th) {
    return javaIds[th.index];
  }

  /** The construct kind code of region {@code region}, or -1. */
  int regionKind(int region) {
    return regionKinds.get(region);
  }

  /** An object's kind: from its object definition, else from the call site of its event. */
  ConstructKind kindOf(long obj, int region) {
    return kindOf(objectKindCode(obj), region);
  }

  /** The code of the kind the definitions give object {@code obj} ({@code UNKNOWN}'s if none). */
  int objectKindCode(long obj) {
    int k = objectKinds.get(obj);
    if (k < 0) {
      ObjectDef def = defs.object(obj);
      k = def != null ? def.kind().code() : ConstructKind.UNKNOWN.code();
      objectKinds.put(obj, k);
    }
    return k;
  }

  /** As {@link #kindOf(long, int)}, for an object whose {@link #objectKindCode} is {@code k}. */
  ConstructKind kindOf(int k, int region) {
    if (k == ConstructKind.UNKNOWN.code()) {
      int rk = regionKinds.get(region);
      if (rk >= 0) {
        k = rk;
      }
    }
    return ConstructKind.ofCode(k);
  }
}
