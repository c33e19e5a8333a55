package dev.weft.trace;

import java.io.Closeable;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

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

  /**
   * The definitions file. A stream, not a FileChannel: definitions are written on application
   * threads, and a FileChannel closes itself when an interrupted thread uses it.
   */
  private final FileOutputStream defs;

  private boolean defsOpen = true;
  private final Map<String, Integer> strings = new HashMap<>();
  private final AtomicInteger nextStream = new AtomicInteger(1);
  private final List<StreamWriter> streams = new CopyOnWriteArrayList<>();
  private final AtomicLong reservedBytes = new AtomicLong();
  private final AtomicLong synchronousWindows = new AtomicLong();
  private final AtomicBoolean problemReported = new AtomicBoolean();
  private final WindowPreparer preparer;
  private volatile String firstProblem;
  private volatile boolean closed;

  private TraceWriter(Path dir, Options options) throws IOException {
    this.dir = dir;
    this.options = options;
    Files.createDirectories(dir.resolve(TraceFiles.EVENTS_DIR));
    Path defsFile = dir.resolve(TraceFiles.DEFS_FILE);
    Files.createFile(defsFile);
    this.defs = new FileOutputStream(defsFile.toFile(), true);
    ByteBuffer h = ByteBuffer.allocate(TraceFiles.DEFS_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    h.put(TraceFiles.DEFS_MAGIC);
    h.putShort((short) TraceFiles.VERSION_MAJOR);
    h.putShort((short) TraceFiles.VERSION_MINOR);
    h.putInt(0);
    defs.write(h.array());
    this.traceId = newTraceId();
    ByteBuffer id = record();
    Varint.put(id, traceId);
    append(TraceFiles.DEF_TRACE, id);
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
    writer.createReserve();
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
    ByteBuffer b = record();
    Varint.putSigned(b, clock.nanoBase());
    Varint.putSigned(b, clock.epochNanos());
    Varint.put(b, clock.resolutionNanos());
    append(TraceFiles.DEF_CLOCK, b);
  }

  public synchronized void defineProcess(ProcessDef p) throws IOException {
    int host = string(p.host());
    int jdk = string(p.jdkVersion());
    int vm = string(p.vmName());
    int cmd = string(p.commandLine());
    int main = string(p.mainClass());
    int opts = string(p.agentOptions());
    ByteBuffer b = record();
    Varint.put(b, p.pid());
    Varint.put(b, host);
    Varint.put(b, jdk);
    Varint.put(b, vm);
    Varint.put(b, p.cores());
    Varint.put(b, cmd);
    Varint.put(b, main);
    Varint.put(b, opts);
    append(TraceFiles.DEF_PROCESS, b);
  }

  public synchronized void defineRegion(RegionDef r) throws IOException {
    int name = string(r.name());
    int cls = string(r.declaringClass());
    int method = string(r.method());
    int file = string(r.file());
    ByteBuffer b = record();
    Varint.put(b, r.id());
    Varint.put(b, r.kind().code());
    Varint.put(b, name);
    Varint.put(b, cls);
    Varint.put(b, method);
    Varint.put(b, file);
    Varint.put(b, Math.max(0, r.firstLine()));
    Varint.put(b, Math.max(0, r.lastLine()));
    append(TraceFiles.DEF_REGION, b);
  }

  public synchronized void definePool(PoolDef p) throws IOException {
    int name = string(p.name());
    ByteBuffer b = record();
    Varint.put(b, p.id());
    Varint.put(b, p.kind().code());
    Varint.put(b, name);
    Varint.put(b, Math.max(0, p.parallelism()));
    append(TraceFiles.DEF_POOL, b);
  }

  public synchronized void defineObject(ObjectDef o) throws IOException {
    int cls = string(o.className());
    ByteBuffer b = record();
    Varint.put(b, o.id());
    Varint.put(b, o.kind().code());
    Varint.put(b, cls);
    Varint.put(b, Math.max(0, o.parties()));
    append(TraceFiles.DEF_OBJECT, b);
  }

  /**
   * A free-form key/value fact about the recording (e.g. {@code mode=aggregated}). Attributes are
   * the trace's account of itself, mostly written just before the close: on a full disk they may
   * use the last part of the space reserve, as DROPS and END do.
   */
  public synchronized void defineAttribute(String key, String value) throws IOException {
    accountRecord = true;
    try {
      int k = string(key);
      int v = string(value);
      ByteBuffer b = record();
      Varint.put(b, k);
      Varint.put(b, v);
      append(TraceFiles.DEF_ATTRIBUTE, b);
    } finally {
      accountRecord = false;
    }
  }

  /**
   * What the JVM counted for a stream's thread while it was recorded (FORMAT.md,
   * THREAD_JVM_COUNTS): how many times it blocked entering a monitor and how many times it waited.
   */
  public synchronized void defineThreadJvmCounts(int stream, long blockedCount, long waitedCount)
      throws IOException {
    ByteBuffer b = record();
    Varint.put(b, stream);
    Varint.put(b, blockedCount);
    Varint.put(b, waitedCount);
    append(TraceFiles.DEF_THREAD_JVM_COUNTS, b);
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
    StreamFile file;
    try {
      file = createStreamFile(id);
    } catch (IOException | RuntimeException e) {
      throw new StreamNotOpenedException(lostStream(id), e);
    }
    StreamWriter s = new StreamWriter(this, id, file, time);
    s.start();
    streams.add(s);
    return s;
  }

  private synchronized void defineThread(
      int id, long javaId, String name, int flags, int pool, long time) throws IOException {
    int n = string(name);
    ByteBuffer b = record();
    Varint.put(b, id);
    Varint.put(b, javaId);
    Varint.put(b, n);
    Varint.put(b, flags);
    Varint.put(b, pool);
    Varint.putSigned(b, time);
    append(TraceFiles.DEF_THREAD, b);
  }

  /**
   * The event file of stream {@code id}; nothing is left behind when it cannot be created. After
   * the reserve was used, no file is created at all: the space is the definitions'.
   */
  private StreamFile createStreamFile(int id) throws IOException {
    if (eventSpaceClosed) {
      throw new IOException("no space left for event files");
    }
    Path path = TraceFiles.streamFile(dir, id);
    try {
      simulateStreamFile(path);
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
  public synchronized void renameThread(StreamWriter stream, long time, String name)
      throws IOException {
    int n = string(name);
    ByteBuffer b = record();
    Varint.put(b, stream.id());
    Varint.putSigned(b, time);
    Varint.put(b, n);
    append(TraceFiles.DEF_THREAD_NAME, b);
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
    preparer.stop();
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
    ByteBuffer b = record();
    Varint.putSigned(b, endTime);
    try {
      append(TraceFiles.DEF_END, b);
    } catch (IOException e) {
      failure = first(failure, e);
    }
    defsOpen = false;
    try {
      defs.close();
    } catch (IOException e) {
      failure = first(failure, e);
    }
    deleteReserve();
    if (failure != null) {
      throw failure;
    }
  }

  /** Writes a DROPS record; returns its failure instead of throwing it. */
  private IOException writeDrops(int stream, long count) {
    ByteBuffer b = record();
    Varint.put(b, stream);
    Varint.put(b, count);
    try {
      append(TraceFiles.DEF_DROPS, b);
      return null;
    } catch (IOException e) {
      return e;
    }
  }

  /** The STREAM_END record of a stream with a window: where its committed events end. */
  private IOException writeStreamEnd(StreamWriter s) {
    StreamWriter.CommittedEnd end = s.committedEnd();
    if (end == null) {
      return null;
    }
    ByteBuffer b = record();
    Varint.put(b, s.id());
    Varint.put(b, end.blockOffset());
    Varint.put(b, end.endOffset());
    Varint.put(b, end.events());
    Varint.put(b, end.crc());
    try {
      append(TraceFiles.DEF_STREAM_END, b);
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
    long n = 0;
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

  WindowPreparer preparer() {
    return preparer;
  }

  void countSynchronousWindow() {
    synchronousWindows.incrementAndGet();
  }

  boolean reserveBytes(int size) {
    if (closed || eventSpaceClosed) {
      return false; // after the space reserve was used, what is left is the definitions'
    }
    long limit = options.maxBytes;
    long now = reservedBytes.addAndGet(size);
    if (limit > 0 && now > limit) {
      reservedBytes.addAndGet(-size);
      problem("trace size limit of " + limit + " bytes reached; further events are dropped");
      return false;
    }
    if (!simulatedTake(size)) {
      reservedBytes.addAndGet(-size);
      problem("cannot extend an event file: " + SIMULATED_FULL);
      return false;
    }
    return true;
  }

  void releaseBytes(int size) {
    reservedBytes.addAndGet(-size);
    simulatedGive(size);
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

  private int string(String s) throws IOException {
    if (s == null) {
      s = "";
    }
    Integer id = strings.get(s);
    if (id != null) {
      return id;
    }
    int next = strings.size();
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(utf8.length + 20);
    Varint.put(b, next);
    Varint.put(b, utf8.length);
    b.put(utf8);
    append(TraceFiles.DEF_STRING, b);
    strings.put(s, next);
    return next;
  }

  private static ByteBuffer record() {
    return ByteBuffer.allocate(128);
  }

  /**
   * Appends one record (type, payload length, payload, CRC-32C of everything before it) with a
   * single write: the whole record or, when the write fails, nothing (see {@link #writeRecord}).
   */
  private void append(int type, ByteBuffer payload) throws IOException {
    if (!defsOpen) {
      throw new IOException("trace is closed");
    }
    payload.flip();
    int len = payload.remaining() + TraceFiles.DEF_CHECKSUM_SIZE;
    ByteBuffer r = ByteBuffer.allocate(1 + Varint.size(len) + len).order(ByteOrder.LITTLE_ENDIAN);
    r.put((byte) type);
    Varint.put(r, len);
    r.put(payload);
    CRC32C crc = new CRC32C();
    crc.update(r.array(), 0, r.position());
    r.putInt((int) crc.getValue());
    r.flip();
    writeRecord(r.array(), r.limit());
  }

  // ---- a full disk: the space reserve, whole records only (FORMAT.md, "Drops") ------------------

  /** The space reserve's file in the trace directory; deleted at close, ignored by readers. */
  static final String RESERVE_FILE = "defs.reserve";

  /**
   * Bytes of the space reserve written when the trace is created (at most a quarter of the disk's
   * free space).
   */
  static final int RESERVE_BYTES = 1 << 20;

  /**
   * What is kept of the reserve when it is first used (at most a quarter of it): room for the
   * records of the close.
   */
  static final int CLOSE_RESERVE_BYTES = 64 * 1024;

  /** The message of a simulated full disk ({@link #simulateFreeSpace}). */
  static final String SIMULATED_FULL = "No space left on device (simulated)";

  /** Events of threads that could not be defined, and of each thread whose file failed. */
  private final List<LostStream> lostStreams = new CopyOnWriteArrayList<>();

  /**
   * True once the space reserve was used: no more windows or event files are allocated, so that
   * what the reserve freed stays for the definitions; events from then on are dropped and counted.
   */
  private volatile boolean eventSpaceClosed;

  /** Which part of the reserve is left: 0 all of it, 1 the close part, 2 none (guarded by this). */
  private int reserveStage;

  /** An attribute is being written: it may use the close part of the reserve (guarded by this). */
  private boolean accountRecord;

  /** Length of defs.wdf up to its last whole record; -1 until first needed (guarded by this). */
  private long defsLength = -1;

  /**
   * A failed write could not be cut back: records appended now would sit behind half a record,
   * where no reader finds them, so none are (guarded by this).
   */
  private boolean defsBroken;

  /** Free bytes of a simulated disk, or {@link Long#MIN_VALUE} for the real one. */
  private final AtomicLong simulatedFree = new AtomicLong(Long.MIN_VALUE);

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
   * Writes the space reserve: pseudo-random bytes (zeros would take no space on a compressing file
   * system). On a disk that is nearly full already the reserve is what fits; it never fails the
   * trace.
   */
  private void createReserve() {
    Path file = dir.resolve(RESERVE_FILE);
    long size = RESERVE_BYTES;
    try {
      long usable = dir.toFile().getUsableSpace(); // 0: unknown
      if (usable > 0) {
        size = Math.min(size, usable / 4); // the events need room too
      }
    } catch (RuntimeException e) {
      // The full size, as far as it fits.
    }
    // One 128 KiB chunk of xorshift output, written over and over: a compressing file system
    // compresses a block or record of up to 128 KiB at a time, and cannot shrink random bytes.
    long[] words = new long[128 * 1024 / 8];
    long x = System.nanoTime() | 1;
    for (int i = 0; i < words.length; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      words[i] = x;
    }
    byte[] chunk = new byte[words.length * 8];
    ByteBuffer.wrap(chunk).asLongBuffer().put(words);
    try (FileOutputStream out = new FileOutputStream(file.toFile())) {
      for (long n = 0; n < size; n += chunk.length) {
        out.write(chunk, 0, (int) Math.min(chunk.length, size - n));
      }
    } catch (IOException | RuntimeException e) {
      // Kept as far as it was written.
    }
  }

  /**
   * Frees the next part of the reserve, if this write may use it: the first part for any record
   * (from then on no event space is allocated), the close part only for attributes and while the
   * trace is closing. Returns whether space was freed.
   */
  private boolean releaseReserve(IOException failure) {
    if (reserveStage >= 2 || (reserveStage == 1 && !closed && !accountRecord)) {
      return false;
    }
    eventSpaceClosed = true; // before the space is freed, so that no new window takes it
    Path reserve = dir.resolve(RESERVE_FILE);
    int stage = reserveStage++;
    problem(
        "cannot write "
            + TraceFiles.DEFS_FILE
            + " ("
            + why(failure)
            + "): the definitions use their space reserve, events from now on are dropped");
    try (RandomAccessFile f = new RandomAccessFile(reserve.toFile(), "rw")) {
      long size = f.length();
      long keep = stage == 0 ? Math.min(CLOSE_RESERVE_BYTES, size / 4) : 0;
      if (size <= keep) {
        return false;
      }
      f.setLength(keep);
      simulatedGive(size - keep);
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private void deleteReserve() {
    try {
      Files.deleteIfExists(dir.resolve(RESERVE_FILE));
    } catch (IOException | RuntimeException e) {
      // Left behind; readers ignore it.
    }
  }

  /**
   * Writes one record so that the file holds all of it or none of it. A failed write is cut back to
   * the last whole record; then, while the reserve has a part this record may use, that part is
   * freed and the write tried again. A record that cannot be written is not in the file, and the
   * caller's definition must not be used.
   */
  private void writeRecord(byte[] bytes, int length) throws IOException {
    if (defsBroken) {
      throw new IOException(TraceFiles.DEFS_FILE + " cannot be extended after a failed write");
    }
    if (defsLength < 0) {
      defsLength = Files.size(dir.resolve(TraceFiles.DEFS_FILE));
    }
    IOException failure;
    do {
      try {
        writeDefs(bytes, length);
        defsLength += length;
        return;
      } catch (IOException e) {
        failure = e;
      }
      cutBack();
    } while (!defsBroken && releaseReserve(failure)); // space freed: try once more
    problem("cannot write " + TraceFiles.DEFS_FILE + ": " + why(failure));
    throw failure;
  }

  private static String why(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /**
   * Cuts defs.wdf back to its last whole record, through a handle of its own (the stream's channel
   * would close itself, and the stream, if an interrupted thread used it). If that fails, nothing
   * more is appended.
   */
  private void cutBack() {
    try (RandomAccessFile f =
        new RandomAccessFile(dir.resolve(TraceFiles.DEFS_FILE).toFile(), "rw")) {
      long size = f.length();
      if (size > defsLength) {
        f.setLength(defsLength);
        simulatedGive(size - defsLength);
      }
    } catch (IOException | RuntimeException e) {
      defsBroken = true;
    }
  }

  private void writeDefs(byte[] bytes, int length) throws IOException {
    long free = simulatedFree.get();
    if (free != Long.MIN_VALUE) {
      int fits = (int) Math.max(0, Math.min(length, free));
      simulatedFree.addAndGet(-fits);
      if (fits < length) {
        defs.write(bytes, 0, fits); // a real full disk may also take part of a write
        throw new IOException(SIMULATED_FULL);
      }
    }
    defs.write(bytes, 0, length);
  }

  /**
   * For tests of a full disk: from now on the trace behaves as if its disk had {@code bytes} free,
   * besides what the space reserve frees. Definitions, event windows and event files take from it;
   * writes that do not fit fail with "No space left on device (simulated)", as a real full disk's
   * do (a definition write takes as much as fits, as a real one may).
   */
  public void simulateFreeSpace(long bytes) {
    simulatedFree.set(Math.max(0, bytes));
  }

  private boolean simulatedTake(long bytes) {
    while (true) {
      long free = simulatedFree.get();
      if (free == Long.MIN_VALUE) {
        return true;
      }
      if (free < bytes) {
        return false;
      }
      if (simulatedFree.compareAndSet(free, free - bytes)) {
        return true;
      }
    }
  }

  private void simulatedGive(long bytes) {
    simulatedFree.updateAndGet(free -> free == Long.MIN_VALUE ? free : free + bytes);
  }

  /** A simulated full disk creates the file and then finds no room for its header. */
  private void simulateStreamFile(Path path) throws IOException {
    if (!simulatedTake(4096)) {
      Files.createFile(path);
      throw new IOException(SIMULATED_FULL);
    }
  }
}
