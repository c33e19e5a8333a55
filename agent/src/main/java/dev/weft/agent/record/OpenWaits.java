package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits already in progress when the agent attached: a thread parked in a barrier or a lock, in
 * {@code Object.wait} or blocked on a monitor since before the recording, or in the kernel in a
 * network call that the JVM calls RUNNABLE (a select, an accept, a socket stream's read: {@link
 * #addNativeIo}, followed while the thread uses no CPU). Neither a hook nor the JVM's monitor
 * events can see them (they began before either existed), so their threads are polled until each
 * leaves its wait, and the part of the wait inside the recording is written, from the recording's
 * start, into a {@link ThreadDef#SUPPLEMENT supplement} stream of the thread. Its region, at the
 * user's line, is named after the JDK method the user called with {@value #MARK}.
 *
 * <p>A thread is still in the same wait while its state, its park blocker and (once known) the
 * JVM's counts of its waits and blocked entries ({@link ThreadMXBean}) are unchanged, or while the
 * counts changed but the thread used less than SAME_WAIT_CPU_NANOS of CPU since the last poll (a
 * park that returned and was parked again within the same call). The end is the midpoint between
 * the last poll that saw it waiting and the first that did not. Polls come every millisecond at
 * first and then every hundredth of the wait's age, at least every 10 ms: the end is off by at most
 * half the distance of the two polls (5 ms, more when the poller runs late on a busy host), which
 * is written with the wait in {@code agent.waits_open_at_attach} as its uncertainty.
 *
 * <p>What is recorded: a monitor entry (BLOCKED) as LOCK_REQUEST at the start and LOCK_ACQUIRED
 * (CONTENDED) and LOCK_RELEASED at the end, like the JVM's events ({@link RunningMonitors}; the
 * monitor's id is its identity hash with bit 61 set); {@code Thread.join} as a join wait for the
 * joined thread (the object its {@code wait} is on), so that the analysis knows what ended it;
 * {@code Object.wait} as an object_wait, {@code Thread.sleep} as a sleep, and a park as a park
 * (WAIT_ENTER/WAIT_EXIT): a barrier's generation, a lock's holder and the like are not known. Only
 * the user's waits: the thread's stack has an application frame below the JDK's (an idle executor
 * worker has none, and one whose thread wraps the worker in an application class is in {@code
 * ThreadPoolExecutor.getTask}: idle too).
 *
 * <p>Waits are taken twice: at the attach, and again when the recording starts, after the loaded
 * classes were woven ({@link #MARK_WEAVING}): a wait that began meanwhile, before its hook was
 * woven, is seen by nothing else. The second time only threads that recorded no event since the
 * attach are taken: a thread that did may be in a wait its hook recorded.
 *
 * <p>A wait never outlives its thread: when a thread exits ({@link #threadEnding}), its waits still
 * open end before its THREAD_END, and a join waiting for it ends after it ({@link #threadExited}).
 */
final class OpenWaits {
  /** How the region of a wait open at the attach is marked. */
  static final String MARK = " (begun before the attach)";

  /**
   * How the region of a wait is marked that began after the attach but before its hook was woven,
   * found open when the recording started.
   */
  static final String MARK_WEAVING = " (begun while the agent wove)";

  /** Monitor ids of blocked entries: the object's identity hash with this bit set. */
  static final long IDENTITY_ID = 1L << 61;

  private static final long MIN_POLL_NANOS = 1_000_000;
  private static final long MAX_POLL_NANOS = 10_000_000;

  /** Less CPU than this between two polls that saw a thread wait again: one and the same wait. */
  private static final long SAME_WAIT_CPU_NANOS = 100_000;

  /** {@link Open#waitKind} of a monitor entry. */
  private static final int MONITOR_ENTRY = -1;

  /** {@link Open#waitKind} of a {@code Thread.join}. */
  private static final int THREAD_JOIN = -2;

  /** One wait open at the attach. */
  private static final class Open {
    final Thread thread;
    final Thread.State state;
    final Object blocker;
    final int region;
    final int waitKind; // or MONITOR_ENTRY, THREAD_JOIN

    /** In the kernel in a network call, RUNNABLE to the JVM ({@link #addNativeIo}). */
    boolean nativeIo;

    /** How its region is marked (begun before the attach, or while the agent wove). */
    String mark = "";

    final String what;

    /** When the recording saw it begin: the attach, or the recording's start. */
    final long start;

    /** Of a join: the thread joined, when known (the object its wait is on). */
    Thread target;

    /** Of a join: a time after the joined thread's THREAD_END, once it exited; else -1. */
    long targetExited = -1;

    long blockedCount = -1;
    long waitedCount = -1;
    long cpu = -1;
    long lockId;
    String lockClass = "java.lang.Object";
    long lastSeen;

    Open(
        Thread thread,
        Thread.State state,
        Object blocker,
        int region,
        int waitKind,
        String what,
        long start) {
      this.thread = thread;
      this.state = state;
      this.blocker = blocker;
      this.region = region;
      this.waitKind = waitKind;
      this.what = what;
      this.start = start;
    }
  }

  private final TraceWriter writer;
  private final RegionRegistry regions;
  private final List<Open> open = new ArrayList<>();

  /** Threads that recorded an event since the attach: their hooks see their waits. */
  private final Set<Thread> recordedThreads = Collections.newSetFromMap(new WeakHashMap<>());

  private final List<String> recorded = new ArrayList<>();
  private int ended;
  private boolean stopped;
  private boolean polling;
  private boolean everAdded;
  private boolean threadsTried;
  private ThreadMXBean threads;

  OpenWaits(TraceWriter writer, RegionRegistry regions) {
    this.writer = writer;
    this.regions = regions;
  }

  /**
   * Follows the waits open at {@code start} of {@code waiting}, threads that were blocked or
   * waiting then, or RUNNABLE in a network call ({@link #addNativeIo}), their regions marked {@code
   * mark}: read now, before their frames' classes are retransformed (at the attach), so that their
   * lines are those of the code they run. Threads whose wait is followed already are skipped.
   * Returns true when the caller is to start {@link #run} on an agent thread (waits were added, and
   * no poller runs).
   */
  synchronized boolean add(List<Thread> waiting, long start, String mark) {
    int added = 0;
    for (Thread t : waiting) {
      if (stopped || following(t)) {
        continue;
      }
      Thread.State state = t.getState();
      if (state == Thread.State.RUNNABLE) {
        added += addNativeIo(t, start, mark) ? 1 : 0;
        continue;
      }
      if (state != Thread.State.BLOCKED
          && state != Thread.State.WAITING
          && state != Thread.State.TIMED_WAITING) {
        continue;
      }
      Open w = openFor(t, state, start, mark);
      if (w != null) {
        open.add(w);
        everAdded = true;
        added++;
      }
    }
    if (added == 0 || polling) {
      return false;
    }
    polling = true;
    return true;
  }

  /**
   * The wait thread {@code t} (in {@code state}, not RUNNABLE) is in now, from {@code start}, its
   * region marked {@code mark}; null when it is not the user's.
   */
  private Open openFor(Thread t, Thread.State state, long start, String mark) {
    Object blocker = LockSupport.getBlocker(t);
    StackTraceElement[] stack = t.getStackTrace();
    int user = userFrame(stack, false);
    if (user < 0 || waitsForItsNextTask(stack, user)) {
      return null; // not the user's wait
    }
    StackTraceElement at = stack[user];
    int waitKind;
    ConstructKind kind;
    String name;
    if (state == Thread.State.BLOCKED) {
      if (user != 0) {
        return null; // a monitor of the JDK's own code
      }
      waitKind = MONITOR_ENTRY;
      kind = ConstructKind.MONITOR;
      name = "synchronized";
    } else if (user == 0) {
      return null; // waiting without a JDK frame above: not a wait we can name
    } else {
      StackTraceElement called = stack[user - 1];
      String simple = called.getClassName().substring(called.getClassName().lastIndexOf('.') + 1);
      name = simple + "." + called.getMethodName();
      if (name.equals("Object.wait")) {
        waitKind =
            IdleObjectWaits.kind(
                at.getClassName(), at.getMethodName(), state == Thread.State.TIMED_WAITING);
        kind = ConstructKind.OBJECT_WAIT;
      } else if (name.equals("Thread.sleep")) {
        waitKind = WaitKind.SLEEP;
        kind = ConstructKind.SLEEP;
      } else if (name.equals("Thread.join")) {
        waitKind = THREAD_JOIN;
        kind = ConstructKind.THREAD_JOIN;
      } else if (at.getClassName().equals(PoolWorkers.COROUTINE_WORKER)
          || at.getClassName().equals(PoolWorkers.JBOSS_IDLE_PARKS)) {
        // A coroutine scheduler's idle worker, or jboss-threads' pool's, as woven code has it.
        waitKind = WaitKind.NEXT_TASK;
        kind = ConstructKind.PARK;
      } else {
        waitKind = WaitKind.PARK;
        kind = ConstructKind.PARK;
      }
    }
    int region = region(t, at, kind, name + mark);
    Open w = new Open(t, state, blocker, region, waitKind, t.getName() + " " + name, start);
    w.mark = mark;
    if (waitKind == THREAD_JOIN) {
      w.target = joined(t);
    }
    return w;
  }

  /**
   * A RUNNABLE thread blocked in the kernel in a network call of the JDK's, from the user's call:
   * {@code Selector.select} (epoll, kqueue, wepoll), an accept (Net.accept) or a socket stream's
   * read. The JVM calls such a thread RUNNABLE, so only its stack tells; the hooks record these
   * calls from their next one on, and the current one would count as execution to its end (an
   * acceptor of a server without new connections: the whole recording). It is followed as long as
   * it uses no CPU ({@link #stillWaiting}): needs the JVM's per-thread CPU time.
   */
  private boolean addNativeIo(Thread t, long start, String mark) {
    long cpu = threads() == null ? -1 : cpuTime(t);
    if (cpu < 0) {
      return false;
    }
    StackTraceElement[] stack = t.getStackTrace();
    if (stack.length == 0 || !stack[0].isNativeMethod() || t.getState() != Thread.State.RUNNABLE) {
      return false;
    }
    String top = stack[0].getClassName() + "." + stack[0].getMethodName();
    int waitKind;
    ConstructKind kind;
    String name;
    if (SELECTS.contains(top)) {
      waitKind = WaitKind.SELECT;
      kind = ConstructKind.SELECTOR;
      name = "Selector.select";
    } else if (top.equals("sun.nio.ch.Net.accept")) {
      waitKind = WaitKind.ACCEPT;
      kind = ConstructKind.SOCKET;
      name =
          calls(stack, "java.net.ServerSocket")
              ? "ServerSocket.accept"
              : "ServerSocketChannel.accept";
    } else if (SOCKET_READS.contains(top) && calls(stack, "sun.nio.ch.NioSocketImpl")) {
      waitKind = WaitKind.SOCKET_READ;
      kind = ConstructKind.SOCKET;
      name = "SocketInputStream.read";
    } else {
      return false;
    }
    int user = userFrame(stack, true);
    if (user < 0) {
      return false; // the JDK's own (its HTTP client's selector thread): not the user's call
    }
    int region = region(t, stack[user], kind, name + mark);
    Open w =
        new Open(t, Thread.State.RUNNABLE, null, region, waitKind, t.getName() + " " + name, start);
    w.nativeIo = true;
    w.cpu = cpu;
    open.add(w);
    everAdded = true;
    return true;
  }

  /**
   * The index of the first frame of {@code stack} below the JDK's (and, with {@code skipProxies},
   * below a method reference's proxy, which has no source; JDK 17 shows its frame), or -1 when
   * there is none or it is the agent's own.
   */
  private static int userFrame(StackTraceElement[] stack, boolean skipProxies) {
    int user = 0;
    while (user < stack.length
        && (RunningMonitors.isJdk(stack[user].getClassName())
            || (skipProxies && stack[user].getClassName().contains("$$Lambda")))) {
      user++;
    }
    return user == stack.length || stack[user].getClassName().startsWith("dev.weft.agent.")
        ? -1
        : user;
  }

  /**
   * Whether the JDK frames above the user's frame {@code user} are a {@code ThreadPoolExecutor}
   * worker's wait for its next task ({@code getTask}): an idle worker whose thread's own class or
   * wrapper is the application's (Tomcat's {@code TaskThread} around a scheduled executor's
   * worker); or the thread is a Jetty pool's worker polling for its next job ({@code idleJobPoll},
   * below the user's frame: its job queue is a class of Jetty's). It is idle as a worker without
   * such a frame is, not a park the user made.
   */
  private static boolean waitsForItsNextTask(StackTraceElement[] stack, int user) {
    for (int i = 0; i < user; i++) {
      if (stack[i].getMethodName().equals("getTask")
          && stack[i].getClassName().equals("java.util.concurrent.ThreadPoolExecutor")) {
        return true;
      }
    }
    // Jetty's pool polls its own queue class (the user frame): its worker's poll is in its Runner.
    for (int i = user; i < stack.length; i++) {
      if (stack[i].getMethodName().equals("idleJobPoll")
          && stack[i].getClassName().equals(JETTY_RUNNER)) {
        return true;
      }
    }
    return false;
  }

  /** The run loop of a worker of Jetty's {@code QueuedThreadPool} (binary name). */
  private static final String JETTY_RUNNER =
      "org.eclipse.jetty.util.thread.QueuedThreadPool$Runner";

  /** The region of a wait called {@code name} at frame {@code at} of thread {@code t}. */
  private int region(Thread t, StackTraceElement at, ConstructKind kind, String name) {
    String file = at.getFileName() == null ? sourceFile(t, at.getClassName()) : at.getFileName();
    int line = Math.max(0, at.getLineNumber());
    return regions.register(kind, name, at.getClassName(), at.getMethodName(), file, line, line);
  }

  /** The natives a selector waits in, on Linux, macOS and Windows. */
  private static final Set<String> SELECTS =
      Set.of("sun.nio.ch.EPoll.wait", "sun.nio.ch.KQueue.poll", "sun.nio.ch.WEPoll.wait");

  /** The natives a socket stream's read blocks in: untimed, and timed (polling first). */
  private static final Set<String> SOCKET_READS =
      Set.of("sun.nio.ch.SocketDispatcher.read0", "sun.nio.ch.Net.poll");

  /** Whether a frame of {@code stack} runs in class {@code name}. */
  private static boolean calls(StackTraceElement[] stack, String name) {
    for (StackTraceElement e : stack) {
      if (e.getClassName().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The source file of class {@code name}, for a frame that runs its code from before the class was
   * retransformed (the JVM names no file for it); "" when the class cannot be had.
   */
  private static String sourceFile(Thread t, String name) {
    try {
      String file =
          OriginalLines.of(Class.forName(name, false, t.getContextClassLoader())).sourceFile();
      return file == null ? "" : file;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return "";
    }
  }

  /** Whether a wait of thread {@code t} is followed now. */
  private boolean following(Thread t) {
    for (Open w : open) {
      if (w.thread == t) {
        return true;
      }
    }
    return false;
  }

  /**
   * The thread {@code joiner} joins: {@code Thread.join} of a platform thread waits on the thread
   * object itself, which the JVM names by class and identity hash; null when not found (the joined
   * thread is virtual, or java.management is missing).
   */
  private Thread joined(Thread joiner) {
    ThreadMXBean mx = threads();
    if (mx == null) {
      return null;
    }
    ThreadInfo info;
    try {
      info = mx.getThreadInfo(joiner.getId());
    } catch (RuntimeException e) {
      return null;
    }
    if (info == null || info.getLockInfo() == null) {
      return null;
    }
    int hash = info.getLockInfo().getIdentityHashCode();
    for (Thread t : Recorder.allThreads()) {
      if (System.identityHashCode(t) == hash) {
        return t;
      }
    }
    return null;
  }

  private ThreadMXBean threads() {
    if (!threadsTried) {
      threadsTried = true;
      try {
        threads = ManagementFactory.getThreadMXBean();
      } catch (Throwable e) { // no java.management: state and blocker alone
        threads = null;
      }
    }
    return threads;
  }

  /** Polls the threads until each has left its wait or the recording stops (an agent thread). */
  void run() {
    try {
      follow();
    } catch (RuntimeException | Error e) {
      synchronized (this) {
        polling = false;
      }
      Messages.problemOnce("stopped following the waits open at the attach: " + e);
    }
  }

  private void follow() {
    while (true) {
      long age;
      synchronized (this) {
        threads();
        if (stopped || open.isEmpty()) {
          polling = false; // a later add starts another poller
          return;
        }
        age = System.nanoTime() - open.get(0).start;
        poll();
      }
      LockSupport.parkNanos(Math.max(MIN_POLL_NANOS, Math.min(MAX_POLL_NANOS, age / 100)));
    }
  }

  private void poll() {
    ThreadInfo[] infos = null;
    if (threads != null) {
      long[] ids = new long[open.size()];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = open.get(i).thread.getId();
      }
      try {
        infos = threads.getThreadInfo(ids);
      } catch (RuntimeException e) {
        threads = null;
      }
    }
    // Still waiting: it waited at this moment, which lies between the two observations (the
    // thread infos above, the state read below). Ended: it ended before the state read, so the
    // clock is read again after it; a poller descheduled in between must not date the end early.
    long now = System.nanoTime();
    List<Open> next = null;
    for (int i = open.size() - 1; i >= 0; i--) {
      Open w = open.get(i);
      ThreadInfo info = infos == null ? null : infos[i];
      if (stillWaiting(w, info)) {
        w.lastSeen = now;
        continue;
      }
      long end = end(i, System.nanoTime());
      Open successor = w.waitKind == THREAD_JOIN ? nextJoin(w, end) : null;
      if (successor != null) {
        (next == null ? next = new ArrayList<>() : next).add(successor);
      }
    }
    if (next != null) {
      open.addAll(next);
    }
  }

  /**
   * The join thread {@code w.thread} went on to when its join {@code w} ended at {@code end}: a
   * loop joining one thread after another from a frame that runs since before the attach. Its next
   * join began before the hooks could see it (no event of the thread's since the attach), so it is
   * followed from there; null when the thread is not in a join now, or records its own events.
   */
  private Open nextJoin(Open w, long end) {
    Thread t = w.thread;
    Thread.State state = t.getState();
    if (recordedThreads.contains(t)
        || (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING)) {
      return null;
    }
    Open n = openFor(t, state, end, w.mark);
    return n != null && n.waitKind == THREAD_JOIN && n.target != w.target ? n : null;
  }

  /**
   * Writes wait {@code i} as ended between the last poll that saw it and {@code after}, a moment
   * after it ended, and stops following it.
   */
  private long end(int i, long after) {
    Open w = open.remove(i);
    long seen = Math.min(after, w.lastSeen == 0 ? w.start : w.lastSeen);
    long end = seen + (after - seen) / 2;
    if (w.waitKind == THREAD_JOIN && w.target != null) {
      // A join returns after its thread's end: never before the THREAD_END it waited for.
      end = w.targetExited >= 0 ? Math.min(after, Math.max(end, w.targetExited)) : after;
    }
    end = Math.max(w.start, end);
    write(w, end, (after - seen) / 2);
    ended++;
    return end;
  }

  private boolean stillWaiting(Open w, ThreadInfo info) {
    Thread t = w.thread;
    if (t.getState() != w.state || LockSupport.getBlocker(t) != w.blocker) {
      return false;
    }
    if (w.nativeIo) {
      // Blocked in the kernel it uses no CPU; any use means the call returned.
      long cpu = t.isAlive() ? cpuTime(t) : -1;
      if (cpu < 0 || cpu - w.cpu >= SAME_WAIT_CPU_NANOS) {
        return false;
      }
      w.cpu = cpu;
      return true;
    }
    if (info == null) {
      return t.isAlive();
    }
    if (w.waitKind == THREAD_JOIN
        && w.target != null
        && info.getLockInfo() != null
        && info.getLockInfo().getIdentityHashCode() != System.identityHashCode(w.target)) {
      // It joins another thread now (joins in a loop): the join it was in returned.
      return false;
    }
    long cpu = cpuTime(w.thread);
    if (w.waitedCount < 0) {
      w.waitedCount = info.getWaitedCount();
      w.blockedCount = info.getBlockedCount();
      w.cpu = cpu;
      if (info.getLockInfo() != null) {
        w.lockId = IDENTITY_ID | (info.getLockInfo().getIdentityHashCode() & 0xffffffffL);
        w.lockClass = info.getLockInfo().getClassName();
      }
      return true;
    }
    if (info.getWaitedCount() == w.waitedCount && info.getBlockedCount() == w.blockedCount) {
      w.cpu = cpu;
      return true;
    }
    // Waited again on the same object since the last poll. A park may return and be parked again
    // inside the same call (AQS does so; the runs of OpenWaitsIT saw a lock wait counted as ended
    // 11 ms before its lock was released), which takes microseconds of CPU: the same wait. A
    // thread that did work in between has left its wait and begun another.
    if (cpu >= 0 && w.cpu >= 0 && cpu - w.cpu < SAME_WAIT_CPU_NANOS) {
      w.waitedCount = info.getWaitedCount();
      w.blockedCount = info.getBlockedCount();
      w.cpu = cpu;
      return true;
    }
    return false;
  }

  /** The thread's CPU time, or -1 when the JVM does not measure it. */
  private long cpuTime(Thread t) {
    try {
      return threads.getThreadCpuTime(t.getId());
    } catch (RuntimeException e) { // UnsupportedOperationException
      return -1;
    }
  }

  /**
   * Thread {@code t} is exiting, or was found ended: it left its waits, which end now, and before
   * {@code exit}, the time of its THREAD_END when already known (else {@code Long.MAX_VALUE}: the
   * caller writes it after this returns, later on the clock).
   */
  synchronized void threadEnding(Thread t, long exit) {
    if (stopped) {
      return;
    }
    for (int i = open.size() - 1; i >= 0; i--) {
      if (open.get(i).thread == t) {
        end(i, Math.max(open.get(i).start, Math.min(System.nanoTime(), exit - 1)));
      }
    }
  }

  /**
   * Thread {@code t} took its stream at {@code at}, before its first event since the attach: a
   * thread records nothing while it waits, so its waits followed here ended before. (A thread may
   * wake and wait again between two polls in less CPU than tells two waits apart.)
   */
  synchronized void threadRecorded(Thread t, long at) {
    if (stopped) {
      return;
    }
    recordedThreads.add(t);
    for (int i = open.size() - 1; i >= 0; i--) {
      Open w = open.get(i);
      if (w.thread == t && at > w.start) {
        end(i, at);
      }
    }
  }

  /**
   * Thread {@code t} ended, its THREAD_END written before {@code at}: the joins waiting for it end
   * no earlier.
   */
  synchronized void threadExited(Thread t, long at) {
    for (Open w : open) {
      if (w.target == t) {
        w.targetExited = at;
      }
    }
  }

  /**
   * The recording stops at {@code at}: the waits still open are written without their end, as the
   * hooks leave a wait open at the stop; the analysis counts them to the end, as waits whose cause
   * lies after the recording (not on the critical path). Returns the trace attribute's value: how
   * many were recorded and the first ten; null when none was ever open.
   */
  synchronized String stop(long at) {
    if (!stopped) {
      stopped = true;
      for (Open w : open) {
        write(w, -1, 0);
      }
    }
    int n = recorded.size();
    if (n == 0) {
      return everAdded ? "0" : null;
    }
    List<String> named = recorded.subList(0, Math.min(n, 10));
    return n
        + " ("
        + String.join(", ", named)
        + (n > 10 ? ", and more" : "")
        + "; "
        + (n - ended)
        + " lasted to the end)";
  }

  /**
   * Writes the wait as ending at {@code end}, give or take {@code uncertainty} nanoseconds; as
   * still open for {@code end} -1.
   */
  private void write(Open w, long end, long uncertainty) {
    StreamWriter s;
    try {
      s = writer.openStream(w.thread.getId(), w.thread.getName(), ThreadDef.SUPPLEMENT, 0, w.start);
    } catch (TraceWriter.StreamNotOpenedException | RuntimeException e) {
      return; // the writer counts what it could not write
    }
    if (w.waitKind == MONITOR_ENTRY) {
      long id = w.lockId != 0 ? w.lockId : IDENTITY_ID;
      try {
        writer.defineObject(new ObjectDef(id, ConstructKind.MONITOR, w.lockClass, 0));
      } catch (Exception e) {
        // Optional: the events keep the id.
      }
      s.lockRequest(w.start, w.region, id);
      if (end >= 0) {
        s.lockAcquired(end, id, LockFlags.CONTENDED);
        s.lockReleased(end, id);
      }
    } else if (w.waitKind == THREAD_JOIN) {
      // The joined thread's Java id, as woven joins record it; 0 when unknown.
      s.joinWaitEnter(w.start, w.region, w.target == null ? 0 : w.target.getId());
      if (end >= 0) {
        s.joinWaitExit(end, w.region);
      }
    } else {
      s.waitEnter(w.start, w.region, w.waitKind);
      if (end >= 0) {
        s.waitExit(end, w.region);
      }
    }
    recorded.add(
        uncertainty == 0
            ? w.what
            : String.format(Locale.ROOT, "%s ±%.1f ms", w.what, uncertainty / 1e6));
  }
}
