package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.TraceWriter;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ObjLongConsumer;

/**
 * What every event does before and after writing itself, in one place. An event method of a family
 * reads like this:
 *
 * <pre>{@code
 * ThreadState s = path.state();
 * StreamWriter w = path.begin(s);   // null: not recorded
 * if (w != null) {
 *   try {
 *     w.lockReleased(System.nanoTime(), id);
 *   } finally {
 *     s.writing.busy = false;
 *   }
 * }
 * }</pre>
 *
 * <p>{@link #begin} leaves at once (null) if the thread is inside the recorder already (the
 * re-entrancy guard: whatever the recorder or the trace writer does, e.g. take an instrumented
 * lock, is never traced), if the thread never records (agent threads), or if measurement is off.
 * Else it takes the guard and returns the thread's own {@link StreamWriter}, opened at the thread's
 * first event, after what must precede the event: a rename, the end of an open spin, a summary of
 * aggregated tasks, a virtual thread's mount. Nothing on this path allocates, and nothing in it is
 * a lambda: a lambda's first use links it, which must not happen on an application thread inside an
 * event, outside the guard.
 *
 * <p>Virtual threads never get a stream (there may be millions): on JDK 21+ their events go to the
 * stream of the carrier thread running them, each run of one virtual thread's events preceded by
 * VTHREAD_MOUNT (and followed by VTHREAD_UNMOUNT when the carrier records for itself or another
 * virtual thread). The guard taken is the carrier's. Events that cannot be recorded so (the carrier
 * is inside the recorder already) are counted in the trace attribute {@code
 * agent.virtual_thread_events_skipped}.
 */
final class EventPath {
  private final TraceWriter writer;
  private final ObjectDefinitions objects;
  private final TaskSummaries summaries;
  private final long failAfter;
  private final AtomicLong eventsForFailure = new AtomicLong();
  private final LongAdder virtualSkipped = new LongAdder();

  /** Events dropped because a definition they need could not be written (a region, a thread). */
  private final LongAdder droppedUndefined = new LongAdder();

  private final Map<Thread, Boolean> ignoredThreads = new ConcurrentHashMap<>();
  private final CarrierStates carriers;

  /** The JVM's own monitor-block and wait counts per recorded thread, the trace's cross-check. */
  final JvmCounts jvmCounts;

  /**
   * Threads inside a thread_start wait now: a platform thread that begins meanwhile without having
   * been announced was started by one of them (a {@code Thread.Builder.start}, whose thread exists
   * only once the call returns), not by JDK internals, so its lifetime is recorded.
   */
  final AtomicInteger threadStartsUnderway = new AtomicInteger();

  /**
   * Threads in a consumer's take from a queue now ({@link WaitEvents#queueTakeEnter}): while there
   * are none, a producer's hand-over has no one to wake and writes nothing.
   */
  final AtomicInteger takersWaiting = new AtomicInteger();

  /**
   * States of fork-join workers by thread id: pools may erase their workers' thread locals between
   * tasks (the common pool does), and a worker must keep its one stream (one entry per worker).
   */
  private final Map<Long, ThreadState> workerStates = new ConcurrentHashMap<>();

  /**
   * Workers of a {@code ThreadPoolExecutor} (or Tomcat's copy) alive when the recording started:
   * their loop began before and never runs the woven one, so hooks record their tasks ({@code
   * RunningFrames}).
   */
  private final Set<Thread> originalPoolLoops = ConcurrentHashMap.newKeySet();

  /** Whether the calling thread is one of {@link #originalPoolLoops}. */
  boolean runsOriginalPoolLoop() {
    return !originalPoolLoops.isEmpty() && originalPoolLoops.contains(Thread.currentThread());
  }

  /** Streams opened for threads not started yet, by Java id (see {@link #preOpen}). */
  private final Map<Long, PreOpened> preOpened = new ConcurrentHashMap<>();

  /**
   * Platform threads (carriers aside) that took a stream of their own and have no THREAD_END in it
   * yet. A thread whose start was seen writes its THREAD_END as its run() returns; the others
   * (running before an attach, {@code main}, threads started by code the agent does not weave) at
   * their {@code Thread.exit()} ({@link #endStream}), or, when they ended before that hook was
   * woven, when the recording starts ({@link #endTerminated}). Without it they would count as alive
   * to the end of the recording.
   */
  private final Map<Thread, ThreadState> unended = new ConcurrentHashMap<>();

  /**
   * Told when a thread opens or takes its stream, with the time (before its first event): the waits
   * followed for it since the attach have ended by then ({@link OpenWaits#threadRecorded}). Null
   * when nothing is followed.
   */
  private volatile ObjLongConsumer<Thread> firstEvents;

  /** Size of {@link #RECENT_STATES}, a power of two. */
  private static final int RECENT = 1024;

  /**
   * States of platform threads by Java id modulo {@link #RECENT}, in front of {@link #states}:
   * every event looks its thread's state up at least once, and a slot read and two compares cost
   * less than the thread local's hash probe and weak-reference check (a lock pair makes two
   * lookups: 6–12 ns less per pair with this table; BENCHMARKS.md, the lock pair). Static, so that
   * the JIT knows the table's place and size; a state names its recorder's path, and a state of
   * another path (an earlier attach, or a test's recorder) is a miss. A slot is read racily: a
   * state is published by a single reference write, and used only by the thread it belongs to,
   * which the compare checks. Virtual threads, of which there may be millions, are not kept. At
   * most {@link #RECENT} states of ended threads stay reachable from here (a slot is freed at
   * THREAD_END and at the close, or taken over).
   */
  private static final ThreadState[] RECENT_STATES = new ThreadState[RECENT];

  private final ThreadLocal<ThreadState> states =
      new ThreadLocal<ThreadState>() {
        @Override
        protected ThreadState initialValue() {
          Thread t = Thread.currentThread();
          if (isVirtual(t)) {
            return new ThreadState(t, false, true, EventPath.this);
          }
          if (t instanceof ForkJoinWorkerThread) {
            return workerState(t);
          }
          return platformState(t);
        }
      };

  private volatile boolean on;

  EventPath(
      TraceWriter writer,
      ObjectDefinitions objects,
      TaskSummaries summaries,
      boolean startOn,
      long failAfter,
      Instrumentation inst) {
    this.writer = writer;
    this.objects = objects;
    this.summaries = summaries;
    this.on = startOn;
    this.failAfter = failAfter;
    this.carriers = inst == null ? null : CarrierStates.create(inst);
    VirtualThreadPins.use(carriers);
    this.jvmCounts = new JvmCounts(writer, startOn);
  }

  /**
   * The calling thread's state: from {@link #RECENT_STATES} when its slot holds it, else from the
   * thread local.
   */
  ThreadState state() {
    Thread t = Thread.currentThread();
    ThreadState s = RECENT_STATES[(int) t.getId() & (RECENT - 1)];
    if (s != null && s.thread == t && s.path == this) {
      return s;
    }
    return stateOnMiss(t);
  }

  /**
   * The thread local's state, remembered in {@link #RECENT_STATES} when the slot is free, holds
   * another path's state, or holds a thread that has ended (checked on every 64th miss only: a
   * thread whose slot another live thread holds keeps using the thread local, and the two never
   * write the slot in turn).
   */
  private ThreadState stateOnMiss(Thread t) {
    ThreadState s = states.get();
    if (!s.virtual) {
      int slot = (int) t.getId() & (RECENT - 1);
      ThreadState held = RECENT_STATES[slot];
      if (held == null
          || held.path != this
          || (++s.recentMisses & 63) == 0 && !held.thread.isAlive()) {
        RECENT_STATES[slot] = s;
      }
    }
    return s;
  }

  /** Frees the thread's slot in {@link #RECENT_STATES} at its end. */
  void forget(ThreadState s) {
    int slot = (int) s.thread.getId() & (RECENT - 1);
    if (RECENT_STATES[slot] == s) {
      RECENT_STATES[slot] = null;
    }
  }

  /** Frees the slots of this path's states in {@link #RECENT_STATES}, at the close. */
  void forgetAll() {
    for (int i = 0; i < RECENT; i++) {
      ThreadState s = RECENT_STATES[i];
      if (s != null && s.path == this) {
        RECENT_STATES[i] = null;
      }
    }
  }

  /** Whether measurement is on. */
  boolean on() {
    return on;
  }

  /** Switches measurement on or off, for all threads. */
  void setOn(boolean on) {
    this.on = on;
  }

  /** Whether thread {@code t} is never traced (an agent thread). */
  boolean isIgnored(Thread t) {
    return ignoredThreads.containsKey(t);
  }

  /** Marks a thread as never traced. */
  void ignore(Thread t) {
    ignoredThreads.put(t, Boolean.TRUE);
  }

  /**
   * The stream of thread {@code s} with the guard taken, or null when this event is not to be
   * recorded. The caller writes one event and then, in a {@code finally}, writes {@code
   * s.writing.busy = false} (see below).
   */
  StreamWriter begin(ThreadState s) {
    if (s.busy || !on || s.ignored) {
      return null;
    }
    if (s.virtual) {
      return beginOnCarrier(s);
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
      beforeEvent(s, w);
      return w;
    } catch (RuntimeException | Error e) {
      s.busy = false; // e.g. the host's deep recursion overflowing the stack in here
      throw e;
    }
  }

  // An event ends with "s.writing.busy = false" in a finally block, written out rather than called:
  // in the host's deep recursion the call itself may overflow the stack, which would leave the
  // guard taken and the thread unrecorded for the rest of the run.

  /**
   * A virtual thread's event goes to the stream of the platform thread carrying it, after a
   * VTHREAD_MOUNT record whenever the carrier's last virtual thread was another one. The guard
   * taken is the carrier's: whatever runs on the carrier while this event is written is not
   * recorded.
   */
  private StreamWriter beginOnCarrier(ThreadState s) {
    if (carriers == null) {
      virtualSkipped.increment();
      return null;
    }
    ThreadState c = carriers.get();
    if (c == null) {
      c = carrierState();
      if (c == null) {
        virtualSkipped.increment();
        return null;
      }
    }
    if (c.busy || c.ignored) {
      virtualSkipped.increment();
      return null;
    }
    c.busy = true;
    try {
      StreamWriter w = c.stream;
      String name = c.thread.getName();
      if (w == null || name != c.name) {
        // Opening the stream and renaming write definitions under the trace writer's monitor.
        boolean pinned = carriers.pin();
        try {
          if (w == null) {
            w = open(c);
          }
          if (w != null && name != c.name) {
            rename(c, w, name);
          }
        } finally {
          if (pinned) {
            carriers.unpin();
          }
        }
        if (w == null) {
          c.busy = false;
          return null;
        }
      }
      if (s.carriedStream == 0) {
        defineCarried(s);
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
      beforeEvent(s, w);
      s.writing = c;
      return w;
    } catch (RuntimeException | Error e) {
      c.busy = false;
      throw e;
    }
  }

  /**
   * Defines the calling virtual thread as a logical stream on its carriers' streams, at its first
   * event (one definition record, no file). Pinned: it writes under the trace writer's monitor
   * while holding the carrier's stream. A virtual thread whose definition failed keeps its events
   * on the carriers' streams, where readers leave them to the carrier.
   */
  private void defineCarried(ThreadState s) {
    s.carriedStream = -1;
    boolean pinned = carriers.pin();
    try {
      Thread t = s.thread;
      s.carriedStream =
          writer.defineCarriedThread(t.getId(), t.getName(), flags(t), System.nanoTime());
    } catch (java.io.IOException | RuntimeException e) {
      // Left undefined: see above.
    } finally {
      if (pinned) {
        carriers.unpin();
      }
    }
  }

  /** Keeps a virtual caller on its carrier until {@link #unpin} (see {@link CarrierStates#pin}). */
  boolean pin() {
    return carriers != null && carriers.pin();
  }

  /** Ends a {@link #pin} that returned true. */
  void unpin() {
    carriers.unpin();
  }

  /** The state of the carrier running the calling virtual thread, or null if it cannot be told. */
  private ThreadState carrierState() {
    Thread carrier;
    try {
      carrier = carriers.currentCarrier();
    } catch (Throwable e) {
      return null;
    }
    ThreadState c = null;
    if (carrier instanceof ForkJoinWorkerThread) {
      c = workerStates.get(carrier.getId());
    }
    if (c == null || c.thread != carrier) {
      c = new ThreadState(carrier, ignoredThreads.containsKey(carrier), false, this);
      if (carrier instanceof ForkJoinWorkerThread) {
        workerStates.put(carrier.getId(), c);
      }
    }
    carriers.set(c);
    return c;
  }

  /** What comes before any event of thread {@code s}, with the guard held. */
  private void beforeEvent(ThreadState s, StreamWriter w) {
    if (s.spinRegion != 0) {
      // Any other event ends the thread's spin: at the end of its last spin call, or when it ran
      // again after being descheduled there.
      w.spinExit(WaitEvents.spinEnd(s), s.spinRegion);
      s.spinRegion = 0;
    }
    if (failAfter != 0 && eventsForFailure.incrementAndGet() == failAfter) {
      throw new IllegalStateException("failure injected by test.fail=" + failAfter);
    }
    if (s.aggDepth > 0 && !s.aggBlocked) {
      summaries.summarise(s, w); // the busy time so far comes before the event about to be written
    }
  }

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
      return new ThreadState(t, ignoredThreads.containsKey(t), false, this);
    }
    // A platform thread may have carried virtual threads already: one state, one stream.
    ThreadState s = carriers.get();
    if (s == null || s.thread != t) {
      s = new ThreadState(t, ignoredThreads.containsKey(t), false, this);
      carriers.set(s);
    }
    return s;
  }

  /** A worker of the JDK's virtual-thread scheduler (a carrier of virtual threads). */
  static boolean isCarrier(Thread t) {
    return t.getClass().getName().equals("jdk.internal.misc.CarrierThread");
  }

  static boolean isVirtual(Thread t) {
    // JDK 21+: java.lang.VirtualThread / BoundVirtualThread; compiled for 17, so by name.
    String c = t.getClass().getName();
    return c.startsWith("java.lang.") && c.endsWith("VirtualThread");
  }

  /**
   * Opens the stream of a thread about to start, on the thread starting it: making the stream's
   * file costs 0.3–2 ms (tens of ms on a loaded host), which would otherwise fall on the new thread
   * between its definition and its first event, delaying its work. The new thread takes the stream
   * at its first event ({@link #open}). Nothing is done for a thread that is not new (started
   * already, or a virtual thread, which never has a stream of its own).
   */
  void preOpen(Thread child, int announcedPool) {
    if (child.getState() != Thread.State.NEW || isVirtual(child)) {
      return;
    }
    String name = child.getName();
    PreOpened p;
    try {
      int pool = pool(child, announcedPool);
      TraceWriter.Hosted h =
          hostable(child)
              ? writer.openHosted(child.getId(), name, flags(child), pool, System.nanoTime())
              : null;
      if (h != null) {
        p = new PreOpened(h.host(), h, null, name, null);
      } else {
        p =
            new PreOpened(
                writer.openStream(child.getId(), name, flags(child), pool, System.nanoTime()),
                null,
                null,
                name,
                null);
      }
    } catch (TraceWriter.StreamNotOpenedException e) {
      p = new PreOpened(null, null, e.lostStream(), name, null);
    } catch (RuntimeException e) {
      return; // the thread opens its stream itself
    }
    preOpened.put(child.getId(), p);
  }

  /**
   * Whether platform thread {@code t} may be carried on an ended thread's stream ({@link
   * TraceWriter#openHosted}): any but the carriers of virtual threads, whose streams hold mounts of
   * their own.
   */
  private static boolean hostable(Thread t) {
    return !isVirtual(t) && !isCarrier(t);
  }

  /**
   * Opens the stream of a thread that was running before the recording started (an attach), at
   * {@code time}: the thread is in the trace from the recording's first moment, with its name, not
   * only from its first event. Called before any event can be recorded; the thread takes the stream
   * at its first event ({@link #open}). Tasks its pool (a scheduled executor) holds for later are
   * written on its stream as created now ({@code scheduled}).
   */
  void openExisting(Thread t, long time, ScheduledAtAttach scheduled) {
    if (isVirtual(t) || ignoredThreads.containsKey(t) || preOpened.containsKey(t.getId())) {
      return;
    }
    String name = t.getName();
    try {
      Object executor = PoolWorkers.poolOf(t);
      int pool = executor != null ? objects.poolId(executor) : pool(t, 0);
      if (executor != null && PoolWorkers.runsTasksInALoop(executor)) {
        originalPoolLoops.add(t); // its runWorker loop is the original: hooks record its tasks
      }
      StreamWriter stream = writer.openStream(t.getId(), name, flags(t), pool, time);
      preOpened.put(t.getId(), new PreOpened(stream, null, null, name, t));
      scheduled.add(executor, stream, time);
      if (!isCarrier(t)) {
        jvmCounts.registerUnclaimed(t.getId(), stream.id()); // the JVM does not count carriers
      }
    } catch (TraceWriter.StreamNotOpenedException e) {
      preOpened.put(t.getId(), new PreOpened(null, null, e.lostStream(), name, t));
    } catch (RuntimeException e) {
      // The thread opens its stream itself, at its first event.
    }
  }

  /** A stream opened for a thread before it started, or the count of its lost events. */
  static final class PreOpened {
    final StreamWriter stream;

    /** When {@code stream} is a host's, the thread's place on it; else null. */
    final TraceWriter.Hosted hosted;

    final TraceWriter.LostStream lost;
    final String name;

    /** The thread, for a stream opened at an attach (see {@link #endTerminated}); else null. */
    final Thread thread;

    PreOpened(
        StreamWriter stream,
        TraceWriter.Hosted hosted,
        TraceWriter.LostStream lost,
        String name,
        Thread thread) {
      this.stream = stream;
      this.hosted = hosted;
      this.lost = lost;
      this.name = name;
      this.thread = thread;
    }
  }

  private static int flags(Thread t) {
    return t.isDaemon() ? ThreadDef.DAEMON : 0;
  }

  /** The pool a thread's definition names: a fork-join worker's own, else the announced one. */
  private int pool(Thread t, int announcedPool) {
    if (t instanceof ForkJoinWorkerThread) {
      boolean carrier = isCarrier(t);
      return objects.poolId(((ForkJoinWorkerThread) t).getPool(), carrier);
    }
    return announcedPool;
  }

  /**
   * Opens the thread's one stream at its first event. A thread whose stream cannot be opened is
   * never asked for again: this and all its later events are counted as dropped.
   */
  private StreamWriter open(ThreadState s) {
    if (s.finished) {
      return null; // after its THREAD_END the stream is another thread's, or finished
    }
    if (s.lost != null || s.noStream) {
      countLost(s);
      return null;
    }
    Thread t = s.thread;
    PreOpened p = preOpened.isEmpty() ? null : preOpened.remove(t.getId());
    if (p != null) {
      s.name = p.name;
      s.lost = p.lost;
      s.stream = p.stream;
      if (p.stream == null) {
        countLost(s);
        return null;
      }
      s.hosted = p.hosted;
      s.streamId = p.hosted != null ? p.hosted.stream() : p.stream.id();
      jvmCounts.register(s);
      owned(s);
      return p.stream;
    }
    try {
      s.name = t.getName();
      int pool = pool(t, s.pool);
      TraceWriter.Hosted h =
          hostable(t)
              ? writer.openHosted(t.getId(), s.name, flags(t), pool, System.nanoTime())
              : null;
      if (h != null) {
        s.hosted = h;
        s.stream = h.host();
        s.streamId = h.stream();
      } else {
        s.stream = writer.openStream(t.getId(), s.name, flags(t), pool, System.nanoTime());
        s.streamId = s.stream.id();
      }
      jvmCounts.register(s);
      owned(s);
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

  private void owned(ThreadState s) {
    if (!s.carrier) {
      unended.put(s.thread, s);
    }
    ObjLongConsumer<Thread> l = firstEvents;
    if (l != null) {
      l.accept(s.thread, System.nanoTime());
    }
  }

  /** See {@link #firstEvents}. */
  void onFirstEvent(ObjLongConsumer<Thread> listener) {
    firstEvents = listener;
  }

  /** Thread {@code s} wrote its THREAD_END (its run() returned). */
  void streamEnded(ThreadState s) {
    unended.remove(s.thread, s);
    originalPoolLoops.remove(s.thread);
  }

  /**
   * The calling thread {@code s} exits ({@code Thread.exit()}): THREAD_END into its stream when it
   * has none yet, also into the stream opened for it at an attach that it never took. Returns
   * whether it was written.
   */
  boolean endStream(ThreadState s) {
    if (s.virtual || s.carrier || s.ignored) {
      return false;
    }
    originalPoolLoops.remove(s.thread); // it exits: no task of it comes any more
    boolean unclaimed = s.stream == null && preOpened.containsKey(s.thread.getId());
    if (!unclaimed && !unended.containsKey(s.thread)) {
      return false;
    }
    StreamWriter w = begin(s); // takes an unclaimed stream, which registers it
    if (!unended.remove(s.thread, s) || w == null) {
      if (w != null) {
        s.writing.busy = false;
      }
      return false;
    }
    try {
      w.threadEnd(System.nanoTime());
    } finally {
      s.writing.busy = false;
    }
    retire(s, w);
    return true;
  }

  /**
   * Platform thread {@code s} wrote its THREAD_END into its stream {@code w}, and gives the stream
   * up: it records nothing more. A hosted thread's stretch of its host ends ({@link
   * TraceWriter#endHosted}); a stream of its own is kept to host a thread started later, or
   * finished at once (its file closed, its end recorded: {@link TraceWriter#releaseStream}). Either
   * way a program that starts a thread per task holds files and mappings for the threads alive at
   * once, not for every thread it started. A virtual thread's end is on its carrier's stream, which
   * goes on; a carrier's stream holds its virtual threads' mounts and hosts no one.
   */
  void retire(ThreadState s, StreamWriter w) {
    if (s.virtual || s.stream != w) {
      return;
    }
    s.finished = true;
    s.stream = null;
    try {
      if (s.hosted != null) {
        writer.endHosted(s.hosted, s.thread.getId(), System.nanoTime());
      } else if (!s.carrier && s.mounted == 0) {
        writer.releaseStream(w);
      } else {
        w.retire();
      }
    } catch (RuntimeException | LinkageError e) {
      // The stream stays open to the trace's close, which finishes it as before.
    }
  }

  /**
   * Writes THREAD_END into the streams of the threads that terminated without one (they ended
   * before {@code Thread.exit()} was woven, while an attach wove the loaded classes), at {@code at}
   * (the recording's start) or their last event if later, calling {@code before} with each thread
   * and that time first. Its stream is written from this thread: one that has terminated writes
   * nothing more, and its last writes happened-before its termination was seen. Returns the threads
   * ended.
   */
  List<Thread> endTerminated(long at, ObjLongConsumer<Thread> before) {
    List<Thread> ended = new ArrayList<>();
    for (ThreadState s : unended.values()) {
      if (terminated(s.thread) && !s.busy && unended.remove(s.thread, s)) {
        long end = Math.max(at, s.stream.lastTime());
        before.accept(s.thread, end);
        s.stream.threadEnd(end);
        ended.add(s.thread);
      }
    }
    for (Map.Entry<Long, PreOpened> e : preOpened.entrySet()) {
      PreOpened p = e.getValue();
      if (p.thread != null
          && p.stream != null
          && terminated(p.thread)
          && preOpened.remove(e.getKey(), p)) {
        long end = Math.max(at, p.stream.lastTime());
        before.accept(p.thread, end);
        p.stream.threadEnd(end);
        ended.add(p.thread);
      }
    }
    return ended;
  }

  private static boolean terminated(Thread t) {
    return t.getState() == Thread.State.TERMINATED && !t.isAlive();
  }

  /** Whether thread {@code t} took a stream of its own: it recorded an event. */
  boolean recorded(Thread t) {
    return unended.containsKey(t);
  }

  /** One event of a thread without a stream is dropped. */
  void countLost(ThreadState s) {
    if (s.lost != null) {
      s.lost.drop();
    } else {
      droppedUndefined.increment();
    }
  }

  private void rename(ThreadState s, StreamWriter w, String name) {
    s.name = name;
    try {
      writer.renameThread(s.streamId != 0 ? s.streamId : w.id(), System.nanoTime(), name);
    } catch (Exception e) {
      // The rename is lost; events still carry the stream id.
    }
  }

  /** Counts an event of a virtual thread that could not be recorded. */
  void countVirtualSkipped() {
    virtualSkipped.increment();
  }

  /** Counts an event dropped because a definition it needs could not be written. */
  void countUndefined() {
    droppedUndefined.increment();
  }

  long virtualSkipped() {
    return virtualSkipped.sum();
  }

  long droppedUndefined() {
    return droppedUndefined.sum();
  }
}
