package dev.weft.agent;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.agent.config.AgentOptions;
import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CalleeHooks;
import dev.weft.agent.record.JvmCommands;
import dev.weft.agent.record.Messages;
import dev.weft.agent.record.Recorder;
import dev.weft.agent.record.RegionRegistry;
import dev.weft.agent.record.ThreadGuard;
import dev.weft.agent.weave.Constructs;
import dev.weft.agent.weave.WeftTransformer;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ProcessDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceFiles;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * The running agent: one trace, one recorder, one transformer. Started by {@link WeftAgent} after
 * the bridge is installed; stopped by the shutdown hook at JVM exit or by {@link #detach()}.
 */
final class AgentRuntime {
  /** Classes retransformed per call; a failing batch is retried class by class. */
  private static final int RETRANSFORM_BATCH = 64;

  private static AgentRuntime current; // guarded by AgentRuntime.class

  private final Instrumentation inst;
  private final Recorder recorder;
  private final WeftTransformer transformer;
  private final Path dir;
  private Thread shutdownHook;

  /** Threads put into the trace at the attach (-1: not attached). */
  private int threadsAtAttach = -1;

  /** Starts the JVM's monitor events (attached agents only), or null. */
  private Thread monitorEvents;

  /** The classes left alone as running at the attach ({@code attach.skip_running}), or null. */
  private RunningClasses skippedRunning;

  private AgentRuntime(
      Instrumentation inst, Recorder recorder, WeftTransformer transformer, Path dir) {
    this.inst = inst;
    this.recorder = recorder;
    this.transformer = transformer;
    this.dir = dir;
  }

  static synchronized boolean isActive() {
    return current != null;
  }

  static synchronized void start(AgentOptions options, Instrumentation inst, boolean attached) {
    if (current != null) {
      return;
    }
    // First, before the trace exists, so that a program ending while the agent starts (weaving
    // the loaded classes takes seconds in a large one) still has its trace closed: the hook waits
    // on this class's lock until the start is done, then closes it, where the JVM used to halt
    // with the trace cut.
    Thread hook = new AgentThreads("weft-shutdown").newThread(new ShutdownHook());
    try {
      Runtime.getRuntime().addShutdownHook(hook);
    } catch (IllegalStateException e) {
      return; // the JVM is shutting down: there is nothing left to record
    }
    Path dir = (options.out() != null ? options.out() : defaultDirectory()).toAbsolutePath();
    TraceWriter writer;
    try {
      writer = openTrace(dir, options, attached);
    } catch (IOException | RuntimeException e) {
      removeHook(hook);
      Messages.problemOnce(
          "cannot write a trace to " + dir + " (" + e.getMessage() + "); the agent is off");
      return;
    }
    preloadLateClasses();
    JvmCommands.open(inst); // for the weaver's directive and the close's thread ids
    // Before any class is woven, so that no weaving method is queued for C2 first.
    String weaverJit =
        options.weaverC1Only()
            ? WeaverCompilation.limitToC1(inst)
            : WeaverCompilation.unlessAdded("weaver.jit=any");
    try {
      writer.defineAttribute(WeaverCompilation.ATTRIBUTE, weaverJit);
    } catch (IOException | RuntimeException e) {
      // An attribute about speed only: the trace is complete without it.
    }
    RegionRegistry regions = new RegionRegistry(writer);
    Recorder recorder =
        new Recorder(
            writer,
            regions,
            options.startOn(),
            options.failAfter(),
            inst,
            options.aggregateTasks());
    recorder.ignore(writer.backgroundThread());
    if (attached) {
      CalleeHooks.enableForAttach();
      recorder.noLockFirstTries(); // RunningLocks' hooks would record the bridge's tryLock()
    }
    WeftTransformer transformer = new WeftTransformer(Constructs.all(), options, regions, recorder);
    AgentRuntime rt = new AgentRuntime(inst, recorder, transformer, dir);
    rt.shutdownHook = hook;
    recorder.ignore(hook);
    try {
      // The application's threads alive now (at start-up: main) are in the trace from its first
      // moment, also when they record nothing: a serial program's main is all execution.
      int existing = recorder.openExistingThreads();
      if (attached) {
        rt.threadsAtAttach = existing;
        rt.followWaitsOpenAtAttach();
      }
      rt.startMonitorEvents(attached, options);
      WeftBridge.install(recorder);
      inst.addTransformer(transformer, true);
      if (attached) {
        // Meanwhile: the threads' first events come as soon as their classes are woven.
        warmUpInBackground(recorder, dir, true, true, false);
      }
      if (attached) {
        // Arrivals and invokes in running frames: recorded by the hooks unless woven code runs.
        recorder.wovenClasses(transformer.wovenClassNames());
        if (options.skipRunning()) {
          rt.skippedRunning = RunningClasses.now();
        }
      }
      rt.retransformLoaded(attached);
      if (attached) {
        // Until now the classes loaded before the attach ran their original code: the recording
        // saw only the waits then in progress. The analysis starts here (AttachLimits); what
        // ended or began to wait meanwhile is taken now.
        long from = System.nanoTime();
        defineRecordingFrom(writer, from);
        rt.startPolling(recorder.recordingStarts(from));
      }
      // The JVM's per-thread counts start once the loaded classes are woven (see JvmCounts).
      warmUpInBackground(recorder, dir, false, !attached, true);
    } catch (RuntimeException | Error e) {
      // Undo what was done, so that the program runs on exactly as without the agent.
      removeHook(hook);
      recorder.stopEvents();
      transformer.deactivate();
      inst.removeTransformer(transformer);
      rt.restoreOriginals();
      recorder.close(Map.of("agent.stopped_by", "start failed: " + e));
      throw e;
    }
    current = rt;
    if (options.out() == null) {
      Messages.info("recording to " + dir);
    }
  }

  /**
   * The trace attribute {@value #RECORDING_FROM}: the trace time from which an attached recording
   * sees what it says it sees, the classes loaded before the attach being woven (a second or two in
   * a program that has loaded thousands: without it, that time would count as the threads running
   * unobserved).
   */
  static final String RECORDING_FROM = "agent.recording_from";

  private static void defineRecordingFrom(TraceWriter writer, long at) {
    try {
      writer.defineAttribute(RECORDING_FROM, Long.toString(at));
    } catch (IOException | RuntimeException e) {
      // The disk refused it: the analysis then starts at the attach, and its header says what
      // the recording could not see.
    }
  }

  /**
   * JDK classes the event path loads only when an exception passes through the mapped-buffer code
   * (a stack overflow of the host's deep recursion reaching into the recorder). Loaded then, at the
   * very end of the stack, their load hook would fail inside the JVM's agent glue, which prints an
   * assertion message on stderr. Loaded now (not initialised), they cannot be.
   */
  private static final String[] LATE_CLASSES = {
    "jdk.internal.misc.ScopedMemoryAccess$Scope",
    "jdk.internal.misc.ScopedMemoryAccess$Scope$ScopedAccessError",
    "jdk.internal.misc.ScopedMemoryAccess$ScopedAccessError",
    "java.lang.foreign.MemorySegment$Scope",
    "jdk.internal.foreign.MemorySessionImpl",
    "java.lang.invoke.VarHandle$AccessDescriptor",
  };

  /**
   * Classes of the recorder that a thread's first lock, barrier or object event would otherwise
   * load and initialise on the application's time, between its own clock and the event's (3–25 ms
   * measured at a first barrier arrival). Initialised on an ignored background thread so start-up
   * stays short.
   */
  private static final String[] RECORDER_CLASSES = {
    "dev.weft.agent.record.ObjectDefinitions$Describers",
    "dev.weft.agent.record.LockObjects",
    "dev.weft.agent.record.BarrierObjects",
    "dev.weft.agent.record.BarrierObjects$Generations",
    "dev.weft.agent.record.PoolObjects",
    // An attached agent's hooks in JDK wait methods: not loaded while the program holds its locks.
    "dev.weft.agent.record.RunningFrames",
    "dev.weft.agent.record.OriginalLines",
    dev.weft.trace.ObjectDef.class.getName(),
    dev.weft.trace.PoolDef.class.getName(),
  };

  /**
   * On an ignored background thread: with {@code classes}, initialises {@link #RECORDER_CLASSES};
   * with {@code streams} (when attached), also the code that opens a thread's stream at its first
   * event (the file name's formatting, the stream classes): cold, in a JVM that has run for a
   * while, it took 100–150 ms, all of it before the event's time is taken, so that the recording
   * seemed to start that much later. With {@code baseline}, last, the baseline of the JVM's
   * per-thread counts ({@link Recorder#takeJvmBaseline}), which loads {@code java.management} here
   * rather than on the application's path.
   */
  private static void warmUpInBackground(
      Recorder recorder, Path dir, boolean streams, boolean classes, boolean baseline) {
    Thread t =
        new AgentThreads("weft-warm-up")
            .newThread(
                () -> {
                  if (streams) {
                    TraceFiles.streamFile(dir, 0);
                    initialise(StreamWriter.class.getName());
                  }
                  if (classes) {
                    for (String name : RECORDER_CLASSES) {
                      initialise(name);
                    }
                    try {
                      Recorder.warmUp();
                    } catch (RuntimeException | LinkageError e) {
                      // Linked on first use instead.
                    }
                  }
                  if (baseline) {
                    recorder.takeJvmBaseline();
                  }
                });
    recorder.ignore(t);
    t.start();
  }

  private static void initialise(String className) {
    try {
      Class.forName(className, true, AgentRuntime.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      // Initialised on first use instead.
    }
  }

  private static void preloadLateClasses() {
    for (String name : LATE_CLASSES) {
      try {
        Class.forName(name, false, null);
      } catch (ClassNotFoundException | LinkageError e) {
        // Not in this JDK version.
      }
    }
  }

  /** Creates the trace directory and writes the clock and process definitions. */
  private static TraceWriter openTrace(Path dir, AgentOptions options, boolean attached)
      throws IOException {
    int first = (int) Math.min(64 * 1024, options.buffer());
    TraceWriter writer =
        TraceWriter.create(
            dir,
            TraceWriter.Options.defaults()
                .withWindows(first, (int) options.buffer())
                .withMaxBytes(options.maxSize())
                .withThreadFactory(new AgentThreads("weft-window-preparer"))
                .withProblemListener(new ProblemListener(dir)));
    if (options.simulatedDiskFree() >= 0) {
      writer.simulateFreeSpace(options.simulatedDiskFree());
    }
    try {
      // Instant has microseconds (currentTimeMillis only milliseconds): trace times then convert
      // to wall-clock times that compare with other processes' clocks, e.g. an attaching tool's.
      long nanoBase = System.nanoTime();
      Instant now = Instant.now();
      long epochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
      writer.defineClock(new ClockDef(nanoBase, epochNanos, 1));
      writer.defineProcess(
          new ProcessDef(
              pid(),
              hostName(),
              System.getProperty("java.version", ""),
              System.getProperty("java.vm.name", ""),
              Runtime.getRuntime().availableProcessors(),
              System.getProperty("sun.java.command", ""),
              mainClass(),
              options.description()));
      if (attached) {
        writer.defineAttribute("agent.attached", "true");
        // The families whose waits in frames running since before the attach are hooked in the
        // JDK (RunningLocks, RunningBarriers, RunningConditions): the analysis says what is not.
        writer.defineAttribute("agent.running_frames", CalleeHooks.families(options));
      }
      return writer;
    } catch (IOException | RuntimeException e) {
      try {
        writer.close();
      } catch (IOException | RuntimeException ignored) {
        // Reporting the first problem is enough.
      }
      throw e;
    }
  }

  /** See {@link WeftAgent#detach()}. */
  static synchronized Path detach() {
    AgentRuntime rt = current;
    if (rt == null) {
      return null;
    }
    current = null;
    // The shutdown hook stays registered until the trace is closed: should the program end during
    // the restore (seconds in a large program), the JVM runs it, and it waits on this class's lock
    // until the trace is closed, instead of the JVM halting with the trace cut.
    rt.recorder.stopEvents();
    long stoppedAt = System.nanoTime();
    rt.recorder.countLiveThreads();
    rt.transformer.deactivate();
    int restored = rt.restoreOriginals();
    rt.inst.removeTransformer(rt.transformer);
    Map<String, String> attributes = rt.attributes();
    rt.stopMonitorEvents(stoppedAt, false, attributes);
    attributes.put("agent.detached", "true");
    attributes.put("agent.restored_classes", Integer.toString(restored));
    rt.recorder.close(attributes, stoppedAt);
    removeHook(rt.shutdownHook);
    return rt.dir;
  }

  /** Closes the trace at JVM exit; classes stay as they are. */
  private void stop() {
    long stoppedAt = System.nanoTime();
    transformer.deactivate();
    Map<String, String> attributes = attributes();
    stopMonitorEvents(stoppedAt, true, attributes);
    recorder.close(attributes);
  }

  /**
   * Monitors in frames running since before the attach: the JVM's monitor events, whose JFR stream
   * takes seconds to start on a busy host (it starts on an agent thread of its own).
   */
  private void startMonitorEvents(boolean attached, AgentOptions options) {
    if (!attached || !(options.enabled(Family.MONITORS) || options.enabled(Family.WAITS))) {
      return;
    }
    monitorEvents =
        new AgentThreads("weft-monitor-events")
            .newThread(
                () ->
                    recorder.startMonitorEvents(
                        inst, options.enabled(Family.MONITORS), options.enabled(Family.WAITS)));
    recorder.ignore(monitorEvents);
    monitorEvents.start();
  }

  /**
   * The waits open at the attach, read before any class is retransformed and followed by an agent
   * thread to their ends (see OpenWaits).
   */
  private void followWaitsOpenAtAttach() {
    startPolling(recorder.waitsOpenAtAttach());
  }

  /** Starts {@code poller}, which follows waits open when the recording began, if any. */
  private void startPolling(Runnable poller) {
    if (poller != null) {
      Thread t = new AgentThreads("weft-open-waits").newThread(poller);
      recorder.ignore(t);
      t.start();
    }
  }

  /**
   * Ends the waits open at the attach that are still open, and stops the JVM's monitor events, if
   * they started (see Recorder).
   */
  private void stopMonitorEvents(long stoppedAt, boolean atExit, Map<String, String> attributes) {
    recorder.stopOpenWaits(stoppedAt, attributes);
    Thread starting = monitorEvents;
    if (starting == null) {
      return;
    }
    recorder.stopMonitorEvents(stoppedAt, atExit, attributes);
    // JFR may still be starting (seconds): it would go on after the detach, and into the JVM's
    // death if the program ends meanwhile, where JFR then logs JVMTI errors on the program's
    // stdout. Its thread ends once the stream it opens is discarded.
    try {
      starting.join(atExit ? MONITOR_EVENTS_EXIT_WAIT_MS : MONITOR_EVENTS_DETACH_WAIT_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** How long a detach waits for the JVM's monitor events to have started and stopped. */
  private static final long MONITOR_EVENTS_DETACH_WAIT_MS = 10_000;

  /** The same at the JVM's exit, which it delays. */
  private static final long MONITOR_EVENTS_EXIT_WAIT_MS = 2_000;

  private Map<String, String> attributes() {
    Map<String, String> attributes = new LinkedHashMap<>();
    if (threadsAtAttach >= 0) {
      attributes.put("agent.threads_at_attach", Integer.toString(threadsAtAttach));
      attributes.put("agent.threads_waiting_at_attach", recorder.waitingAtAttach());
    }
    if (skippedRunning != null) {
      attributes.put("agent.skipped_running_classes", skippedRunning.attribute());
    }
    if (transformer.errors() > 0) {
      attributes.put("agent.weave_errors", Long.toString(transformer.errors()));
      attributes.put("agent.first_weave_error", String.valueOf(transformer.firstError()));
    }
    return attributes;
  }

  /**
   * Retransforms the JDK classes some instrumentation changes that are already loaded and, when
   * attached to a running JVM, the application classes that contain something to weave. The
   * application classes go first, in their own call: a retransformation takes effect when the call
   * returns, and the JDK classes' advice is the slower to weave in a JVM that never ran it, so the
   * application's regions, locks and tasks (woven at their call sites) are recorded that much
   * earlier.
   */
  private void retransformLoaded(boolean attached) {
    boolean jdk = !transformer.jdkClassNames().isEmpty();
    boolean app = attached && transformer.hasApplicationScope();
    if (!jdk && !app) {
      return;
    }
    List<Class<?>> jdkClasses = new ArrayList<>();
    List<Class<?>> appClasses = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      if (!inst.isModifiableClass(c)) {
        continue;
      }
      String internal = c.getName().replace('.', '/');
      if (jdk && transformer.jdkClassNames().contains(internal)) {
        jdkClasses.add(c);
      } else if (app
          && transformer.isApplicationCandidate(c)
          && hasSomethingToWeave(c, internal)
          && (skippedRunning == null || !skippedRunning.skips(c))) {
        appClasses.add(c);
      }
    }
    retransform(appClasses);
    retransform(jdkClasses);
  }

  /** Reads a loaded class's file through its loader and asks the transformer's cheap filter. */
  private boolean hasSomethingToWeave(Class<?> c, String internal) {
    ClassLoader loader = c.getClassLoader();
    try (InputStream in = loader.getResourceAsStream(internal + ".class")) {
      return in != null && transformer.mayWeave(internal, in.readAllBytes());
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Retransforms the woven classes (the transformer is inactive: they get their original code). */
  private int restoreOriginals() {
    List<Class<?>> todo = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      if (transformer.wovenClassNames().contains(c.getName().replace('.', '/'))
          && inst.isModifiableClass(c)) {
        todo.add(c);
      }
    }
    retransform(todo);
    return todo.size();
  }

  private void retransform(List<Class<?>> classes) {
    ThreadGuard guard = recorder.guard();
    boolean wasBusy = guard.busy;
    guard.busy = true;
    try {
      for (int i = 0; i < classes.size(); i += RETRANSFORM_BATCH) {
        List<Class<?>> batch = classes.subList(i, Math.min(classes.size(), i + RETRANSFORM_BATCH));
        try {
          inst.retransformClasses(batch.toArray(new Class<?>[0]));
        } catch (Throwable batchFailed) {
          for (Class<?> c : batch) {
            try {
              inst.retransformClasses(c);
            } catch (Throwable ignored) {
              // That class stays as it is; the others go on.
            }
          }
        }
      }
    } finally {
      guard.busy = wasBusy; // a field write: cannot run out of stack
    }
  }

  /** {@code ./weft-traces/<main class>-<pid>-<yyyyMMdd-HHmmss>}. */
  private static Path defaultDirectory() {
    LocalDateTime t = LocalDateTime.now();
    StringBuilder b = new StringBuilder();
    for (char c : mainClass().toCharArray()) {
      boolean plain = c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-');
      b.append(plain ? c : '_');
    }
    b.append('-').append(pid()).append('-');
    pad(b, t.getYear(), 4);
    pad(b, t.getMonthValue(), 2);
    pad(b, t.getDayOfMonth(), 2);
    b.append('-');
    pad(b, t.getHour(), 2);
    pad(b, t.getMinute(), 2);
    pad(b, t.getSecond(), 2);
    return Path.of("weft-traces", b.toString());
  }

  private static void pad(StringBuilder b, int value, int width) {
    String s = Integer.toString(value);
    for (int i = s.length(); i < width; i++) {
      b.append('0');
    }
    b.append(s);
  }

  /** The main class (or jar file name without .jar) from the launcher's command; "java" if none. */
  private static String mainClass() {
    String cmd = System.getProperty("sun.java.command", "").trim();
    int space = 0;
    while (space < cmd.length() && !Character.isWhitespace(cmd.charAt(space))) {
      space++;
    }
    String first = cmd.isEmpty() ? "java" : cmd.substring(0, space);
    if (first.endsWith(".jar")) {
      first = Path.of(first).getFileName().toString();
      first = first.substring(0, first.length() - 4);
    }
    return first.isEmpty() ? "java" : first;
  }

  /**
   * The process id. On Linux from {@code /proc/self}, because {@code ProcessHandle} starts the
   * JDK's process-reaper machinery (a thread pool), which costs start-up time and loads executor
   * classes.
   */
  private static long pid() {
    try {
      return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/self")).toString());
    } catch (IOException | RuntimeException e) {
      return ProcessHandle.current().pid();
    }
  }

  /** The host name without a name service lookup (which can stall startup for seconds). */
  private static String hostName() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env.trim();
    }
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** Creates the agent's own daemon threads; the recorder ignores them. */
  private static final class AgentThreads implements ThreadFactory {
    private final String name;

    AgentThreads(String name) {
      this.name = name;
    }

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    }
  }

  /**
   * Disk full, size limit, I/O error: told once on stderr; the writer counts what is dropped (per
   * stream in the trace's definitions, also for threads whose stream could not be opened).
   */
  private static final class ProblemListener implements Consumer<String> {
    private final Path dir;

    ProblemListener(Path dir) {
      this.dir = dir;
    }

    @Override
    public void accept(String problem) {
      Messages.problemOnce(
          problem
              + "; the program runs on, the trace in "
              + dir
              + " is incomplete (dropped events are counted in it)");
    }
  }

  /**
   * Unregisters a start's exit hook (after a failed start, or at a detach once the trace is
   * closed); during the JVM's exit it runs anyway and finds nothing to close.
   */
  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // It runs, waits for this class's lock, and finds no recording.
    }
  }

  /**
   * The directory of the trace the JVM's exit closed, once it has begun to: the answer to an attach
   * whose start the program's end overtook (the recording started, and is already over).
   */
  private static volatile Path closedByExit;

  static Path closedByExit() {
    return closedByExit;
  }

  /**
   * Closes the trace at JVM exit: the recording current once a start or detach in progress is done
   * (each start registers one, and a detach or a failed start removes it).
   */
  private static final class ShutdownHook implements Runnable {
    @Override
    public void run() {
      AgentRuntime rt;
      synchronized (AgentRuntime.class) {
        rt = current;
        current = null;
      }
      if (rt != null) {
        closedByExit = rt.dir;
        rt.stop();
      }
    }
  }
}
