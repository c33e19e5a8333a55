package dev.weft.trace;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Writes a trace directory: the definitions file (append-only; every definition is written, through
 * the page cache, before the call that defines it returns) and one {@link StreamWriter} per thread.
 *
 * <p>Definition methods are thread-safe and meant for slow paths (weave time, a thread's first
 * event). Event methods live on {@link StreamWriter} and are single-threaded per stream.
 */
public final class TraceWriter implements Closeable {

  /** Immutable writer settings; {@code withX} returns a changed copy. */
  public static final class Options {
    private final int firstWindow;
    private final int maxWindow;
    private final long maxBytes;
    private final ThreadFactory threadFactory;
    private final Consumer<String> problemListener;

    private Options(
        int firstWindow,
        int maxWindow,
        long maxBytes,
        ThreadFactory threadFactory,
        Consumer<String> problemListener) {
      this.firstWindow = firstWindow;
      this.maxWindow = maxWindow;
      this.maxBytes = maxBytes;
      this.threadFactory = threadFactory;
      this.problemListener = problemListener;
    }

    /** 64 KiB first window per thread, doubling up to 4 MiB; no size limit; problems ignored. */
    public static Options defaults() {
      return new Options(
          64 * 1024, 4 * 1024 * 1024, 0, r -> new Thread(r, "weft-window-preparer"), problem -> {});
    }

    /**
     * Window sizes: the first window of each thread and the largest window (a power of two ≥ 4
     * KiB).
     */
    public Options withWindows(int first, int max) {
      if (first < 4096 || max < first) {
        throw new IllegalArgumentException("windows must be >= 4096 bytes and first <= max");
      }
      return new Options(first, max, maxBytes, threadFactory, problemListener);
    }

    /** Limit on the bytes of all event files together; 0 = none. Beyond it, events are dropped. */
    public Options withMaxBytes(long bytes) {
      return new Options(firstWindow, maxWindow, bytes, threadFactory, problemListener);
    }

    /** Factory for the writer's one background thread (the agent marks it as never traced). */
    public Options withThreadFactory(ThreadFactory factory) {
      return new Options(firstWindow, maxWindow, maxBytes, factory, problemListener);
    }

    /** Told the first problem (disk full, size limit, I/O error) once; must not block or throw. */
    public Options withProblemListener(Consumer<String> listener) {
      return new Options(firstWindow, maxWindow, maxBytes, threadFactory, listener);
    }

    public long maxBytes() {
      return maxBytes;
    }
  }

  private final Path dir;
  private final Options options;
  private final long traceId;
  private final SimulatedDisk disk = new SimulatedDisk();
  private final SpaceReserve reserve;

  /** The definitions file; written holding this writer's lock. */
  private final DefinitionsFile definitions;

  private final AtomicInteger nextStream = new AtomicInteger(1);
  private final List<StreamWriter> streams = new CopyOnWriteArrayList<>();

  /**
   * Streams of ended threads kept open to host threads started later ({@link #openHosted}), at most
   * this many; the rest are retired.
   */
  static final int MAX_IDLE_HOSTS = 32;

  /** Streams whose thread ended, the most recently used last; guarded by this writer's lock. */
  private final ArrayDeque<StreamWriter> idleHosts = new ArrayDeque<>();

  /** Events of threads that could not be defined, and of each thread whose file failed. */
  private final List<LostStream> lostStreams = new CopyOnWriteArrayList<>();

  /** Events dropped by streams retired before the close ({@link #retire}). */
  private final AtomicLong retiredDropped = new AtomicLong();

  private final AtomicLong reservedBytes = new AtomicLong();
  private final AtomicLong synchronousWindows = new AtomicLong();
  private final AtomicBoolean problemReported = new AtomicBoolean();
  private final WindowPreparer preparer;
  private volatile String firstProblem;
  private volatile boolean closed;
  private final SpareStreamFiles spares;
  private volatile boolean sparesStarted;

  private TraceWriter(Path dir, Options options) throws IOException {
    this.dir = dir;
    this.options = options;
    PrivateFiles.createPrivateDirectory(dir);
    PrivateFiles.createPrivateDirectory(dir.resolve(TraceFiles.EVENTS_DIR));
    this.reserve = new SpaceReserve(dir, disk, this::problem);
    this.definitions = new DefinitionsFile(dir, reserve, disk, this::problem);
    this.traceId = newTraceId();
    definitions.writeTrace(traceId);
    this.spares = new SpareStreamFiles(dir.resolve(TraceFiles.EVENTS_DIR));
    this.preparer = new WindowPreparer(this, options.threadFactory);
  }

  /**
   * A random, non-zero id that every event file's header repeats, so that a reader rejects a file
   * copied in from another trace. Not cryptographic: it only has to differ between recordings.
   */
  private static long newTraceId() {
    long id;
    do {
      // Nothing here may change the host's state. No ProcessHandle: its class initialiser builds
      // a thread pool, and an agent that loads ThreadPoolExecutor before its transformer is
      // installed cannot weave all of it. No ThreadLocalRandom: it would seed the calling
      // (application) thread's probe, which ForkJoinPool uses to pick the queue that thread's
      // tasks go to. SplittableRandom's seed generator is its own.
      id =
          new SplittableRandom().nextLong()
              ^ System.nanoTime()
              ^ ((long) System.identityHashCode(new Object()) << 32);
    } while (id == 0);
    return id;
  }

  /**
   * Creates a trace in {@code dir}, which must not exist or be an empty directory.
   *
   * @throws IOException if the directory is not empty or cannot be written
   */
  public static TraceWriter create(Path dir, Options options) throws IOException {
    PrivateFiles.checkTraceDirectory(dir);
    if (Files.exists(dir)) {
      if (!Files.isDirectory(dir)) {
        throw new IOException(dir + " exists and is not a directory");
      }
      try (var entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new IOException(dir + " exists and is not empty");
        }
      }
    }
    TraceWriter writer = new TraceWriter(dir, options);
    writer.reserve.create();
    writer.sparesStarted = true;
    writer.preparer.wake();
    return writer;
  }

  public Path directory() {
    return dir;
  }

  /** The trace's identity, repeated in every event file's header. */
  public long traceId() {
    return traceId;
  }

  /** The background thread that prepares windows (never to be traced). */
  public Thread backgroundThread() {
    return preparer.thread();
  }

  // ---- definitions ------------------------------------------------------------------------------

  public synchronized void defineClock(ClockDef clock) throws IOException {
    definitions.writeClock(clock);
  }

  public synchronized void defineProcess(ProcessDef p) throws IOException {
    definitions.writeProcess(p);
  }

  public synchronized void defineRegion(RegionDef r) throws IOException {
    definitions.writeRegion(r);
  }

  public synchronized void definePool(PoolDef p) throws IOException {
    definitions.writePool(p);
  }

  public synchronized void defineObject(ObjectDef o) throws IOException {
    definitions.writeObject(o);
  }

  /**
   * A free-form key/value fact about the recording (e.g. {@code mode=aggregated}). Attributes are
   * the trace's account of itself, mostly written just before the close: on a full disk they may
   * use the last part of the space reserve, as DROPS and END do.
   */
  public synchronized void defineAttribute(String key, String value) throws IOException {
    definitions.writeAttribute(key, value);
  }

  /**
   * What the JVM counted for a stream's thread while it was recorded (FORMAT.md,
   * THREAD_JVM_COUNTS): how many times it blocked entering a monitor and how many times it waited.
   */
  public void defineThreadJvmCounts(int stream, long blockedCount, long waitedCount)
      throws IOException {
    defineThreadJvmCounts(stream, blockedCount, waitedCount, -1, -1);
  }

  /**
   * The JVM's counts with the time the operating system counted for the thread over the same span:
   * its CPU time and its time runnable but waiting for a core ({@code -1} where not measured; the
   * run queue is written only with the CPU time).
   */
  public void defineThreadJvmCounts(
      int stream, long blockedCount, long waitedCount, long cpuNs, long runQueueNs)
      throws IOException {
    defineThreadJvmCounts(stream, blockedCount, waitedCount, cpuNs, runQueueNs, -1);
  }

  /**
   * The same, with the times measured from {@code timesFromNs} (the trace clock) on: a thread that
   * began before an attach and measured its own times from its first recorded event (-1: the
   * default span; written only with both times).
   */
  public synchronized void defineThreadJvmCounts(
      int stream,
      long blockedCount,
      long waitedCount,
      long cpuNs,
      long runQueueNs,
      long timesFromNs)
      throws IOException {
    definitions.writeThreadJvmCounts(
        stream, blockedCount, waitedCount, cpuNs, runQueueNs, timesFromNs);
  }

  /**
   * Defines a thread and opens its event stream. The thread definition is on disk before this
   * returns, so no event of the stream can precede it.
   *
   * <p>A thread gets one stream id whatever happens: when its event file cannot be created (disk
   * full, the space reserve in use, I/O error), the half-created file is removed and a {@link
   * StreamNotOpenedException} hands the caller a {@link LostStream} to count the thread's events
   * in; they are written as the stream's DROPS at close. The caller must not ask again for the same
   * thread: that would define a second stream.
   *
   * @param time when the thread first recorded
   * @return the stream; it may start out dropping when no window could be allocated
   * @throws StreamNotOpenedException when the thread's stream cannot be had
   */
  public StreamWriter openStream(long javaId, String name, int flags, int pool, long time)
      throws StreamNotOpenedException {
    int id = nextStream.getAndIncrement();
    try {
      defineThread(id, javaId, name, flags, pool, time);
    } catch (IOException | RuntimeException e) {
      throw new StreamNotOpenedException(lostStream(0), e);
    }
    StreamFile file = spares.take(id, TraceFiles.streamFile(dir, id));
    if (file == null) {
      try {
        file = createStreamFile(id);
      } catch (IOException | RuntimeException e) {
        throw new StreamNotOpenedException(lostStream(id), e);
      }
    }
    preparer.wake(); // to make the next spare
    StreamWriter s = new StreamWriter(this, id, file, time);
    s.start();
    streams.add(s);
    return s;
  }

  /**
   * Defines a virtual thread whose events go to its carriers' streams between VTHREAD_MOUNT and
   * VTHREAD_UNMOUNT records of {@code javaId} ({@link ThreadDef#CARRIED}): a logical stream, with a
   * stream id and no event file. Costs one definition record, where a stream of its own would cost
   * a file and a window.
   *
   * @return the logical stream's id
   */
  public int defineCarriedThread(long javaId, String name, int flags, long time)
      throws IOException {
    return defineLogical(javaId, name, flags | ThreadDef.VIRTUAL, 0, time);
  }

  /** A thread's definition as a logical stream ({@link ThreadDef#CARRIED}); returns its id. */
  private int defineLogical(long javaId, String name, int flags, int pool, long time)
      throws IOException {
    int id = nextStream.getAndIncrement();
    defineThread(id, javaId, name, flags | ThreadDef.CARRIED, pool, time);
    return id;
  }

  /** A platform thread carried on a host stream: the stream it writes to, and its own stream id. */
  public record Hosted(StreamWriter host, int stream) {}

  /**
   * Carries a platform thread starting now on the stream of a thread that has ended, when one is
   * idle ({@link #releaseStream}): a definition record ({@link ThreadDef#isHosted}) and a
   * VTHREAD_MOUNT of {@code javaId} on that stream, where a stream of its own would cost a file and
   * a window (a program that starts a thread per task starts thousands). The caller then owns the
   * host stream until {@link #endHosted}.
   *
   * @return the host and the thread's stream id, or null when no stream is idle or the thread
   *     cannot be defined (then the caller opens a stream of its own)
   */
  public Hosted openHosted(long javaId, String name, int flags, int pool, long time) {
    StreamWriter host;
    synchronized (this) {
      host = closed ? null : idleHosts.pollLast();
    }
    if (host == null) {
      return null;
    }
    long t = Math.max(time, host.lastTime());
    int id;
    try {
      id = defineLogical(javaId, name, flags & ~ThreadDef.VIRTUAL, pool, t);
    } catch (IOException | RuntimeException e) {
      releaseStream(host);
      return null;
    }
    host.vthreadMount(t, javaId);
    return new Hosted(host, id);
  }

  /**
   * The thread hosted on {@code h} by {@link #openHosted} (Java id {@code javaId}) has written its
   * last event: its VTHREAD_UNMOUNT ends its stretch of the host stream, which is free again.
   */
  public void endHosted(Hosted h, long javaId, long time) {
    h.host().vthreadUnmount(Math.max(time, h.host().lastTime()), javaId);
    releaseStream(h.host());
  }

  /**
   * Stream {@code s}'s thread has ended (its THREAD_END is the stream's last event): the stream is
   * kept to host a thread started later ({@link #openHosted}) while fewer than {@link
   * #MAX_IDLE_HOSTS} are, and it lost no events (a hosted thread's drops would be counted as the
   * host's); else it is {@linkplain #retire retired}.
   */
  public void releaseStream(StreamWriter s) {
    synchronized (this) {
      if (!closed && s.dropped() == 0 && idleHosts.size() < MAX_IDLE_HOSTS) {
        idleHosts.addLast(s);
        return;
      }
    }
    retire(s);
  }

  private synchronized void defineThread(
      int id, long javaId, String name, int flags, int pool, long time) throws IOException {
    definitions.writeThread(id, javaId, name, flags, pool, time);
  }

  /**
   * The event file of stream {@code id}; nothing is left behind when it cannot be created. After
   * the reserve was used, no file is created at all: the space is the definitions'.
   */
  private StreamFile createStreamFile(int id) throws IOException {
    if (reserve.inUse()) {
      throw new IOException("no space left for event files");
    }
    Path path = TraceFiles.streamFile(dir, id);
    try {
      disk.createStreamFile(path);
      return new StreamFile(path, id, traceId, options.firstWindow, options.maxWindow);
    } catch (IOException | RuntimeException e) {
      if (!(e instanceof FileAlreadyExistsException)) {
        try {
          Files.deleteIfExists(path); // e.g. created, but its header found no space: 0 bytes
        } catch (IOException | RuntimeException ignored) {
          // A reader reports such a file as a cut stream.
        }
      }
      problem("cannot create " + TraceFiles.EVENTS_DIR + "/" + path.getFileName() + ": " + why(e));
      throw e;
    }
  }

  /** Records that a stream's thread took a new name at {@code time}. */
  public void renameThread(StreamWriter stream, long time, String name) throws IOException {
    renameThread(stream.id(), time, name);
  }

  /** Records that the thread of stream {@code stream} (a logical one too) took a new name. */
  public synchronized void renameThread(int stream, long time, String name) throws IOException {
    definitions.writeThreadName(stream, time, name);
  }

  /**
   * Ends the trace: records the drop counts and a clean-end marker. Streams stay mapped (an
   * application thread may still be writing; its late events are harmless), so this never faults a
   * racing writer. Every record is attempted (the last part of the space reserve is for them) and
   * the definitions file is closed even when one fails; the first failure is thrown at the end.
   */
  public synchronized void close(long endTime) throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    definitions.closing();
    preparer.stop();
    spares.stop();
    IOException failure = null;
    for (StreamWriter s : streams) {
      s.closeFile();
      if (s.dropped() > 0) {
        failure = first(failure, writeDrops(s.id(), s.dropped()));
      }
    }
    for (LostStream l : lostStreams) {
      if (l.dropped() > 0) {
        failure = first(failure, writeDrops(l.id(), l.dropped()));
      }
    }
    // After the drops: on a full disk, a missing STREAM_END only leaves a last block unchecked.
    for (StreamWriter s : streams) {
      failure = first(failure, writeStreamEnd(s));
    }
    try {
      definitions.writeEnd(endTime);
    } catch (IOException e) {
      failure = first(failure, e);
    }
    try {
      definitions.close();
    } catch (IOException e) {
      failure = first(failure, e);
    }
    reserve.delete();
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Stream {@code s}'s thread has ended (its THREAD_END is the stream's last event): its DROPS and
   * STREAM_END records are written now, as the close would, and its file is closed. The writer lets
   * go of it, so once its owner is gone its windows are unmapped by the collector: a program that
   * starts many short-lived threads holds a file and its mappings per live thread, not per thread
   * it ever started (the process's file descriptors and mappings are the program's too). An event
   * written after this lies past the STREAM_END and is not read, as at the close. Failures go to
   * the problem listener; the trace stays readable without the records (a missing STREAM_END leaves
   * the last block unchecked).
   */
  public synchronized void retire(StreamWriter s) {
    if (closed || !streams.remove(s)) {
      return;
    }
    s.closeFile();
    long dropped = s.dropped();
    IOException failure = dropped > 0 ? writeDrops(s.id(), dropped) : null;
    retiredDropped.addAndGet(dropped);
    failure = first(failure, writeStreamEnd(s));
    if (failure != null) {
      problem("cannot end stream " + s.id() + ": " + failure.getMessage());
    }
  }

  /** Writes a DROPS record; returns its failure instead of throwing it. */
  private IOException writeDrops(int stream, long count) {
    try {
      definitions.writeDrops(stream, count);
      return null;
    } catch (IOException e) {
      return e;
    }
  }

  /** The STREAM_END record of a stream with a window: where its committed events end. */
  private IOException writeStreamEnd(StreamWriter s) {
    WindowSeal.CommittedEnd end = s.committedEnd();
    if (end == null) {
      return null;
    }
    try {
      definitions.writeStreamEnd(s.id(), end);
      return null;
    } catch (IOException e) {
      return e;
    }
  }

  private static IOException first(IOException failure, IOException next) {
    return failure != null ? failure : next;
  }

  @Override
  public void close() throws IOException {
    close(System.nanoTime());
  }

  public boolean isClosed() {
    return closed;
  }

  /** Total events dropped so far over all streams, those that could not be opened included. */
  public long dropped() {
    long n = retiredDropped.get();
    for (StreamWriter s : streams) {
      n += s.dropped();
    }
    for (LostStream l : lostStreams) {
      n += l.dropped();
    }
    return n;
  }

  /** Windows that had to be allocated on an application thread because the preparer was behind. */
  public long synchronousWindows() {
    return synchronousWindows.get();
  }

  /** The first problem met (disk full, size limit, I/O), or null. */
  public String firstProblem() {
    return firstProblem;
  }

  // ---- internals --------------------------------------------------------------------------------

  /**
   * Whether the background thread should make a spare event file now. Never under a size limit: a
   * spare's window would take from the limit before any thread needs it.
   */
  boolean sparesWanted() {
    return sparesStarted && options.maxBytes == 0 && !closed && !reserve.inUse() && spares.wanted();
  }

  /** On the background thread: makes the spare event files that are wanted. */
  void makeSpares() {
    spares.topUp(this, traceId, options.firstWindow, options.maxWindow);
  }

  WindowPreparer preparer() {
    return preparer;
  }

  void countSynchronousWindow() {
    synchronousWindows.incrementAndGet();
  }

  boolean reserveBytes(int size) {
    if (closed || reserve.inUse()) {
      return false; // after the space reserve was used, what is left is the definitions'
    }
    long limit = options.maxBytes;
    long now = reservedBytes.addAndGet(size);
    if (limit > 0 && now > limit) {
      reservedBytes.addAndGet(-size);
      problem("trace size limit of " + limit + " bytes reached; further events are dropped");
      return false;
    }
    if (!disk.take(size)) {
      reservedBytes.addAndGet(-size);
      problem("cannot extend an event file: " + SimulatedDisk.FULL);
      return false;
    }
    return true;
  }

  void releaseBytes(int size) {
    reservedBytes.addAndGet(-size);
    disk.give(size);
  }

  void problem(String message) {
    if (closed) {
      return; // a window racing with close: nothing is wrong
    }
    if (problemReported.compareAndSet(false, true)) {
      firstProblem = message;
      try {
        options.problemListener.accept(message);
      } catch (RuntimeException ignored) {
        // A listener must not break recording.
      }
    }
  }

  /** How a failure is told in a problem message. */
  static String why(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  // ---- threads whose stream could not be opened ----------------------------------------------

  /**
   * A thread whose event file could not be created. Its events are counted here and written at
   * close as the DROPS of its stream id ({@link #id()} 0: threads whose THREAD definition could not
   * be written either).
   */
  public static final class LostStream {
    private final int id;
    private final LongAdder dropped = new LongAdder();

    LostStream(int id) {
      this.id = id;
    }

    /** The stream id its THREAD definition names; 0 when there is none. */
    public int id() {
      return id;
    }

    /** Counts one event of the thread as dropped. */
    public void drop() {
      dropped.increment();
    }

    public long dropped() {
      return dropped.sum();
    }
  }

  /** {@link #openStream} could not open the thread's stream: count its events in the lost one. */
  public static final class StreamNotOpenedException extends IOException {
    private final transient LostStream lost;

    StreamNotOpenedException(LostStream lost, Throwable cause) {
      super(
          (lost.id() == 0 ? "thread not defined: " : "stream " + lost.id() + " not opened: ")
              + cause.getMessage(),
          cause);
      this.lost = lost;
    }

    public LostStream lostStream() {
      return lost;
    }
  }

  /** A new lost stream, or for id 0 the one shared by all threads that could not be defined. */
  private LostStream lostStream(int id) {
    synchronized (lostStreams) {
      for (LostStream l : lostStreams) {
        if (id == 0 && l.id() == 0) {
          return l;
        }
      }
      LostStream l = new LostStream(id);
      lostStreams.add(l);
      return l;
    }
  }

  /**
   * For tests of a full disk: from now on the trace behaves as if its disk had {@code bytes} free,
   * besides what the space reserve frees. Definitions, event windows and event files take from it;
   * writes that do not fit fail with "No space left on device (simulated)", as a real full disk's
   * do (a definition write takes as much as fits, as a real one may).
   */
  public void simulateFreeSpace(long bytes) {
    spares.stop(); // spares would take their space from the real disk
    disk.setFree(bytes);
  }
}
