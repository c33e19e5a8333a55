package dev.weft.agent.record;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.agent.bridge.WeftSink;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.TraceWriter;
import java.lang.instrument.Instrumentation;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Phaser;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Turns bridge events into trace events: each thread writes into its own {@link StreamWriter},
 * opened at the thread's first event, with no lock and no allocation per event.
 *
 * <p>Every event method follows one pattern: look up the thread's {@link ThreadState} (one
 * ThreadLocal read), leave at once if the thread is inside the recorder already (the re-entrancy
 * guard: whatever the recorder or the trace writer does, e.g. take an instrumented lock, is never
 * traced), if the thread never records (agent threads, virtual threads) or if measurement is off;
 * then take {@code System.nanoTime()} and write one event.
 *
 * <p>Virtual threads never get a stream (there may be millions): on JDK 21+ their events go to the
 * stream of the carrier thread running them, each run of one virtual thread's events preceded by
 * VTHREAD_MOUNT (and followed by VTHREAD_UNMOUNT when the carrier records for itself or another
 * virtual thread). Events that cannot be recorded so (the carrier is inside the recorder already)
 * are counted in the trace attribute {@code agent.virtual_thread_events_skipped}.
 */
public final class Recorder extends WeftSink {
  /** User-region stack entry of a virtual thread's region: its exit is counted as skipped too. */
  private static final int SKIPPED_VIRTUAL = -1;

  /** User-region stack entry of a thread without a stream: its exit is counted as dropped too. */
  private static final int SKIPPED_LOST = -2;

  /** User-region stack entry of a region that could not be defined: its exit is dropped too. */
  private static final int SKIPPED_UNDEFINED = -3;

  /**
   * Spin calls closer together than this (from the end of one to the start of the next), or with
   * less CPU time used in between, belong to one spin: a spin loop's own work between two calls is
   * short; more is work of its own.
   */
  static final long SPIN_GAP_NANOS = 100_000;

  private final TraceWriter writer;
  private final RegionRegistry regions;
  private final long failAfter;
  private final AtomicLong eventsForFailure = new AtomicLong();
  private final ObjectIds objectIds = new ObjectIds(1 << 17);
  private final IdentityIds poolsSeen = new IdentityIds(1 << 10);
  private final LongAdder virtualSkipped = new LongAdder();

  /** Events dropped because a definition they need could not be written (a region, a thread). */
  private final LongAdder droppedUndefined = new LongAdder();

  /** Object and pool descriptions that could not be written (their events keep the ids). */
  private final LongAdder descriptionsLost = new LongAdder();

  private final AtomicBoolean closed = new AtomicBoolean();
  private final Map<Thread, Boolean> ignoredThreads = new ConcurrentHashMap<>();
  private final CarrierStates carriers;

  /** The JVM's own monitor-block and wait counts per recorded thread, the trace's cross-check. */
  private final JvmCounts jvmCounts;

  /**
   * Threads whose creation was recorded and that have not begun yet (Java id → pool id, 0 for
   * none): their THREAD_BEGIN is recorded, and their stream names the pool.
   */
  private final Map<Long, Integer> announcedThreads = new ConcurrentHashMap<>();

  /**
   * States of fork-join workers by thread id: pools may erase their workers' thread locals between
   * tasks (the common pool does), and a worker must keep its one stream (one entry per worker).
   */
  private final Map<Long, ThreadState> workerStates = new ConcurrentHashMap<>();

  /** The pool id of the JDK's virtual-thread scheduler, once seen (0 before). */
  private volatile int virtualScheduler;

  /** {@code tasks=aggregate}: fork-join tasks are summarised per thread instead of recorded. */
  private final boolean aggregateForkJoin;

  /** Aggregated mode: the parallel region last forked on each pool and not joined yet. */
  private final Map<Integer, Integer> forkedRegions = new ConcurrentHashMap<>();

  /** Aggregated mode: the region of summaries made outside any parallel region (0: not yet). */
  private volatile int unforkedRegion;

  private final ThreadLocal<ThreadState> states =
      new ThreadLocal<ThreadState>() {
        @Override
        protected ThreadState initialValue() {
          Thread t = Thread.currentThread();
          if (isVirtual(t)) {
            return new ThreadState(t, false, true);
          }
          if (t instanceof ForkJoinWorkerThread) {
            return workerState(t);
          }
          return platformState(t);
        }
      };
  private volatile boolean on;

  /** A fork-join worker's one state, found again after its thread locals were erased. */
  private ThreadState workerState(Thread t) {
    ThreadState s = workerStates.get(t.getId());
    if (s == null || s.thread != t) {
      s = platformState(t);
      workerStates.put(t.getId(), s);
    } else if (carriers != null && carriers.get() != s) {
      carriers.set(s);
    }
    return s;
  }

  /** A platform thread's state: on JDK 21+ the one its virtual threads reach as their carrier's. */
  private ThreadState platformState(Thread t) {
    if (carriers == null) {
      return new ThreadState(t, ignoredThreads.containsKey(t), false);
    }
    // A platform thread may have carried virtual threads already: one state, one stream.
    ThreadState s = carriers.get();
    if (s == null || s.thread != t) {
      s = new ThreadState(t, ignoredThreads.containsKey(t), false);
      carriers.set(s);
    }
    return s;
  }

  /** As the full constructor, with every task recorded ({@code tasks=all}). */
  public Recorder(
      TraceWriter writer,
      RegionRegistry regions,
      boolean startOn,
      long failAfter,
      Instrumentation inst) {
    this(writer, regions, startOn, failAfter, inst, false);
  }

  /**
   * @param writer the open trace
   * @param regions the region registry writing into the same trace
   * @param startOn whether measurement starts on
   * @param failAfter for tests: throw at this event (0 = never)
   * @param inst to reach virtual threads' carriers (JDK 21+); null: virtual threads are skipped
   * @param aggregateForkJoin summarise fork-join tasks ({@code tasks=aggregate})
   */
  public Recorder(
      TraceWriter writer,
      RegionRegistry regions,
      boolean startOn,
      long failAfter,
      Instrumentation inst,
      boolean aggregateForkJoin) {
    this.writer = writer;
    this.regions = regions;
    this.on = startOn;
    this.failAfter = failAfter;
    this.carriers = inst == null ? null : CarrierStates.create(inst);
    this.aggregateForkJoin = aggregateForkJoin;
    this.jvmCounts = new JvmCounts(writer, startOn);
  }

  /**
   * Links the recorder's reads of lock and barrier internals ahead of use. Called once on an
   * ignored background thread at start, so an application thread's first lock or barrier event does
   * not pay for it between its own clock and the event's.
   */
  public static void warmUp() {
    SyncObjects.warmUp();
  }

  /**
   * Takes the baseline of the JVM's per-thread counts (see {@link JvmCounts}) on the calling agent
   * thread, once the weaving is in place. Threads created after the calling thread start from 0.
   */
  public void takeJvmBaseline() {
    jvmCounts.takeBaseline();
  }

  /** Marks a thread as never traced (the writer's background thread, the agent's own threads). */
  public void ignore(Thread t) {
    ignoredThreads.put(t, Boolean.TRUE);
  }

  /**
   * Suspends recording on the calling thread (for the class-file transformer: whatever weaving does
   * must not be traced). Returns the previous guard value for {@link #resume}.
   */
  public boolean suspendCurrentThread() {
    ThreadState s = states.get();
    boolean was = s.busy;
    s.busy = true;
    return was;
  }

  /** Undoes {@link #suspendCurrentThread}. */
  public void resume(boolean previous) {
    states.get().busy = previous;
  }

  private static boolean isVirtual(Thread t) {
    // JDK 21+: java.lang.VirtualThread / BoundVirtualThread; compiled for 17, so by name.
    String c = t.getClass().getName();
    return c.startsWith("java.lang.") && c.endsWith("VirtualThread");
  }

  /**
   * The calling thread's stream with the guard taken, or null when this event is not to be
   * recorded. The caller writes one event and clears {@code s.busy}.
   */
  private StreamWriter acquire(ThreadState s) {
    if (s.busy || !on || s.ignored) {
      return null;
    }
    if (s.virtual) {
      return acquireOnCarrier(s);
    }
    s.busy = true;
    try {
      StreamWriter w = s.stream;
      if (w == null) {
        w = open(s);
        if (w == null) {
          s.busy = false;
          return null;
        }
      }
      String name = s.thread.getName();
      if (name != s.name) {
        rename(s, w, name);
      }
      if (s.mounted != 0) {
        // The carrier records for itself again: the virtual thread it carried is off it.
        w.vthreadUnmount(System.nanoTime(), s.mounted);
        s.mounted = 0;
      }
      endSpin(s, w);
      injectFailure();
      if (s.aggDepth > 0 && !s.aggBlocked) {
        summarise(s, w); // the thread's busy time so far comes before the event about to be written
      }
      return w; // the caller writes one event and clears the guard
    } catch (RuntimeException | Error e) {
      s.busy = false; // e.g. the host's deep recursion overflowing the stack in here
      throw e;
    }
  }

  /**
   * A virtual thread's event goes to the stream of the platform thread carrying it, after a
   * VTHREAD_MOUNT record whenever the carrier's last virtual thread was another one. The guard
   * taken is the carrier's: whatever runs on the carrier while this event is written is not
   * recorded.
   */
  private StreamWriter acquireOnCarrier(ThreadState s) {
    if (carriers == null) {
      virtualSkipped.increment();
      return null;
    }
    ThreadState c = carriers.get();
    if (c == null) {
      Thread carrier;
      try {
        carrier = carriers.currentCarrier();
      } catch (Throwable e) {
        virtualSkipped.increment();
        return null;
      }
      if (carrier instanceof ForkJoinWorkerThread) {
        c = workerStates.get(carrier.getId());
      }
      if (c == null || c.thread != carrier) {
        c = new ThreadState(carrier, ignoredThreads.containsKey(carrier), false);
        if (carrier instanceof ForkJoinWorkerThread) {
          workerStates.put(carrier.getId(), c);
        }
      }
      carriers.set(c);
    }
    if (c.busy || c.ignored) {
      virtualSkipped.increment();
      return null;
    }
    c.busy = true;
    try {
      StreamWriter w = c.stream;
      if (w == null) {
        w = open(c);
        if (w == null) {
          c.busy = false;
          return null;
        }
      }
      String name = c.thread.getName();
      if (name != c.name) {
        rename(c, w, name);
      }
      long id = s.thread.getId();
      if (c.mounted != id) {
        long now = System.nanoTime();
        if (c.mounted != 0) {
          w.vthreadUnmount(now, c.mounted);
        }
        w.vthreadMount(now, id);
        c.mounted = id;
      }
      endSpin(s, w);
      injectFailure();
      if (s.aggDepth > 0 && !s.aggBlocked) {
        summarise(s, w); // the busy time so far comes before the event about to be written
      }
      s.writing = c;
      return w;
    } catch (RuntimeException | Error e) {
      c.busy = false;
      throw e;
    }
  }

  /** Any other event ends the thread's spin, at the end of its last spin call. */
  private static void endSpin(ThreadState s, StreamWriter w) {
    if (s.spinRegion != 0) {
      w.spinExit(s.spinLastEnd, s.spinRegion);
      s.spinRegion = 0;
    }
  }

  private void injectFailure() {
    if (failAfter != 0 && eventsForFailure.incrementAndGet() == failAfter) {
      throw new IllegalStateException("failure injected by test.fail=" + failAfter);
    }
  }

  /**
   * Opens the thread's one stream at its first event. A thread whose stream cannot be opened is
   * never asked for again: this and all its later events are counted as dropped.
   */
  private StreamWriter open(ThreadState s) {
    if (s.lost != null || s.noStream) {
      countLost(s);
      return null;
    }
    Thread t = s.thread;
    try {
      int flags = t.isDaemon() ? ThreadDef.DAEMON : 0;
      int pool = s.pool;
      if (t instanceof ForkJoinWorkerThread) {
        boolean carrier = t.getClass().getName().equals("jdk.internal.misc.CarrierThread");
        pool = poolId(((ForkJoinWorkerThread) t).getPool(), carrier);
      }
      s.name = t.getName();
      s.stream = writer.openStream(t.getId(), s.name, flags, pool, System.nanoTime());
      jvmCounts.register(s);
      return s.stream;
    } catch (TraceWriter.StreamNotOpenedException e) {
      // Disk full, I/O error or trace closed: the writer told why and keeps the thread's count.
      s.lost = e.lostStream();
    } catch (RuntimeException e) {
      s.noStream = true;
    }
    countLost(s);
    return null;
  }

  /** One event of a thread without a stream is dropped. */
  private void countLost(ThreadState s) {
    if (s.lost != null) {
      s.lost.drop();
    } else {
      droppedUndefined.increment();
    }
  }

  private void rename(ThreadState s, StreamWriter w, String name) {
    s.name = name;
    try {
      writer.renameThread(w, System.nanoTime(), name);
    } catch (Exception e) {
      // The rename is lost; events still carry the stream id.
    }
  }

  // ---- ids and definitions
  // ------------------------------------------------------------------------

  /**
   * The id of object {@code o} (0 for null), defined in the trace at first sight. The caller holds
   * the thread's guard.
   */
  private long objectId(int region, Object o) {
    if (o == null) {
      return 0;
    }
    long found = objectIds.lookup(o);
    long id = ObjectIds.id(found);
    if (found != id) {
      define(region, id, o);
    }
    return id;
  }

  /**
   * The id of the object that stands for a lock, from the thread's one-entry cache or {@link
   * #objectId}; called outside the guard (lock ids are kept while measurement is off too), so the
   * guard is taken around {@link #objectId}, which may write a definition.
   */
  private long lockId(ThreadState s, int region, Object standsFor) {
    if (standsFor == s.lastLock) {
      return s.lastLockId;
    }
    boolean was = s.busy;
    s.busy = true;
    long id;
    try {
      id = objectId(region, standsFor);
    } finally {
      s.busy = was;
    }
    s.lastLock = standsFor;
    s.lastLockId = id;
    return id;
  }

  /** Writes the definition of object {@code o}, seen for the first time, under {@code id}. */
  private void define(int region, long id, Object o) {
    int parties = 0;
    if (o instanceof CyclicBarrier) {
      parties = ((CyclicBarrier) o).getParties();
    } else if (o instanceof Phaser) {
      parties = ((Phaser) o).getRegisteredParties();
    } else if (o instanceof CountDownLatch) {
      parties = (int) Math.min(Integer.MAX_VALUE, ((CountDownLatch) o).getCount());
    }
    ConstructKind kind = SyncObjects.kindOf(o);
    try {
      writer.defineObject(
          new ObjectDef(
              id, kind != null ? kind : regions.kind(region), SyncObjects.className(o), parties));
    } catch (Exception e) {
      // Events keep the id; only the object's description is lost (counted).
      descriptionsLost.increment();
    }
  }

  private int poolId(Object pool) {
    return poolId(pool, false);
  }

  /**
   * @param carriesVirtual the pool carries virtual threads (described as such)
   */
  private int poolId(Object pool, boolean carriesVirtual) {
    if (pool == null) {
      return 0;
    }
    int id = idOf(pool);
    if (poolsSeen.firstSight(id)) {
      ConstructKind kind = ConstructKind.EXECUTOR;
      int parallelism = 0;
      String name = pool.getClass().getName() + "@" + Integer.toHexString(id);
      if (pool instanceof ForkJoinPool) {
        kind = ConstructKind.FORK_JOIN_POOL;
        parallelism = ((ForkJoinPool) pool).getParallelism();
        if (pool == ForkJoinPool.commonPool()) {
          name = "ForkJoinPool.commonPool";
        }
      } else if (pool instanceof ThreadPoolExecutor) {
        parallelism = ((ThreadPoolExecutor) pool).getCorePoolSize();
      }
      if (carriesVirtual || isVirtualThreadScheduler(pool)) {
        kind = ConstructKind.VIRTUAL_THREAD;
        name = "virtual thread scheduler";
        virtualScheduler = id;
      }
      try {
        writer.definePool(new PoolDef(id, kind, name, parallelism));
      } catch (Exception e) {
        // Events keep the id; only the pool's description is lost (counted).
        descriptionsLost.increment();
      }
    }
    return id;
  }

  /** The JDK's scheduler of virtual threads: a fork-join pool whose factory is the JDK's. */
  private static boolean isVirtualThreadScheduler(Object pool) {
    return pool instanceof ForkJoinPool
        && ((ForkJoinPool) pool)
            .getFactory()
            .getClass()
            .getName()
            .startsWith("java.lang.VirtualThread");
  }

  /** A pool's id: its identity hash code, never 0. */
  private static int idOf(Object pool) {
    int id = System.identityHashCode(pool) & 0x7FFFFFFF;
    return id == 0 ? 1 : id;
  }

  private static long targetId(Object target) {
    return target instanceof Thread ? ((Thread) target).getId() : IdentityIds.of(target);
  }

  // ---- regions
  // ------------------------------------------------------------------------------------

  @Override
  public void enter(int region) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.enter(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void exit(int region) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.exit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void userRegionEnter(int region) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w == null) {
      s.pushRegion(notRecorded(s));
      return;
    }
    try {
      w.enter(System.nanoTime(), region);
      s.pushRegion(region);
    } finally {
      s.writing.busy = false;
    }
  }

  @Override
  public void userRegionEnter(String name, int site) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w == null) {
      s.pushRegion(notRecorded(s));
      return;
    }
    try {
      int region = regions.regionAt(site, name == null ? "null" : name);
      if (region == 0) {
        // Its definition could not be written: an event naming it would refer to nothing.
        droppedUndefined.increment();
        s.pushRegion(SKIPPED_UNDEFINED);
        return;
      }
      w.enter(System.nanoTime(), region);
      s.pushRegion(region);
    } finally {
      s.writing.busy = false;
    }
  }

  @Override
  public void userRegionExit() {
    ThreadState s = states.get();
    if (s.busy) {
      return;
    }
    int region = s.popRegion();
    if (region <= 0) {
      if (region == SKIPPED_VIRTUAL) {
        virtualSkipped.increment();
      } else if (region == SKIPPED_UNDEFINED && on) {
        droppedUndefined.increment();
      } else if (region == SKIPPED_LOST && on && !s.ignored) {
        countLost(s);
      }
      return;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.exit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /** What a user region's stack entry says when its enter was not recorded. */
  private int notRecorded(ThreadState s) {
    if (s.virtual) {
      return on ? SKIPPED_VIRTUAL : 0;
    }
    // A thread without a stream had its enter counted as dropped (unless re-entrant or off).
    return on && !s.busy && !s.ignored && (s.lost != null || s.noStream) ? SKIPPED_LOST : 0;
  }

  // ---- measurement control
  // ------------------------------------------------------------------------

  @Override
  public void measurementOn() {
    if (on) {
      return;
    }
    on = true;
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.measurementOn(System.nanoTime());
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void measurementOff() {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.measurementOff(System.nanoTime());
      } finally {
        s.writing.busy = false;
      }
    }
    jvmCounts.disable(); // the JVM goes on counting while the trace does not
    on = false;
  }

  @Override
  public boolean isRecording() {
    return on && !closed.get();
  }

  // ---- fork/join and tasks
  // ------------------------------------------------------------------------

  @Override
  public void fork(int region, Object pool, int parallelism) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        int poolId = poolId(pool);
        w.fork(System.nanoTime(), region, poolId, parallelism);
        if (aggregateForkJoin && poolId != 0) {
          forkedRegions.put(poolId, region);
        }
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void join(int region, Object pool) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        int poolId = poolId(pool);
        w.join(System.nanoTime(), region, poolId);
        if (aggregateForkJoin) {
          forkedRegions.remove(poolId, region);
        }
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void taskCreate(int region, Object task, Object pool) {
    if (aggregateForkJoin && task instanceof ForkJoinTask) {
      return; // summarised where it runs
    }
    int scheduler = virtualScheduler;
    if (scheduler != 0 && pool != null && scheduler == idOf(pool)) {
      return; // a virtual thread's run: its mount is what the trace shows
    }
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        int poolId = poolId(pool);
        if (poolId == 0 || poolId != virtualScheduler) {
          w.taskCreate(System.nanoTime(), region, IdentityIds.of(task), poolId);
        }
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void taskBegin(Object task) {
    ThreadState s = states.get();
    if (s.carrier) {
      return; // the scheduler running a virtual thread: its mount is what the trace shows
    }
    if (aggregateForkJoin && task instanceof ForkJoinTask) {
      aggregatedBegin(s);
      return;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.taskBegin(System.nanoTime(), IdentityIds.of(task));
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void taskEnd(Object task) {
    ThreadState s = states.get();
    if (s.carrier) {
      return; // the scheduler running a virtual thread: its mount is what the trace shows
    }
    if (aggregateForkJoin && task instanceof ForkJoinTask) {
      aggregatedEnd(s);
      return;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.taskEnd(System.nanoTime(), IdentityIds.of(task));
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void taskSummary(int region, Object pool, long count, long durationNanos) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.taskSummary(System.nanoTime(), region, poolId(pool), count, durationNanos);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void joinWaitEnter(int region, Object target) {
    if (aggregateForkJoin && Thread.currentThread() instanceof ForkJoinWorkerThread) {
      return; // a worker's application code runs inside summarised tasks (cheaper than the next)
    }
    ThreadState s = states.get();
    if (s.aggDepth > 0) {
      return; // a join inside a summarised task: its blocked part is recorded by joinBlocked*
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.joinWaitEnter(System.nanoTime(), region, targetId(target));
        s.callSiteJoins++;
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void joinWaitExit(int region) {
    if (aggregateForkJoin && Thread.currentThread() instanceof ForkJoinWorkerThread) {
      return;
    }
    ThreadState s = states.get();
    if (s.aggDepth > 0) {
      return;
    }
    if (s.callSiteJoins > 0) {
      s.callSiteJoins--;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.joinWaitExit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  // ---- aggregated fork-join tasks
  // ------------------------------------------------------------------

  /**
   * A fork-join task begins (aggregated mode): the outermost one on the thread starts a busy
   * interval; nested ones (run while joining, or inline) are counted in it.
   */
  private void aggregatedBegin(ThreadState s) {
    if (s.busy) {
      return;
    }
    if (s.aggDepth++ == 0) {
      s.aggStart = System.nanoTime();
      s.aggCount = 0;
    }
    s.aggCount++;
  }

  /** A fork-join task ends (aggregated mode): the outermost one writes the thread's summary. */
  private void aggregatedEnd(ThreadState s) {
    if (s.busy || s.aggDepth == 0 || --s.aggDepth > 0) {
      return;
    }
    s.aggBlocked = false;
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        summarise(s, w);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * Writes TASK_SUMMARY for the thread's busy time since the interval started (the guard is held):
   * the tasks begun meanwhile and the time they ran, in the parallel region open on the thread's
   * pool. The next interval starts now.
   */
  private void summarise(ThreadState s, StreamWriter w) {
    long now = System.nanoTime();
    long busy = now - s.aggStart;
    long count = s.aggCount;
    s.aggStart = now;
    s.aggCount = 0;
    if (busy <= 0 && count == 0) {
      return;
    }
    if (s.summaryPool < 0) {
      s.summaryPool =
          s.thread instanceof ForkJoinWorkerThread
              ? poolId(((ForkJoinWorkerThread) s.thread).getPool())
              : 0;
    }
    Integer region = s.summaryPool == 0 ? null : forkedRegions.get(s.summaryPool);
    w.taskSummary(now, region == null ? unforkedRegion() : region, s.summaryPool, count, busy);
  }

  /** The region of summaries of tasks that run outside any recorded parallel region. */
  private int unforkedRegion() {
    int r = unforkedRegion;
    if (r == 0) {
      synchronized (forkedRegions) {
        r = unforkedRegion;
        if (r == 0) {
          r =
              regions.register(
                  ConstructKind.FORK_JOIN_TASK,
                  "fork-join tasks",
                  "java.util.concurrent.ForkJoinTask",
                  "exec",
                  "",
                  0,
                  0);
          unforkedRegion = r;
        }
      }
    }
    return r;
  }

  @Override
  public void joinBlockedEnter(int region, Object task) {
    if (!aggregateForkJoin) {
      parkedJoinEnter(region, task);
      return;
    }
    ThreadState s = states.get();
    if (s.aggDepth == 0 || s.aggBlocked) {
      return;
    }
    StreamWriter w = acquire(s); // writes the summary up to now
    if (w != null) {
      try {
        w.joinWaitEnter(System.nanoTime(), region, IdentityIds.of(task));
        s.aggBlocked = true;
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void joinBlockedExit(int region) {
    if (!aggregateForkJoin) {
      parkedJoinExit(region);
      return;
    }
    ThreadState s = states.get();
    if (!s.aggBlocked) {
      return;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        long now = System.nanoTime();
        w.joinWaitExit(now, region);
        s.aggStart = now; // busy again from here
      } finally {
        s.aggBlocked = false;
        s.writing.busy = false;
      }
    } else {
      s.aggBlocked = false;
    }
  }

  /**
   * Full mode: a fork-join join that no application call site recorded (a method reference such as
   * {@code left::join}, or a join inside JDK code) still blocks the thread; the park inside {@code
   * awaitDone} is recorded as its join wait.
   */
  private void parkedJoinEnter(int region, Object task) {
    ThreadState s = states.get();
    if (s.callSiteJoins > 0 || s.parkedJoin || s.virtual) {
      return;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.joinWaitEnter(System.nanoTime(), region, IdentityIds.of(task));
        s.parkedJoin = true;
      } finally {
        s.writing.busy = false;
      }
    }
  }

  private void parkedJoinExit(int region) {
    ThreadState s = states.get();
    if (!s.parkedJoin) {
      return;
    }
    s.parkedJoin = false;
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.joinWaitExit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void helpEnter(int region) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.helpEnter(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void helpExit(int region) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.helpExit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  // ---- barriers
  // -----------------------------------------------------------------------------------

  @Override
  public void barrierEnter(int region, Object barrier, long generation) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        if (barrier instanceof CyclicBarrier) {
          // Woven code cannot see the generation: count it here, and keep it for the departure.
          generation = SyncObjects.generation((CyclicBarrier) barrier);
          s.barrierObject = barrier;
          s.barrierGeneration = generation;
        }
        long id = objectId(region, barrier); // first sight: before the timestamp
        w.barrierEnter(System.nanoTime(), region, id, generation);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void barrierExit(int region, Object barrier, long generation, int outcome) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        if (barrier instanceof CyclicBarrier && barrier == s.barrierObject) {
          generation = s.barrierGeneration;
        }
        s.barrierObject = null;
        w.barrierExit(System.nanoTime(), region, objectId(region, barrier), generation, outcome);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  // ---- locks
  // --------------------------------------------------------------------------------------
  //
  // A lock's id is the id of the object that stands for it (SyncObjects: a ReentrantLock's
  // synchronizer, a stamped lock for its views; a monitor's object whatever its class). Each thread
  // remembers what it holds, even while measurement is off, to mark re-entrant acquisitions and to
  // find the id of a held lock by reference: hashing an object whose monitor is held can inflate
  // the monitor, so a monitor is hashed only at its first request, before it is entered.

  /** The traits of the lock's class, from the thread's one-class cache. */
  private static int traits(ThreadState s, Object lock) {
    Class<?> c = lock.getClass();
    if (c != s.traitsClass) {
      s.traitsClass = c;
      s.traits = SyncObjects.traits(c);
    }
    return s.traits;
  }

  @Override
  public void lockRequest(int region, Object lock) {
    if (lock == null) {
      return; // the call throws NullPointerException
    }
    ThreadState s = states.get();
    long id = 0;
    Object standsFor = lock;
    if (!s.busy && !s.ignored) {
      id = s.heldIdOf(lock);
      int traits = 0;
      ConstructKind kind = regions.kind(region);
      boolean monitor = kind == ConstructKind.MONITOR || kind == ConstructKind.SYNCHRONIZED_METHOD;
      if (!monitor && kind != ConstructKind.OBJECT_WAIT) {
        traits = traits(s, lock);
        if (id == 0) {
          standsFor = SyncObjects.lockOf(lock, traits);
          if (standsFor == null) {
            return; // a condition of an unknown lock
          }
        }
      }
      if (id == 0) {
        id = lockId(s, region, standsFor);
      }
      s.requestObject = lock;
      s.requestId = id;
      s.requestTraits = traits;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.lockRequest(System.nanoTime(), region, id);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void lockAcquired(Object lock, int flags) {
    if (lock == null) {
      return;
    }
    ThreadState s = states.get();
    long id = 0;
    if (!s.busy && !s.ignored) {
      int traits;
      if (s.requestObject == lock) {
        id = s.requestId;
        traits = s.requestTraits;
      } else {
        // No request seen (e.g. a synchronized method entered before the agent could weave it).
        traits = traits(s, lock);
        id = s.heldIdOf(lock);
        if (id == 0) {
          Object standsFor = SyncObjects.lockOf(lock, traits);
          if (standsFor == null) {
            return;
          }
          id = lockId(s, 0, standsFor);
        }
      }
      s.requestObject = null;
      flags |= traits & SyncObjects.SHARED;
      if ((flags & (LockFlags.FAILED | LockFlags.ABORTED)) == 0
          && (traits & SyncObjects.UNOWNED) == 0) {
        if ((flags & LockFlags.AFTER_WAIT) == 0 && s.holds(id)) {
          flags |= LockFlags.REENTRANT;
        }
        s.hold(lock, id);
      }
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.lockAcquired(System.nanoTime(), id, flags);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void lockReleased(Object lock) {
    if (lock == null) {
      return;
    }
    ThreadState s = states.get();
    long id = 0;
    if (!s.busy && !s.ignored) {
      id = s.heldIdOf(lock);
      if (id == 0) {
        Object standsFor = SyncObjects.lockOf(lock, traits(s, lock));
        if (standsFor == null) {
          return;
        }
        id = lockId(s, 0, standsFor);
      }
      s.unhold(id);
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.lockReleased(System.nanoTime(), id);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  // ---- waits
  // --------------------------------------------------------------------------------------

  @Override
  public void waitEnter(int region, int waitKind) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.waitEnter(System.nanoTime(), region, waitKind);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void waitExit(int region) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.waitExit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void notify(int region, Object object, int waitKind) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
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
    int traits = SyncObjects.traits(object.getClass());
    if ((traits & SyncObjects.CONDITION) != 0) {
      Object lock = SyncObjects.lockOf(object, traits);
      if (lock != null) {
        return objectId(region, lock);
      }
    }
    return objectId(region, object);
  }

  /**
   * A spin call ({@code Thread.onSpinWait}, {@code Thread.yield}) starts. The first call of a spin
   * loop writes SPIN_ENTER; later calls continue the same spin and write nothing, as long as the
   * thread did no work since the previous call returned: at most {@link #SPIN_GAP_NANOS} passed, or
   * the thread used at most that much CPU time meanwhile (it was descheduled, which a busy host
   * does to spinning threads all the time). The spin ends, with SPIN_EXIT at the end of its last
   * call, when the thread records anything else.
   */
  @Override
  public void spinEnter(int region) {
    ThreadState s = states.get();
    if (s.virtual) {
      return; // not recorded: a virtual thread's spin could end on another carrier's stream
    }
    long now = System.nanoTime();
    if (s.spinRegion != 0 && !s.busy && on) {
      if (now - s.spinLastEnd <= SPIN_GAP_NANOS) {
        return;
      }
      long cpu = ThreadCpu.now();
      // CPU used since the last call returned, within the sampling error (<= SPIN_GAP_NANOS).
      if (cpu >= 0
          && s.spinCpu >= 0
          && (cpu - s.spinCpu) - (s.spinLastEnd - s.spinCpuAt) <= SPIN_GAP_NANOS) {
        s.spinCpu = cpu;
        s.spinCpuAt = now;
        return;
      }
    }
    StreamWriter w = acquire(s); // ends a previous spin, if any
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
  @Override
  public void spinExit(int region) {
    ThreadState s = states.get();
    if (s.spinRegion != 0 && !s.busy && !s.virtual) {
      long now = System.nanoTime();
      s.spinLastEnd = now;
      if (now - s.spinCpuAt > SPIN_GAP_NANOS) {
        s.spinCpu = ThreadCpu.now();
        s.spinCpuAt = now;
      }
    }
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

  // ---- threads
  // ------------------------------------------------------------------------------------

  @Override
  public void threadCreate(int region, Thread child) {
    ThreadState s = states.get();
    if (s.ignored || child == null) {
      return;
    }
    announcedThreads.put(child.getId(), 0);
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.threadCreate(System.nanoTime(), region, child.getId());
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void poolThreadCreate(int region, Thread child, Object pool) {
    ThreadState s = states.get();
    if (s.ignored || child == null) {
      return;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        int poolId = poolId(pool);
        announcedThreads.put(child.getId(), poolId);
        w.threadCreate(System.nanoTime(), region, child.getId());
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void threadBegin() {
    ThreadState s = states.get();
    if (s.begun || s.busy) {
      return;
    }
    Integer pool = announcedThreads.remove(s.thread.getId());
    if (pool == null && !s.virtual) {
      return; // a thread whose start was not seen (JDK internals): recorded from its first event
    }
    if (pool != null && s.stream == null) {
      s.pool = pool;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.threadBegin(System.nanoTime());
        s.begun = true;
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void threadEnd() {
    ThreadState s = states.get();
    if (s.begun) {
      StreamWriter w = acquire(s);
      if (w != null) {
        try {
          w.threadEnd(System.nanoTime());
          s.begun = false;
        } finally {
          s.writing.busy = false;
        }
      }
    }
    if (s.jvmCounted) {
      jvmCounts.threadEnded(s); // after the event: its time is not delayed
    }
  }

  // ---- life cycle
  // ---------------------------------------------------------------------------------

  @Override
  public void failed(Throwable problem) {
    Messages.problemOnce(
        "internal error, recording stopped ("
            + problem.getClass().getSimpleName()
            + (problem.getMessage() == null ? "" : ": " + problem.getMessage())
            + "); the trace in "
            + writer.directory()
            + " ends here");
    ThreadState s = states.get();
    boolean was = s.busy;
    s.busy = true;
    try {
      close(Map.of("agent.stopped_by", "internal error: " + problem));
    } finally {
      s.busy = was;
    }
  }

  /** Stops events at once, on all threads (the trace stays open until {@link #close}). */
  public void stopEvents() {
    if (WeftBridge.installed() == this) {
      WeftBridge.install(null);
    }
    on = false;
  }

  /**
   * Stops recording and closes the trace (idempotent): uninstalls this sink from the bridge, writes
   * {@code attributes} and the recorder's own counts, then the trace's end record.
   */
  public void close(Map<String, String> attributes) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    stopEvents();
    jvmCounts.close();
    Map<String, String> all = new LinkedHashMap<>(attributes);
    long skipped = virtualSkipped.sum();
    if (skipped > 0) {
      all.put("agent.virtual_thread_events_skipped", Long.toString(skipped));
    }
    long undefined = droppedUndefined.sum();
    if (undefined > 0) {
      all.put("agent.events_dropped_undefined", Long.toString(undefined));
    }
    long lost = descriptionsLost.sum() + regions.definitionErrors();
    if (lost > 0) {
      all.put("agent.definitions_lost", Long.toString(lost));
    }
    for (Map.Entry<String, String> e : all.entrySet()) {
      try {
        writer.defineAttribute(e.getKey(), e.getValue());
      } catch (Exception ex) {
        // The disk refused it; the others and the end record are still tried.
      }
    }
    try {
      writer.close(System.nanoTime());
    } catch (Exception e) {
      // The disk refused the last records: the reader treats the trace as cut, which it is.
    }
  }

  /** True once {@link #close} ran. */
  public boolean isClosed() {
    return closed.get();
  }

  /** The trace writer (for the agent's start and stop paths). */
  public TraceWriter writer() {
    return writer;
  }

  // ---- waits in frames running since before the attach (callee-side hooks; see RunningFrames)
  // ---------

  /** Created at the first callee hook (only attached agents weave them). */
  private volatile RunningFrames runningFrames;

  private RunningFrames runningFrames() {
    RunningFrames r = runningFrames;
    if (r == null) {
      synchronized (this) {
        r = runningFrames;
        if (r == null) {
          r = new RunningFrames(this, regions);
          runningFrames = r;
        }
      }
    }
    return r;
  }

  @Override
  public void calleeEnter(Object target, int operation) {
    runningFrames().enter(target, operation);
  }

  @Override
  public void calleeReturn(int result, Object target, int operation) {
    runningFrames().returned(result, target, operation);
  }

  @Override
  public void calleeThrow(Throwable thrown, Object target, int operation) {
    runningFrames().threw(thrown, target, operation);
  }

  /** Whether an event of the calling thread would be recorded now (not the agent's own work). */
  boolean mayRecordHere() {
    ThreadState s = states.get();
    return on && !s.busy && !s.ignored;
  }

  /** Whether this thread's last LOCK_REQUEST, still unanswered, named {@code lock}. */
  boolean requestOpenAtCallSite(Object lock) {
    return states.get().requestObject == lock;
  }

  /** Whether this thread's latest arrival at a CyclicBarrier, not yet departed, is at {@code b}. */
  boolean barrierOpenAtCallSite(Object barrier) {
    return states.get().barrierObject == barrier;
  }

  /**
   * Whether this thread holds, as far as recorded, the lock {@code o} stands for (a lock, or a
   * condition's lock).
   */
  boolean holdsLockOf(Object o) {
    ThreadState s = states.get();
    if (s.heldIdOf(o) != 0) {
      return true;
    }
    Object standsFor = SyncObjects.lockOf(o, traits(s, o));
    if (standsFor == null) {
      return false;
    }
    return s.heldIdOf(standsFor) != 0 || s.holds(lockId(s, 0, standsFor));
  }

  // The timed twins of barrierEnter, lockRequest and waitEnter: for RunningFrames, which takes the
  // wait's start before its stack walk.

  /** {@link #barrierEnter} at time {@code t}. */
  void barrierEnterAt(long t, int region, Object barrier) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        long generation = 0;
        if (barrier instanceof CyclicBarrier) {
          generation = SyncObjects.generation((CyclicBarrier) barrier);
          s.barrierObject = barrier;
          s.barrierGeneration = generation;
        }
        w.barrierEnter(t, region, objectId(region, barrier), generation);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /** {@link #lockRequest} at time {@code t}, for the JDK's locks (not monitors). */
  void lockRequestAt(long t, int region, Object lock) {
    ThreadState s = states.get();
    long id = 0;
    if (!s.busy && !s.ignored) {
      int traits = traits(s, lock);
      id = s.heldIdOf(lock);
      if (id == 0) {
        Object standsFor = SyncObjects.lockOf(lock, traits);
        if (standsFor == null) {
          return;
        }
        id = lockId(s, region, standsFor);
      }
      s.requestObject = lock;
      s.requestId = id;
      s.requestTraits = traits;
    }
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.lockRequest(t, region, id);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /** {@link #waitEnter} at time {@code t}. */
  void waitEnterAt(long t, int region, int waitKind) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.waitEnter(t, region, waitKind);
      } finally {
        s.writing.busy = false;
      }
    }
  }
}
