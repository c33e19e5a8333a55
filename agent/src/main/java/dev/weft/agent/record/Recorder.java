package dev.weft.agent.record;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.agent.bridge.WeftSink;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.TraceWriter;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
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

  private final TraceWriter writer;
  private final RegionRegistry regions;
  private final long failAfter;
  private final AtomicLong eventsForFailure = new AtomicLong();
  private final IdentityIds objectsSeen = new IdentityIds(1 << 16);
  private final IdentityIds poolsSeen = new IdentityIds(1 << 10);
  private final LongAdder virtualSkipped = new LongAdder();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Map<Thread, Boolean> ignoredThreads = new ConcurrentHashMap<>();
  private final CarrierStates carriers;
  private final ThreadLocal<ThreadState> states =
      new ThreadLocal<ThreadState>() {
        @Override
        protected ThreadState initialValue() {
          Thread t = Thread.currentThread();
          if (isVirtual(t)) {
            return new ThreadState(t, false, true);
          }
          if (carriers == null) {
            return new ThreadState(t, ignoredThreads.containsKey(t), false);
          }
          // A platform thread may have carried virtual threads already: one state, one stream.
          ThreadState s = carriers.get();
          if (s == null) {
            s = new ThreadState(t, ignoredThreads.containsKey(t), false);
            carriers.set(s);
          }
          return s;
        }
      };
  private volatile boolean on;

  /**
   * @param writer the open trace
   * @param regions the region registry writing into the same trace
   * @param startOn whether measurement starts on
   * @param failAfter for tests: throw at this event (0 = never)
   * @param inst to reach virtual threads' carriers (JDK 21+); null: virtual threads are skipped
   */
  public Recorder(
      TraceWriter writer,
      RegionRegistry regions,
      boolean startOn,
      long failAfter,
      Instrumentation inst) {
    this.writer = writer;
    this.regions = regions;
    this.on = startOn;
    this.failAfter = failAfter;
    this.carriers = inst == null ? null : CarrierStates.create(inst);
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
      injectFailure();
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
      c = new ThreadState(carrier, ignoredThreads.containsKey(carrier), false);
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
      injectFailure();
      s.writing = c;
      return w;
    } catch (RuntimeException | Error e) {
      c.busy = false;
      throw e;
    }
  }

  private void injectFailure() {
    if (failAfter != 0 && eventsForFailure.incrementAndGet() == failAfter) {
      throw new IllegalStateException("failure injected by test.fail=" + failAfter);
    }
  }

  private StreamWriter open(ThreadState s) {
    Thread t = s.thread;
    try {
      int flags = t.isDaemon() ? ThreadDef.DAEMON : 0;
      int pool = 0;
      if (t instanceof ForkJoinWorkerThread) {
        boolean carrier = t.getClass().getName().equals("jdk.internal.misc.CarrierThread");
        pool = poolId(((ForkJoinWorkerThread) t).getPool(), carrier);
      }
      s.name = t.getName();
      s.stream = writer.openStream(t.getId(), s.name, flags, pool, System.nanoTime());
      return s.stream;
    } catch (Exception e) {
      // Trace closed or disk refused the file: this thread stays unrecorded (the writer tells why).
      return null;
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

  private long objectId(int region, Object o) {
    long id = IdentityIds.of(o);
    if (id != 0 && objectsSeen.firstSight(id)) {
      int parties = 0;
      if (o instanceof CyclicBarrier) {
        parties = ((CyclicBarrier) o).getParties();
      } else if (o instanceof Phaser) {
        parties = ((Phaser) o).getRegisteredParties();
      } else if (o instanceof CountDownLatch) {
        parties = (int) Math.min(Integer.MAX_VALUE, ((CountDownLatch) o).getCount());
      }
      try {
        writer.defineObject(
            new ObjectDef(id, regions.kind(region), o.getClass().getName(), parties));
      } catch (Exception e) {
        // Events keep the id; only the object's description is lost.
      }
    }
    return id;
  }

  private int poolId(Object pool) {
    return poolId(pool, false);
  }

  /**
   * @param virtualScheduler the pool carries virtual threads (described as such)
   */
  private int poolId(Object pool, boolean virtualScheduler) {
    if (pool == null) {
      return 0;
    }
    int id = System.identityHashCode(pool) & 0x7FFFFFFF;
    id = id == 0 ? 1 : id;
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
      if (virtualScheduler) {
        kind = ConstructKind.VIRTUAL_THREAD;
        name = "virtual thread scheduler";
      }
      try {
        writer.definePool(new PoolDef(id, kind, name, parallelism));
      } catch (Exception e) {
        // Events keep the id; only the pool's description is lost.
      }
    }
    return id;
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
    return s.virtual && on ? SKIPPED_VIRTUAL : 0;
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
        w.fork(System.nanoTime(), region, poolId(pool), parallelism);
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
        w.join(System.nanoTime(), region, poolId(pool));
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void taskCreate(int region, Object task, Object pool) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.taskCreate(System.nanoTime(), region, IdentityIds.of(task), poolId(pool));
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void taskBegin(Object task) {
    ThreadState s = states.get();
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
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.joinWaitEnter(System.nanoTime(), region, targetId(target));
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void joinWaitExit(int region) {
    ThreadState s = states.get();
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
        w.barrierEnter(System.nanoTime(), region, objectId(region, barrier), generation);
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
        w.barrierExit(System.nanoTime(), region, IdentityIds.of(barrier), generation, outcome);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  // ---- locks
  // --------------------------------------------------------------------------------------

  @Override
  public void lockRequest(int region, Object lock) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.lockRequest(System.nanoTime(), region, objectId(region, lock));
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void lockAcquired(Object lock, int flags) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.lockAcquired(System.nanoTime(), IdentityIds.of(lock), flags);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void lockReleased(Object lock) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.lockReleased(System.nanoTime(), IdentityIds.of(lock));
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
        w.notify(System.nanoTime(), region, objectId(region, object), waitKind);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void spinEnter(int region) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.spinEnter(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void spinExit(int region) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.spinExit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  // ---- threads
  // ------------------------------------------------------------------------------------

  @Override
  public void threadCreate(int region, Thread child) {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.threadCreate(System.nanoTime(), region, child == null ? 0 : child.getId());
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void threadBegin() {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.threadBegin(System.nanoTime());
      } finally {
        s.writing.busy = false;
      }
    }
  }

  @Override
  public void threadEnd() {
    ThreadState s = states.get();
    StreamWriter w = acquire(s);
    if (w != null) {
      try {
        w.threadEnd(System.nanoTime());
      } finally {
        s.writing.busy = false;
      }
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
    try {
      for (Map.Entry<String, String> e : attributes.entrySet()) {
        writer.defineAttribute(e.getKey(), e.getValue());
      }
      long skipped = virtualSkipped.sum();
      if (skipped > 0) {
        writer.defineAttribute("agent.virtual_thread_events_skipped", Long.toString(skipped));
      }
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
}
