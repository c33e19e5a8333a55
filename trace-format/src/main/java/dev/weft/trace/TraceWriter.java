package dev.weft.trace;

import java.io.Closeable;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
      id =
          ThreadLocalRandom.current().nextLong()
              ^ System.nanoTime()
              ^ ProcessHandle.current().pid();
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
    return new TraceWriter(dir, options);
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

  /** A free-form key/value fact about the recording (e.g. {@code mode=aggregated}). */
  public synchronized void defineAttribute(String key, String value) throws IOException {
    int k = string(key);
    int v = string(value);
    ByteBuffer b = record();
    Varint.put(b, k);
    Varint.put(b, v);
    append(TraceFiles.DEF_ATTRIBUTE, b);
  }

  /**
   * Defines a thread and opens its event stream. The thread definition is on disk before this
   * returns, so no event of the stream can precede it.
   *
   * @param time when the thread first recorded
   * @return the stream; it may start out dropping when no window could be allocated
   */
  public StreamWriter openStream(long javaId, String name, int flags, int pool, long time)
      throws IOException {
    int id = nextStream.getAndIncrement();
    synchronized (this) {
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
    StreamFile file =
        new StreamFile(
            TraceFiles.streamFile(dir, id), id, traceId, options.firstWindow, options.maxWindow);
    StreamWriter s = new StreamWriter(this, id, file, time);
    s.start();
    streams.add(s);
    return s;
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
   * racing writer.
   */
  public synchronized void close(long endTime) throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    preparer.stop();
    for (StreamWriter s : streams) {
      s.closeFile();
      StreamWriter.CommittedEnd end = s.committedEnd();
      if (end != null) {
        ByteBuffer b = record();
        Varint.put(b, s.id());
        Varint.put(b, end.blockOffset());
        Varint.put(b, end.endOffset());
        Varint.put(b, end.events());
        Varint.put(b, end.crc());
        append(TraceFiles.DEF_STREAM_END, b);
      }
      if (s.dropped() > 0) {
        ByteBuffer b = record();
        Varint.put(b, s.id());
        Varint.put(b, s.dropped());
        append(TraceFiles.DEF_DROPS, b);
      }
    }
    ByteBuffer b = record();
    Varint.putSigned(b, endTime);
    append(TraceFiles.DEF_END, b);
    defsOpen = false;
    defs.close();
  }

  @Override
  public void close() throws IOException {
    close(System.nanoTime());
  }

  public boolean isClosed() {
    return closed;
  }

  /** Total events dropped so far over all streams. */
  public long dropped() {
    long n = 0;
    for (StreamWriter s : streams) {
      n += s.dropped();
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
    if (closed) {
      return false;
    }
    long limit = options.maxBytes;
    long now = reservedBytes.addAndGet(size);
    if (limit > 0 && now > limit) {
      reservedBytes.addAndGet(-size);
      problem("trace size limit of " + limit + " bytes reached; further events are dropped");
      return false;
    }
    return true;
  }

  void releaseBytes(int size) {
    reservedBytes.addAndGet(-size);
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
   * single write.
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
    defs.write(r.array(), 0, r.limit());
  }
}
