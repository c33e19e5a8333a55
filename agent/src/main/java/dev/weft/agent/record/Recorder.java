package dev.weft.agent.record;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.agent.bridge.WeftSink;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Turns bridge events into trace events: each thread writes into its own {@link StreamWriter},
 * opened at the thread's first event, with no lock and no allocation per event.
 *
 * <p>This class is the sink the bridge calls and the recording's life cycle; each event goes on to
 * the file of its construct family ({@link RegionEvents}, {@link LockEvents}, {@link WaitEvents},
 * {@link BarrierEvents}, {@link TaskEvents}, {@link ThreadEvents}). What every event does before
 * and after writing itself (the thread's state, the re-entrancy guard, measurement on/off, virtual
 * threads' carriers, lost streams) is {@link EventPath}; which objects events name and how they are
 * described in the trace is {@link ObjectDefinitions} with one {@link ObjectDescriber} per family.
 */
public final class Recorder extends WeftSink {
  private final TraceWriter writer;
  private final RegionRegistry regions;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ObjectDefinitions objects;
  private final EventPath path;
  private final RegionEvents regionEvents;
  private final TaskEvents tasks;
  private final BarrierEvents barriers;
  private final LockEvents locks;
  private final WaitEvents waits;
  private final ThreadEvents threads;
  private final VirtualThreadEvents virtualThreads;

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
    this.objects = new ObjectDefinitions(writer, regions);
    TaskSummaries summaries = new TaskSummaries(aggregateForkJoin, regions, objects);
    this.path = new EventPath(writer, objects, summaries, startOn, failAfter, inst);
    this.regionEvents = new RegionEvents(path, regions);
    this.tasks = new TaskEvents(path, objects, summaries);
    this.barriers = new BarrierEvents(path, objects);
    this.locks = new LockEvents(path, regions, objects);
    this.waits = new WaitEvents(path, objects);
    this.threads = new ThreadEvents(path, objects);
    this.virtualThreads = new VirtualThreadEvents(path);
  }

  /**
   * Links the recorder's reads of lock and barrier internals ahead of use. Called once on an
   * ignored background thread at start, so an application thread's first lock or barrier event does
   * not pay for it between its own clock and the event's.
   */
  public static void warmUp() {
    LockObjects.warmUp();
    BarrierObjects.warmUp();
  }

  /**
   * Takes the baseline of the JVM's per-thread counts (see {@link JvmCounts}) on the calling agent
   * thread, once the weaving is in place. Threads created after the recording started start from 0.
   */
  public void takeJvmBaseline() {
    path.jvmCounts.takeBaseline();
  }

  /**
   * Puts the application's threads that are alive now into the trace, from now (an attach, before
   * the bridge is installed): JVM and JDK service threads (the root thread group and the JDK's
   * innocuous threads) and ignored threads are left out. Returns how many were put in; those that
   * were blocked or waiting then are {@link #waitingAtAttach}; the tasks their scheduled pools held
   * for later are created now ({@link ScheduledAtAttach}).
   */
  public int openExistingThreads() {
    long now = System.nanoTime();
    int opened = 0;
    ScheduledAtAttach scheduled = new ScheduledAtAttach(regions, objects);
    for (Thread t : applicationThreads()) {
      path.openExisting(t, now, scheduled);
      opened++;
      Thread.State state = t.getState();
      if (state != Thread.State.RUNNABLE && state != Thread.State.NEW) {
        waitingAtAttach.add(t.getName() + " " + state);
        waitingThreads.add(t);
      } else if (state == Thread.State.RUNNABLE) {
        waitingThreads.add(t); // perhaps in the kernel, in a network call (OpenWaits.addNativeIo)
      }
    }
    openedAt = now;
    return opened;
  }

  /**
   * The threads alive now but the JVM's and the JDK's service threads (the root thread group and
   * the JDK's innocuous threads).
   */
  private static List<Thread> applicationThreads() {
    List<Thread> threads = new ArrayList<>();
    for (Thread t : allThreads()) {
      ThreadGroup g = t.getThreadGroup();
      if (g != null && g.getParent() != null && !g.getName().equals("InnocuousThreadGroup")) {
        threads.add(t);
      }
    }
    return threads;
  }

  /** Every platform thread alive now, the JVM's and the JDK's included (the root group's tree). */
  static List<Thread> allThreads() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    Thread[] all = new Thread[root.activeCount() + 16];
    int n = root.enumerate(all, true);
    List<Thread> threads = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (all[i].isAlive()) {
        threads.add(all[i]);
      }
    }
    return threads;
  }

  /**
   * An attached agent: reads the waits of the threads that were waiting when {@link
   * #openExistingThreads} ran (before any class is retransformed) and returns the poller that
   * follows them to their ends ({@link OpenWaits}), to run on an agent thread; null when none of
   * them is the user's.
   */
  public Runnable waitsOpenAtAttach() {
    OpenWaits w = new OpenWaits(writer, regions);
    boolean poll = w.add(waitingThreads, openedAt, OpenWaits.MARK);
    waitingThreads.clear();
    openWaits = w;
    path.onFirstEvent(w::threadRecorded);
    return poll ? w::run : null;
  }

  /**
   * An attached agent's recording starts at {@code at}, the loaded classes woven. Until now they
   * ran their original code, so two things went unseen: threads that ended (their THREAD_END is
   * written now, else they would count as alive to the end), and waits that began before their
   * hooks were woven and are still open (taken now, from the threads that recorded nothing since
   * the attach, and followed like those open at the attach). Returns the poller to start on an
   * agent thread, or null.
   */
  public Runnable recordingStarts(long at) {
    OpenWaits w = openWaits;
    path.endTerminated(
        at,
        (t, end) -> {
          if (w != null) {
            w.threadEnding(t, end); // its waits end before its THREAD_END
            w.threadExited(t, end + 1);
          }
        });
    if (w == null) {
      return null;
    }
    List<Thread> waiting = new ArrayList<>();
    for (Thread t : applicationThreads()) {
      Thread.State state = t.getState();
      if (state != Thread.State.NEW && !path.recorded(t) && !path.isIgnored(t)) {
        waiting.add(t); // RUNNABLE ones: perhaps in the kernel, in a network call
      }
    }
    return w.add(waiting, at, OpenWaits.MARK_WEAVING) ? w::run : null;
  }

  /**
   * The recording stops at {@code at}: the waits followed since the attach that are still open are
   * written without their end (OpenWaits#stop); puts what was recorded into {@code attributes}.
   */
  public void stopOpenWaits(long at, Map<String, String> attributes) {
    OpenWaits w = openWaits;
    openWaits = null;
    path.onFirstEvent(null);
    if (w != null) {
      String recorded = w.stop(at);
      if (recorded != null) {
        attributes.put("agent.waits_open_at_attach", recorded);
      }
    }
  }

  /**
   * How many of the threads put into the trace at the attach were then BLOCKED, WAITING or
   * TIMED_WAITING, and the first ten as "name STATE": {@code 2 (worker-0 WAITING, pool-1 BLOCKED)}.
   * Their waits began before the recording, which cannot see them.
   */
  public String waitingAtAttach() {
    int n = waitingAtAttach.size();
    if (n == 0) {
      return "0";
    }
    List<String> named = waitingAtAttach.subList(0, Math.min(n, 10));
    return n + " (" + String.join(", ", named) + (n > 10 ? ", and more" : "") + ")";
  }

  /** Marks a thread as never traced (the writer's background thread, the agent's own threads). */
  public void ignore(Thread t) {
    path.ignore(t);
  }

  /**
   * The calling thread's recording guard, for code that must not be traced (the class-file
   * transformer): see {@link ThreadGuard} for how to hold it.
   */
  public ThreadGuard guard() {
    return path.state();
  }

  // ---- events: one line each, on to the family's file

  @Override
  public void enter(int region) {
    regionEvents.enter(region);
  }

  @Override
  public void exit(int region) {
    regionEvents.exit(region);
  }

  @Override
  public void userRegionEnter(int region) {
    regionEvents.userRegionEnter(region);
  }

  @Override
  public void userRegionEnter(String name, int site) {
    regionEvents.userRegionEnter(name, site);
  }

  @Override
  public void userRegionExit() {
    regionEvents.userRegionExit();
  }

  @Override
  public void measurementOn() {
    regionEvents.measurementOn();
  }

  @Override
  public void measurementOff() {
    regionEvents.measurementOff();
  }

  @Override
  public boolean isRecording() {
    return path.on() && !closed.get();
  }

  @Override
  public void fork(int region, Object pool, int parallelism) {
    tasks.fork(region, pool, parallelism);
  }

  @Override
  public void join(int region, Object pool) {
    tasks.join(region, pool);
  }

  @Override
  public void taskCreate(int region, Object task, Object pool) {
    tasks.taskCreate(region, task, pool);
  }

  @Override
  public void taskWithdrawn(Object task) {
    tasks.taskWithdrawn(task);
  }

  @Override
  public void tasksWithdrawn(Object tasks) {
    if (tasks instanceof Iterable) {
      for (Object task : (Iterable<?>) tasks) {
        this.tasks.taskWithdrawn(task);
      }
    }
  }

  @Override
  public void taskRemoved(boolean removed, Object task) {
    if (removed) {
      tasks.taskWithdrawn(task);
    }
  }

  @Override
  public void taskRejected(Object executor, Object task) {
    tasks.taskRejected(executor, task);
  }

  @Override
  public void taskScheduled(int region, int delayedRegion, Object task, Object pool) {
    tasks.taskScheduled(region, delayedRegion, task, pool);
  }

  /**
   * Whether the calling thread is a pool worker whose loop ran before the recording started (an
   * attach), so that hooks, not its loop, record its tasks.
   */
  boolean runsOriginalPoolLoop() {
    return path.runsOriginalPoolLoop();
  }

  @Override
  public void taskBegin(Object task) {
    tasks.taskBegin(task);
  }

  @Override
  public void taskEnd(Object task) {
    tasks.taskEnd(task);
  }

  @Override
  public void taskSummary(int region, Object pool, long count, long durationNanos) {
    tasks.taskSummary(region, pool, count, durationNanos);
  }

  @Override
  public void joinWaitEnter(int region, Object target) {
    tasks.joinWaitEnter(region, target);
  }

  @Override
  public void joinWaitExit(int region) {
    tasks.joinWaitExit(region);
  }

  @Override
  public void joinBlockedEnter(int region, Object task) {
    tasks.joinBlockedEnter(region, task);
  }

  @Override
  public void joinBlockedExit(int region) {
    tasks.joinBlockedExit(region);
  }

  @Override
  public void helpEnter(int region) {
    tasks.helpEnter(region);
  }

  @Override
  public void helpExit(int region) {
    tasks.helpExit(region);
  }

  @Override
  public void barrierEnter(int region, Object barrier, long generation) {
    barriers.barrierEnter(region, barrier, generation);
  }

  @Override
  public void barrierExit(int region, Object barrier, long generation, int outcome) {
    barriers.barrierExit(region, barrier, generation, outcome);
  }

  @Override
  public void lockRequest(int region, Object lock) {
    locks.lockRequest(region, lock);
  }

  @Override
  public void lockAcquired(Object lock, int flags) {
    locks.lockAcquired(lock, flags);
  }

  @Override
  public void lockAcquiredAtOnce(int region, Object lock) {
    locks.lockAcquiredAtOnce(region, lock);
  }

  @Override
  public void lockReleased(Object lock) {
    locks.lockReleased(lock);
  }

  @Override
  public void waitEnter(int region, int waitKind) {
    waits.waitEnter(region, waitKind);
  }

  @Override
  public void waitExit(int region) {
    waits.waitExit(region);
  }

  @Override
  public void notify(int region, Object object, int waitKind) {
    waits.notify(region, object, waitKind);
  }

  @Override
  public void parkEnter(int region) {
    waits.parkEnter(region);
  }

  @Override
  public void queueTakeEnter(int region, Object queue) {
    waits.queueTakeEnter(region, WaitKind.QUEUE, queue);
  }

  @Override
  public void queueTakeExit(int region) {
    waits.queueTakeExit(region);
  }

  @Override
  public long queueHandOverStart() {
    return waits.takersWaiting() ? System.nanoTime() : 0;
  }

  @Override
  public void queueHandedOver(int region, Object queue, long since) {
    waits.queueHandedOver(region, queue, since);
  }

  @Override
  public void spinEnter(int region) {
    waits.spinEnter(region);
  }

  @Override
  public void spinExit(int region) {
    waits.spinExit(region);
  }

  @Override
  public void threadCreate(int region, Thread child) {
    threads.threadCreate(region, child);
  }

  @Override
  public void poolThreadCreate(int region, Thread child, Object pool) {
    threads.poolThreadCreate(region, child, pool);
  }

  @Override
  public void threadBegin() {
    threads.threadBegin();
  }

  @Override
  public void threadEnd() {
    threads.threadEnd();
  }

  @Override
  public void threadExiting() {
    OpenWaits w = openWaits;
    if (w != null) {
      w.threadEnding(Thread.currentThread(), Long.MAX_VALUE); // before its THREAD_END
    }
    threads.threadExiting();
    if (w != null) {
      w.threadExited(Thread.currentThread(), System.nanoTime());
    }
  }

  @Override
  public void vthreadMount(Thread vthread) {
    virtualThreads.mount(vthread);
  }

  @Override
  public void vthreadUnmount(Thread vthread) {
    virtualThreads.unmount(vthread);
  }

  // ---- life cycle

  @Override
  public void failed(Throwable problem) {
    Messages.problemOnce(
        "internal error, recording stopped ("
            + problem.getClass().getSimpleName()
            + (problem.getMessage() == null ? "" : ": " + problem.getMessage())
            + "); the trace in "
            + writer.directory()
            + " ends here");
    ThreadState s = path.state();
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
    path.setOn(false);
  }

  /**
   * Counts the threads still alive now (their THREAD_JVM_COUNTS), as events stopped at a detach:
   * the restore that follows takes up to seconds, and the trace ends where events stopped, so their
   * CPU and run-queue times must end there too, not at the close. Threads that end meanwhile are
   * not counted again.
   */
  public void countLiveThreads() {
    path.jvmCounts.close();
  }

  /**
   * Stops recording and closes the trace (idempotent): uninstalls this sink from the bridge, writes
   * {@code attributes} and the recorder's own counts, then the trace's end record, timed now.
   */
  public void close(Map<String, String> attributes) {
    close(attributes, System.nanoTime());
  }

  /**
   * As {@link #close(Map)}, with the end record timed {@code end}: when events stopped earlier
   * ({@link #stopEvents}, as at a detach, which restores the classes before it closes), the trace
   * ends there, so that the time spent restoring, in which nothing was recorded, is not in the
   * analysis window as time the threads were seen to run.
   */
  public void close(Map<String, String> attributes, long end) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    stopEvents();
    path.forgetAll();
    path.jvmCounts.close();
    Map<String, String> all = new LinkedHashMap<>(attributes);
    long skipped = path.virtualSkipped();
    if (skipped > 0) {
      all.put("agent.virtual_thread_events_skipped", Long.toString(skipped));
    }
    long missed = path.jvmCounts.missed();
    if (missed > 0) {
      all.put("agent.jvm_counts_missed", Long.toString(missed));
    }
    long timesFrom = path.jvmCounts.baselineTime();
    if (timesFrom != 0) {
      all.put(JvmCounts.TIMES_FROM, Long.toString(timesFrom));
    }
    long undefined = path.droppedUndefined();
    if (undefined > 0) {
      all.put("agent.events_dropped_undefined", Long.toString(undefined));
    }
    long lost = objects.descriptionsLost() + regions.definitionErrors();
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
      writer.close(end);
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

  private final List<String> waitingAtAttach = new ArrayList<>();
  private final List<Thread> waitingThreads = new ArrayList<>();
  private long openedAt;

  /** The waits open at the attach (or found open as the recording started); null otherwise. */
  private volatile OpenWaits openWaits;

  /** Created at the first callee hook (only attached agents weave them). */
  private volatile RunningFrames runningFrames;

  private final CallerCode callerCode = new CallerCode();

  /** The classes the agent wove, by internal name (a live view; see CallerCode). */
  public void wovenClasses(Set<String> internalNames) {
    callerCode.wovenClasses(internalNames);
  }

  private RunningFrames runningFrames() {
    RunningFrames r = runningFrames;
    if (r == null) {
      synchronized (this) {
        r = runningFrames;
        if (r == null) {
          r = new RunningFrames(this, regions, callerCode);
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
    ThreadState s = path.state();
    return path.on() && !s.busy && !s.ignored;
  }

  boolean requestOpenAtCallSite(Object lock) {
    return locks.requestOpenAtCallSite(lock);
  }

  boolean barrierOpenAtCallSite(Object barrier) {
    return barriers.openAtCallSite(barrier);
  }

  boolean holdsLockOf(Object o) {
    return locks.holdsLockOf(o);
  }

  boolean joinOpenAtCallSite(Object target) {
    return tasks.joinOpenAtCallSite(target);
  }

  boolean releasedAtCallSite(Object lock) {
    return locks.releasedAtCallSite(lock);
  }

  /** LOCK_RELEASED seen by a callee hook (not a call site's). */
  void releasedByHook(Object lock) {
    locks.release(lock, false);
  }

  // ---- monitor waits in frames running since before the attach (the JVM's events;
  // RunningMonitors)

  private final Object monitorsLock = new Object();
  private RunningMonitors runningMonitors;

  /** A JvmMonitorEvents, typed Object: {@code jdk.jfr} may be missing from the runtime. */
  private Object jvmMonitorEvents;

  private String monitorEventsProblem;
  private boolean monitorsStopped;

  /**
   * Reads the JVM's monitor events on the calling agent thread until they are stopped (an attached
   * agent; starting takes seconds). {@code enters}: contended {@code synchronized}; {@code waits}:
   * {@code Object.wait}.
   */
  public void startMonitorEvents(Instrumentation inst, boolean enters, boolean waits) {
    if (closed.get()) {
      return;
    }
    RunningMonitors m = new RunningMonitors(writer, regions, path, inst, enters, waits);
    JvmMonitorEvents j;
    try {
      j = JvmMonitorEvents.start(m, path); // seconds: not under the lock, which a stop takes
    } catch (Throwable e) { // LinkageError without jdk.jfr; IllegalStateException from JFR
      synchronized (monitorsLock) {
        monitorEventsProblem = e.getClass().getSimpleName() + ": " + e.getMessage();
      }
      return;
    }
    synchronized (monitorsLock) {
      if (monitorsStopped) {
        j.discard(); // the recording stopped meanwhile
        return;
      }
      jvmMonitorEvents = j;
      runningMonitors = m;
    }
    j.run(); // until the stop closes the stream
  }

  /**
   * Stops reading the JVM's monitor events, after those of waits that ended by {@code stopAt}
   * ({@code System.nanoTime}), unless {@code atExit}; puts what was seen into {@code attributes}.
   */
  public void stopMonitorEvents(long stopAt, boolean atExit, Map<String, String> attributes) {
    JvmMonitorEvents j;
    RunningMonitors m;
    synchronized (monitorsLock) {
      monitorsStopped = true;
      j = (JvmMonitorEvents) jvmMonitorEvents;
      m = runningMonitors;
      jvmMonitorEvents = null;
      if (j == null) {
        if (monitorEventsProblem != null) {
          attributes.put("agent.monitor_events", "unavailable (" + monitorEventsProblem + ")");
        }
        return;
      }
    }
    // At the JVM's exit JFR shuts down as well: its last events are not waited for.
    j.stop(stopAt, atExit ? 0 : 5_000_000_000L);
    long from = j.from();
    if (from < 0) {
      // JFR had not delivered its first events: no claim about the monitors (analysis header).
      attributes.put("agent.monitor_events", "not started before the recording stopped");
      return;
    }
    attributes.put("agent.monitor_events_from", Long.toString(from));
    attributes.put(
        "agent.monitor_events",
        "recorded "
            + m.recorded
            + ", at woven call sites "
            + m.woven
            + ", not the application's "
            + m.notUser
            + ", outside the recording "
            + m.outsideWindow);
  }

  // The timed twins of barrierEnter, lockRequest, waitEnter and joinWaitEnter: for RunningFrames,
  // which takes the
  // wait's start before its stack walk.

  void barrierEnterAt(long t, int region, Object barrier, long generation) {
    barriers.barrierEnterAt(t, region, barrier, generation);
  }

  void forkAt(long t, int region, Object pool, int parallelism) {
    tasks.forkAt(t, region, pool, parallelism);
  }

  void joinWaitEnterAt(long t, int region, Object target) {
    tasks.joinWaitEnterAt(t, region, target);
  }

  void lockRequestAt(long t, int region, Object lock) {
    locks.lockRequestAt(t, region, lock);
  }

  void waitEnterAt(long t, int region, int waitKind) {
    waits.waitEnterAt(t, region, waitKind);
  }
}
