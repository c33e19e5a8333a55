package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Monitor waits ({@code synchronized} contention and {@code Object.wait}) in frames that were
 * running when the agent attached, from the JVM's own monitor events ({@link JvmMonitorEvents}).
 * Such a frame keeps its unwoven code, and a monitor has no Java callee to hook.
 *
 * <p>The events arrive in batches, about a second late, on one consumer thread, which is the only
 * writer of the streams here: one {@link ThreadDef#SUPPLEMENT supplement} stream per thread, which
 * readers merge into the thread's own (a thread's own stream has one writer, itself, and its times
 * have moved on by then). A contended entry is LOCK_REQUEST at the wait's start, LOCK_ACQUIRED
 * (CONTENDED) at its end and LOCK_RELEASED at the same time (the hold is not known); an {@code
 * Object.wait} is WAIT_ENTER and WAIT_EXIT (object_wait).
 *
 * <p>What is recorded:
 *
 * <ul>
 *   <li><b>Only the user's waits</b>: a monitor entered in an application class's own code (the
 *       event's top frame), an {@code Object.wait} called by it (the first frame below the JDK's),
 *       as call-site weaving records them. The region is that frame's line in the original code.
 *   <li><b>Each wait once</b>: a method entered after the attach runs woven code, whose call sites
 *       record the wait themselves. Woven code calls the recorder before each {@code monitorenter}
 *       and {@code wait} call, so those instructions sit at other bytecode indexes than in the
 *       original class file ({@link OriginalLines}); an event is kept only when its frame's index
 *       is the original instruction's. The entry of a {@code synchronized} method (index 0) is
 *       kept: woven code cannot see its wait (the modifier stays), only the acquisition after it.
 *   <li>Only waits that end before the recording stops.
 *   <li>And a {@code java.util.Timer}'s waits for its next task, in a loop running since before the
 *       attach ({@link #timerWait}), as the woven loop records them ({@code JdkTimerThreads}).
 * </ul>
 */
final class RunningMonitors {
  /** A contended monitor entry ({@code jdk.JavaMonitorEnter}). */
  static final int ENTER = 1;

  /** {@code Object.wait} ({@code jdk.JavaMonitorWait}). */
  static final int WAIT = 2;

  /**
   * Monitor ids of these waits: the object's address when the JVM reported it, with this bit set so
   * that they never meet the recorder's dense object ids. A monitor whose object the garbage
   * collector moved gets a new id.
   */
  static final long ADDRESS_ID = 1L << 62;

  /** Most monitor objects defined in the trace; later ones keep their ids without a definition. */
  private static final int MAX_DEFINED = 100_000;

  /** One frame of a wait's stack, from the top. */
  record Frame(String className, String method, String descriptor, int bci) {}

  private final TraceWriter writer;
  private final RegionRegistry regions;
  private final EventPath path;
  private final Instrumentation inst;
  private final boolean enters;
  private final boolean waits;

  private final Map<Long, StreamWriter> streams = new HashMap<>();
  private final Map<Long, Long> lastTime = new HashMap<>();
  private final Set<Long> lostThreads = new HashSet<>();
  private final Map<Site, Integer> sites = new HashMap<>();
  private final Set<Long> definedMonitors = new HashSet<>();
  private final Map<String, Class<?>> classes = new HashMap<>();
  private long classesScannedAt;
  private boolean classesScanned;

  private volatile long stopAt = Long.MAX_VALUE;
  private volatile boolean closed;

  // What became of the JVM's events (consumer thread; read after it ended).
  long recorded;
  long woven;
  long notUser;
  long outsideWindow;

  RunningMonitors(
      TraceWriter writer,
      RegionRegistry regions,
      EventPath path,
      Instrumentation inst,
      boolean enters,
      boolean waits) {
    this.writer = writer;
    this.regions = regions;
    this.path = path;
    this.inst = inst;
    this.enters = enters;
    this.waits = waits;
  }

  /** Waits that end after {@code t} are not recorded (the recording stopped at {@code t}). */
  void stopAt(long t) {
    stopAt = t;
  }

  /** No more writes: the trace is about to be closed. */
  void close() {
    closed = true;
  }

  /**
   * One wait the JVM reported, on the consumer thread.
   *
   * @param kind {@link #ENTER} or {@link #WAIT}
   * @param start the wait's start, {@code System.nanoTime}
   * @param end its end
   * @param frames its stack from the top
   */
  void event(
      int kind,
      long javaThreadId,
      String threadName,
      long start,
      long end,
      long address,
      String monitorClass,
      List<Frame> frames) {
    if (closed || (kind == ENTER ? !enters : !waits)) {
      return;
    }
    long stop = stopAt;
    // Measurement off (Weft.off) is honoured as far as it is known when the batch comes in; after
    // the stop, the recording is off and the batch is judged by the stop's time.
    if (end > stop || (stop == Long.MAX_VALUE && !path.on())) {
      outsideWindow++;
      return;
    }
    int region = region(kind, frames);
    if (region <= 0) {
      return;
    }
    StreamWriter w = stream(javaThreadId, threadName, start);
    if (w == null) {
      return;
    }
    Long last = lastTime.get(javaThreadId);
    if (last != null && start < last) {
      outsideWindow++; // overlaps the thread's previous one: not a wait of its own
      return;
    }
    if (kind == ENTER) {
      long id = ADDRESS_ID | (address & (ADDRESS_ID - 1));
      define(id, monitorClass);
      w.lockRequest(start, region, id);
      w.lockAcquired(end, id, LockFlags.CONTENDED);
      w.lockReleased(end, id);
    } else {
      w.waitEnter(start, region, waitKind(region));
      w.waitExit(end, region);
    }
    lastTime.put(javaThreadId, end);
    recorded++;
  }

  /**
   * The kind of an {@code Object.wait} at {@code region}: a timer's two, a library pool's or
   * scheduler thread's idle wait ({@link #idleWaitKinds}), else object_wait.
   */
  private int waitKind(int region) {
    if (region == timerRegions[0]) {
      return WaitKind.NEXT_TASK;
    }
    if (region == timerRegions[1]) {
      return WaitKind.TIMER_DUE;
    }
    return idleWaitKinds.getOrDefault(region, WaitKind.OBJECT_WAIT);
  }

  /**
   * The regions of {@code Object.wait} calls that are a library's idle waits, as the woven code
   * records them ({@code Waits}, {@code QuartzThreadPools}): a Quartz pool worker's wait for its
   * next job (next_task) and the Quartz scheduler thread's timed wait for its next trigger
   * (timer_due), in loops that began before the attach and keep their code.
   */
  private final Map<Integer, Integer> idleWaitKinds = new HashMap<>();

  /**
   * The idle kind of the wait whose user frame is {@code user} ({@code frames} from the top), or 0.
   */
  private static int idleWaitKind(Frame user, List<Frame> frames) {
    boolean timed = true;
    for (Frame f : frames) {
      if (f.className().equals("java.lang.Object") && "()V".equals(f.descriptor())) {
        timed = false; // wait() calls wait(0)
      }
    }
    int kind = IdleObjectWaits.kind(user.className(), user.method(), timed);
    return kind == WaitKind.OBJECT_WAIT ? 0 : kind;
  }

  /**
   * The region of the user's frame of a wait; 0 when it is not the user's, -1 when woven code
   * records it itself.
   */
  private int region(int kind, List<Frame> frames) {
    if (kind == WAIT) {
      int timer = timerWait(frames);
      if (timer != 0) {
        return timer;
      }
    }
    Frame user = null;
    for (Frame f : frames) {
      if (!isJdk(f.className())) {
        user = f;
        break;
      }
      if (kind == ENTER) {
        break; // a monitor of the JDK's own code
      }
    }
    if (user == null || user.className().startsWith("dev.weft.agent.")) {
      notUser++;
      return 0;
    }
    Site key = new Site(user, kind);
    Integer region = sites.get(key);
    if (region == null) {
      region = register(user, kind);
      sites.put(key, region);
      int idle = kind == WAIT && region > 0 ? idleWaitKind(user, frames) : 0;
      if (idle != 0) {
        idleWaitKinds.put(region, idle);
      }
    }
    if (region < 0) {
      woven++;
    } else if (region == 0) {
      notUser++;
    }
    return region;
  }

  /**
   * The region of a {@code java.util.Timer}'s thread's wait for its next task, in a {@code
   * TimerThread.mainLoop} that was running at the attach (the loop never returns, so its thread
   * keeps the original code, whose waits only the JVM sees); -1 when the loop runs woven code,
   * which records its waits itself ({@code JdkTimerThreads}); 0 for any other wait. As the woven
   * code: {@code wait()} (no task scheduled) is next_task, {@code wait(timeout)} (until the first
   * task is due) timer_due.
   */
  private int timerWait(List<Frame> frames) {
    boolean untimed = false;
    for (Frame f : frames) {
      if (f.className().equals("java.lang.Object")) {
        untimed |= "()V".equals(f.descriptor()); // wait() calls wait(0)
        continue;
      }
      if (!f.className().equals(TIMER_THREAD) || !f.method().equals("mainLoop")) {
        return 0;
      }
      if (timerLines == null) {
        try {
          timerLines = OriginalLines.of(Class.forName(TIMER_THREAD, false, null));
        } catch (ClassNotFoundException | LinkageError e) {
          return 0;
        }
      }
      if (!timerLines.waitCallAt(f.method(), f.descriptor(), f.bci())) {
        woven++;
        return -1;
      }
      int i = untimed ? 0 : 1;
      if (timerRegions[i] == 0) {
        timerRegions[i] =
            regions.register(
                ConstructKind.OBJECT_WAIT,
                untimed ? "Timer.waitForTask" : "Timer.waitUntilDue",
                TIMER_THREAD,
                "mainLoop",
                "",
                0,
                0);
      }
      return timerRegions[i];
    }
    return 0;
  }

  private static final String TIMER_THREAD = "java.util.TimerThread";

  /** Where the JDK's {@code TimerThread} calls {@code Object.wait}; read on its first wait. */
  private OriginalLines timerLines;

  /**
   * The regions of a timer's two waits ({@code wait()}, {@code wait(timeout)}), once defined (0
   * before: no region of a wait is 0).
   */
  private final int[] timerRegions = new int[2];

  private int register(Frame f, int kind) {
    Class<?> c = loadedClass(f.className());
    if (c == null) {
      return 0;
    }
    ClassLoader loader = c.getClassLoader();
    if (loader == null || loader == ClassLoader.getPlatformClassLoader()) {
      return 0;
    }
    OriginalLines original = OriginalLines.of(c);
    ConstructKind construct;
    String name;
    int bci = Math.max(0, f.bci());
    int enter = kind == ENTER ? original.monitorEnterAt(f.method(), f.descriptor(), f.bci()) : -1;
    if (kind == WAIT) {
      if (!original.waitCallAt(f.method(), f.descriptor(), f.bci())) {
        return -1;
      }
      construct = ConstructKind.OBJECT_WAIT;
      name = "Object.wait";
    } else if (enter >= 0) {
      bci = enter;
      construct = ConstructKind.MONITOR;
      name = "synchronized";
    } else if (f.bci() <= 0 && original.isSynchronized(f.method(), f.descriptor())) {
      construct = ConstructKind.SYNCHRONIZED_METHOD;
      String simple = c.getName().substring(c.getName().lastIndexOf('.') + 1);
      name = "synchronized " + simple + "." + f.method();
    } else {
      return -1;
    }
    int line = original.line(f.method(), f.descriptor(), bci);
    String file = original.sourceFile();
    return regions.register(
        construct, name, c.getName(), f.method(), file == null ? "" : file, line, line);
  }

  static boolean isJdk(String className) {
    return className.startsWith("java.")
        || className.startsWith("javax.")
        || className.startsWith("jdk.")
        || className.startsWith("sun.")
        || className.startsWith("com.sun.");
  }

  /**
   * A loaded class by name (the first one found that an application loader defined), from the JVM's
   * list of loaded classes, read again at most every 100 ms for a name not seen yet.
   */
  private Class<?> loadedClass(String name) {
    Class<?> c = classes.get(name);
    if (c == null && !classes.containsKey(name) && inst != null) {
      long now = System.nanoTime();
      if (!classesScanned || now - classesScannedAt > 100_000_000L) {
        classesScanned = true;
        classesScannedAt = now;
        for (Class<?> k : inst.getAllLoadedClasses()) {
          ClassLoader l = k.getClassLoader();
          if (l != null && l != ClassLoader.getPlatformClassLoader()) {
            classes.putIfAbsent(k.getName(), k);
          }
        }
        c = classes.get(name);
      }
      if (c == null) {
        classes.put(name, null);
      }
    }
    return c;
  }

  private StreamWriter stream(long javaThreadId, String name, long time) {
    StreamWriter w = streams.get(javaThreadId);
    if (w == null && !lostThreads.contains(javaThreadId)) {
      try {
        w = writer.openStream(javaThreadId, name, ThreadDef.SUPPLEMENT, 0, time);
        streams.put(javaThreadId, w);
      } catch (TraceWriter.StreamNotOpenedException e) {
        lostThreads.add(javaThreadId); // the writer counts what it could not write
      } catch (RuntimeException e) {
        lostThreads.add(javaThreadId);
      }
    }
    return w;
  }

  private void define(long id, String monitorClass) {
    if (definedMonitors.size() < MAX_DEFINED && definedMonitors.add(id)) {
      try {
        writer.defineObject(new ObjectDef(id, ConstructKind.MONITOR, monitorClass, 0));
      } catch (Exception e) {
        // Optional: the events keep the id.
      }
    }
  }

  /** A frame's place and the kind of wait there. */
  private record Site(String className, String method, String descriptor, int bci, int kind) {
    Site(Frame f, int kind) {
      this(
          f.className(), f.method(), Objects.requireNonNullElse(f.descriptor(), ""), f.bci(), kind);
    }
  }
}
