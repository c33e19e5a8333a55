package dev.weft.trace;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * Everything the definitions file says: the reader-owned dictionaries that events refer to by id.
 * Read once when a trace is opened.
 */
public final class Definitions {
  private final Map<Integer, RegionDef> regions = new HashMap<>();

  /**
   * The regions again, by id, for the ids up to a few times their number (ids are handed out from 1
   * up): the replay looks a region up per task created, where a boxed map lookup showed.
   */
  private RegionDef[] regionsById = new RegionDef[0];

  private final Map<Integer, ThreadDef> threads = new TreeMap<>();
  private final Map<Integer, ThreadDef> supplements = new TreeMap<>();
  private final Map<Integer, Integer> owners = new HashMap<>();
  private final Map<Long, Integer> carriedByJavaId = new HashMap<>();
  private final Map<Integer, PoolDef> pools = new HashMap<>();
  private final Map<Long, ObjectDef> objects = new HashMap<>();
  private final Map<String, String> attributes = new LinkedHashMap<>();
  private final Map<Integer, Long> drops = new HashMap<>();
  private final Map<Integer, ThreadJvmCounts> jvmCounts = new HashMap<>();
  private ClockDef clock;
  private ProcessDef process;
  private final Map<Integer, StreamEnd> streamEnds = new HashMap<>();
  private long endTime = Long.MIN_VALUE;
  private long traceId;
  private boolean cut;
  private String damage;
  private int versionMinor;

  /**
   * What the closing writer recorded of a stream's last (unsealed) block: see FORMAT.md,
   * STREAM_END.
   */
  record StreamEnd(long blockOffset, long endOffset, long events, long crc) {}

  private Definitions() {}

  /**
   * Reads and checks {@code dir/defs.wdf}. A damaged record fails with a one-line {@link
   * TraceFormatException}, unless {@code salvage}: then the records before it are kept and {@link
   * #damage()} says what was wrong.
   */
  static Definitions read(Path dir, boolean salvage) {
    Path file = dir.resolve(TraceFiles.DEFS_FILE);
    byte[] bytes;
    try {
      if (!Files.isRegularFile(file)) {
        throw new TraceFormatException(
            Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                ? file + ": not a regular file"
                : dir + ": not a Weft trace (no " + TraceFiles.DEFS_FILE + ")");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new TraceFormatException(dir + ": not a Weft trace (no " + TraceFiles.DEFS_FILE + ")");
    } catch (IOException e) {
      throw new TraceFormatException(file + ": cannot read: " + e.getMessage(), e);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < Math.min(bytes.length, TraceFiles.DEFS_MAGIC.length); i++) {
      if (bytes[i] != TraceFiles.DEFS_MAGIC[i]) {
        throw new TraceFormatException(file + ": not a Weft trace (bad magic)");
      }
    }
    int major = bytes.length >= 10 ? Short.toUnsignedInt(b.getShort(8)) : TraceFiles.VERSION_MAJOR;
    int minor = bytes.length >= 12 ? Short.toUnsignedInt(b.getShort(10)) : 0;
    if (major != TraceFiles.VERSION_MAJOR) {
      throw new TraceFormatException(
          file
              + ": trace format version "
              + major
              + "."
              + minor
              + " is not supported (this reader reads "
              + TraceFiles.VERSION_MAJOR
              + ".x)");
    }
    if (bytes.length < TraceFiles.DEFS_HEADER_SIZE) {
      // The writer was killed while creating the file: a trace with nothing in it, cut.
      Definitions d = new Definitions();
      d.cut = true;
      return d;
    }
    b.position(TraceFiles.DEFS_HEADER_SIZE);
    Definitions d = new Definitions();
    d.versionMinor = minor;
    if (b.getInt(12) != 0) {
      throw bad(file, 12, "reserved header bytes are not zero");
    }
    try {
      d.parse(file, b);
    } catch (TraceFormatException e) {
      if (!salvage) {
        throw e;
      }
      d.damage = e.getMessage();
      d.finishThreads();
    }
    d.indexRegions();
    return d;
  }

  /** Fills {@link #regionsById} once the regions are read. */
  private void indexRegions() {
    int limit = Math.max(1024, 4 * regions.size());
    int length = 0;
    for (int id : regions.keySet()) {
      if (id >= 0 && id < limit) {
        length = Math.max(length, id + 1);
      }
    }
    RegionDef[] byId = new RegionDef[length];
    for (RegionDef r : regions.values()) {
      if (r.id() >= 0 && r.id() < length) {
        byId[r.id()] = r;
      }
    }
    regionsById = byId;
  }

  private final List<String> strings = new ArrayList<>();
  private final Map<Integer, List<ThreadDef.Rename>> names = new HashMap<>();
  private final Map<Integer, long[]> threadFacts = new LinkedHashMap<>();

  /** At most this many bytes are checksummed looking for a whole record after a cut one. */
  private static final long RESYNC_BUDGET = 64L << 20;

  /**
   * The offset of the first whole record (known type, length within the file, matching checksum) at
   * or after {@code from} in {@code b} (a little-endian buffer wrapping a whole array), or -1. A
   * writer appends whole records, so after a record that the file's end cuts short there is none.
   */
  static long wholeRecordAfter(ByteBuffer b, int from) {
    long budget = RESYNC_BUDGET;
    int end = b.limit();
    for (int at = from; at < end - 1 && budget > 0; at++) {
      int type = b.get(at) & 0xFF;
      if (type < TraceFiles.DEF_STRING || type > TraceFiles.DEF_THREAD_JVM_COUNTS) {
        continue;
      }
      ByteBuffer d = b.duplicate().position(at + 1);
      long len;
      try {
        len = Varint.get(d);
      } catch (RuntimeException e) {
        continue; // runs past the file, or longer than a varint: not a record's length here
      }
      int q = d.position();
      if (len < TraceFiles.DEF_CHECKSUM_SIZE || len > end - q) {
        continue;
      }
      int body = q + (int) len - TraceFiles.DEF_CHECKSUM_SIZE;
      budget -= body - at;
      if (checksumMatches(b, at, body)) {
        return at;
      }
    }
    return -1;
  }

  /** Whether the CRC-32C of the bytes [start, body) is the one stored at {@code body}. */
  private static boolean checksumMatches(ByteBuffer b, int start, int body) {
    CRC32C crc = new CRC32C();
    crc.update(b.array(), start, body - start);
    return (int) crc.getValue() == b.getInt(body);
  }

  private void parse(Path file, ByteBuffer b) {
    boolean checksums = versionMinor >= 1;
    while (b.hasRemaining()) {
      int start = b.position();
      int type = b.get() & 0xFF;
      ByteBuffer r;
      try {
        long len = Varint.get(b);
        if (len < 0) {
          throw bad(file, start, "malformed record length");
        }
        if (len > b.remaining()) {
          // The process stopped while this record was being written, so nothing follows it; a
          // whole record after it means this record's length was changed instead.
          long whole = checksums ? wholeRecordAfter(b, start + 1) : -1;
          if (whole >= 0) {
            throw bad(
                file,
                start,
                "record length "
                    + len
                    + " runs past the end of the file, yet a whole record follows at byte "
                    + whole);
          }
          cut = true;
          break;
        }
        r = b.slice(b.position(), (int) len).order(ByteOrder.LITTLE_ENDIAN);
        b.position(b.position() + (int) len);
        if (checksums) {
          if (len < TraceFiles.DEF_CHECKSUM_SIZE) {
            throw bad(file, start, "record too short for its checksum");
          }
          int body = b.position() - TraceFiles.DEF_CHECKSUM_SIZE;
          if (!checksumMatches(b, start, body)) {
            throw bad(file, start, "checksum mismatch in a record of type 0x" + hex(type));
          }
          r.limit(r.limit() - TraceFiles.DEF_CHECKSUM_SIZE);
        }
      } catch (BufferUnderflowException e) {
        cut = true;
        break;
      } catch (IllegalArgumentException e) {
        throw bad(file, start, "malformed record length");
      }
      try {
        switch (type) {
          case TraceFiles.DEF_STRING:
            {
              int id = (int) Varint.get(r);
              long n = Varint.get(r);
              if (n > r.remaining()) {
                throw bad(file, start, "string longer than its record");
              }
              byte[] s = new byte[(int) n];
              r.get(s);
              if (id != strings.size()) {
                throw bad(file, start, "string id " + id + " out of order");
              }
              strings.add(new String(s, StandardCharsets.UTF_8));
              break;
            }
          case TraceFiles.DEF_CLOCK:
            clock = new ClockDef(Varint.getSigned(r), Varint.getSigned(r), Varint.get(r));
            break;
          case TraceFiles.DEF_PROCESS:
            process =
                new ProcessDef(
                    Varint.get(r),
                    str(strings, r, file, start),
                    str(strings, r, file, start),
                    str(strings, r, file, start),
                    (int) Varint.get(r),
                    str(strings, r, file, start),
                    str(strings, r, file, start),
                    str(strings, r, file, start));
            break;
          case TraceFiles.DEF_REGION:
            {
              int id = id31(r, file, start);
              ConstructKind kind = ConstructKind.ofCode((int) Varint.get(r));
              regions.put(
                  id,
                  new RegionDef(
                      id,
                      kind,
                      str(strings, r, file, start),
                      str(strings, r, file, start),
                      str(strings, r, file, start),
                      str(strings, r, file, start),
                      (int) Varint.get(r),
                      (int) Varint.get(r)));
              break;
            }
          case TraceFiles.DEF_THREAD:
            {
              int stream = id31(r, file, start);
              if (stream == 0) {
                throw bad(file, start, "thread with stream id 0");
              }
              if (threadFacts.containsKey(stream)) {
                throw bad(file, start, "stream " + stream + " defined twice");
              }
              long javaId = Varint.get(r);
              String name = str(strings, r, file, start);
              int flags = (int) Varint.get(r);
              int pool = (int) Varint.get(r);
              long time = Varint.getSigned(r);
              threadFacts.put(stream, new long[] {javaId, flags, pool});
              names
                  .computeIfAbsent(stream, k -> new ArrayList<>())
                  .add(0, new ThreadDef.Rename(time, name));
              break;
            }
          case TraceFiles.DEF_THREAD_NAME:
            {
              int stream = id31(r, file, start);
              long time = Varint.getSigned(r);
              String name = str(strings, r, file, start);
              names
                  .computeIfAbsent(stream, k -> new ArrayList<>())
                  .add(new ThreadDef.Rename(time, name));
              break;
            }
          case TraceFiles.DEF_POOL:
            {
              int id = id31(r, file, start);
              ConstructKind kind = ConstructKind.ofCode((int) Varint.get(r));
              pools.put(
                  id, new PoolDef(id, kind, str(strings, r, file, start), (int) Varint.get(r)));
              break;
            }
          case TraceFiles.DEF_OBJECT:
            {
              long id = Varint.get(r);
              ConstructKind kind = ConstructKind.ofCode((int) Varint.get(r));
              objects.put(
                  id, new ObjectDef(id, kind, str(strings, r, file, start), (int) Varint.get(r)));
              break;
            }
          case TraceFiles.DEF_DROPS:
            drops.merge(id31(r, file, start), Varint.get(r), Long::sum);
            break;
          case TraceFiles.DEF_THREAD_JVM_COUNTS:
            {
              int stream = id31(r, file, start);
              long blocked = Varint.get(r);
              long waited = Varint.get(r);
              long cpu = r.hasRemaining() ? Varint.get(r) : -1; // trailing fields, added in 1.3
              long runQueue = cpu >= 0 && r.hasRemaining() ? Varint.get(r) : -1;
              long from = runQueue >= 0 && r.hasRemaining() ? Varint.get(r) : -1;
              jvmCounts.put(
                  stream, new ThreadJvmCounts(stream, blocked, waited, cpu, runQueue, from));
              break;
            }
          case TraceFiles.DEF_TRACE:
            if (start != TraceFiles.DEFS_HEADER_SIZE) {
              throw bad(file, start, "trace id record not first");
            }
            traceId = Varint.get(r);
            break;
          case TraceFiles.DEF_STREAM_END:
            {
              int stream = id31(r, file, start);
              streamEnds.put(
                  stream,
                  new StreamEnd(Varint.get(r), Varint.get(r), Varint.get(r), Varint.get(r)));
              break;
            }
          case TraceFiles.DEF_END:
            endTime = Varint.getSigned(r);
            break;
          case TraceFiles.DEF_ATTRIBUTE:
            attributes.put(str(strings, r, file, start), str(strings, r, file, start));
            break;
          default:
            // A record type from a newer minor version: skipped by its length.
            break;
        }
      } catch (BufferUnderflowException | IllegalArgumentException e) {
        throw bad(file, start, "malformed record of type 0x" + hex(type));
      }
    }
    if (checksums && traceId == 0 && !cut && b.limit() > TraceFiles.DEFS_HEADER_SIZE) {
      throw bad(file, TraceFiles.DEFS_HEADER_SIZE, "no trace id record");
    }
    finishThreads();
  }

  private void finishThreads() {
    Map<Long, Integer> mainByJavaId = new HashMap<>();
    for (Map.Entry<Integer, long[]> e : threadFacts.entrySet()) {
      long[] f = e.getValue();
      ThreadDef t =
          new ThreadDef(
              e.getKey(), f[0], names.getOrDefault(e.getKey(), List.of()), (int) f[1], (int) f[2]);
      if (t.isSupplement()) {
        supplements.put(t.stream(), t);
      } else if (t.isCarried()) {
        threads.put(t.stream(), t);
        carriedByJavaId.put(t.javaId(), t.stream());
        if (t.isHosted()) {
          mainByJavaId.putIfAbsent(t.javaId(), t.stream());
        }
      } else {
        threads.put(t.stream(), t);
        if (!t.isVirtual()) {
          mainByJavaId.putIfAbsent(t.javaId(), t.stream());
        }
      }
    }
    for (ThreadDef s : List.copyOf(supplements.values())) {
      Integer owner = mainByJavaId.get(s.javaId());
      if (owner == null) {
        // Nothing else recorded of the thread: the supplement is its only stream.
        supplements.remove(s.stream());
        threads.put(s.stream(), s);
      } else {
        owners.put(s.stream(), owner);
      }
    }
  }

  /** An id that must fit in 31 bits (stream, region and pool ids). */
  private static int id31(ByteBuffer r, Path file, int offset) {
    long v = Varint.get(r);
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw bad(file, offset, "id " + Long.toUnsignedString(v) + " out of range");
    }
    return (int) v;
  }

  private static String hex(int type) {
    return Integer.toHexString(type);
  }

  private static String str(List<String> strings, ByteBuffer r, Path file, int offset) {
    long id = Varint.get(r);
    if (id < 0 || id >= strings.size()) {
      throw bad(file, offset, "reference to undefined string " + id);
    }
    return strings.get((int) id);
  }

  private static TraceFormatException bad(Path file, int offset, String what) {
    return new TraceFormatException(file + ": corrupt at byte " + offset + ": " + what);
  }

  public RegionDef region(int id) {
    RegionDef[] byId = regionsById;
    return id >= 0 && id < byId.length ? byId[id] : regions.get(id);
  }

  public Collection<RegionDef> regions() {
    return Collections.unmodifiableCollection(regions.values());
  }

  /** The thread of a stream (a supplement's own definition for a supplement), or null. */
  public ThreadDef thread(int stream) {
    ThreadDef t = threads.get(stream);
    return t != null ? t : supplements.get(stream);
  }

  /**
   * All threads, by stream id. Supplements ({@link ThreadDef#SUPPLEMENT}) are not threads of their
   * own and are not listed: their events belong to their {@link #owner}.
   */
  public Collection<ThreadDef> threads() {
    return Collections.unmodifiableCollection(threads.values());
  }

  /**
   * Every stream's THREAD definition, supplements included, by stream id: the streams that have an
   * event file. Virtual threads on their carriers' streams ({@link ThreadDef#CARRIED}) have none
   * and are left out.
   */
  public Collection<ThreadDef> streamDefinitions() {
    Map<Integer, ThreadDef> all = new TreeMap<>(threads);
    all.values().removeIf(ThreadDef::isCarried);
    all.putAll(supplements);
    return Collections.unmodifiableCollection(all.values());
  }

  /**
   * The logical stream of the thread with Java id {@code javaId} whose events are on other threads'
   * streams ({@link ThreadDef#CARRIED}: a virtual thread on its carriers', a hosted platform thread
   * on its host's), or 0 when there is none.
   */
  public int carriedStream(long javaId) {
    Integer s = carriedByJavaId.get(javaId);
    return s == null ? 0 : s;
  }

  /**
   * The stream of the hosted platform thread with Java id {@code javaId} ({@link
   * ThreadDef#isHosted}), or 0: what a {@code vthread_mount} or {@code vthread_unmount} of that id
   * frames on its host's stream.
   */
  public int hostedStream(long javaId) {
    ThreadDef t = thread(carriedStream(javaId));
    return t != null && t.isHosted() ? t.stream() : 0;
  }

  /** Whether any thread is recorded on other threads' streams ({@link ThreadDef#CARRIED}). */
  public boolean hasCarriedThreads() {
    return !carriedByJavaId.isEmpty();
  }

  /** The supplement streams that belong to another stream's thread, by stream id. */
  public Collection<ThreadDef> supplements() {
    return Collections.unmodifiableCollection(supplements.values());
  }

  /**
   * The stream whose thread the events of {@code stream} belong to: the thread's main stream for a
   * supplement, else {@code stream} itself.
   */
  public int owner(int stream) {
    Integer o = owners.get(stream);
    return o != null ? o : stream;
  }

  public PoolDef pool(int id) {
    return pools.get(id);
  }

  public Collection<PoolDef> pools() {
    return Collections.unmodifiableCollection(pools.values());
  }

  public ObjectDef object(long id) {
    return objects.get(id);
  }

  public Map<String, String> attributes() {
    return Collections.unmodifiableMap(attributes);
  }

  /** The clock definition, or null if the writer died before writing it. */
  public ClockDef clock() {
    return clock;
  }

  /** Facts about the traced JVM, or null. */
  public ProcessDef process() {
    return process;
  }

  /** Drop counts recorded at a clean close, by stream. */
  public Map<Integer, Long> drops() {
    return Collections.unmodifiableMap(drops);
  }

  /**
   * What the JVM counted for a stream's thread while it was recorded (THREAD_JVM_COUNTS), or null
   * when the trace has no such record for it (older traces, virtual threads, threads that ended
   * unseen).
   */
  public ThreadJvmCounts jvmCounts(int stream) {
    return jvmCounts.get(stream);
  }

  /** Every THREAD_JVM_COUNTS record, by stream. */
  public Map<Integer, ThreadJvmCounts> jvmCounts() {
    return Collections.unmodifiableMap(jvmCounts);
  }

  /** True if the writer closed the trace (an END record exists). */
  public boolean closedCleanly() {
    return endTime != Long.MIN_VALUE;
  }

  /** The END record's time, or {@link Long#MIN_VALUE} when the trace was not closed. */
  public long endTime() {
    return endTime;
  }

  /** True if the file ends in the middle of a record (the writer was killed while writing it). */
  public boolean cut() {
    return cut;
  }

  public int versionMinor() {
    return versionMinor;
  }

  /** The trace's identity (0 for a trace written before format 1.1: no identity to check). */
  public long traceId() {
    return traceId;
  }

  /** With salvage only: why reading the definitions stopped early (file and byte), or null. */
  public String damage() {
    return damage;
  }

  private java.util.BitSet denseRegions;

  /** Defined region ids below {@code limit}, shared by every cursor of the trace (read-only). */
  synchronized java.util.BitSet denseRegions(int limit) {
    if (denseRegions == null) {
      java.util.BitSet b = new java.util.BitSet();
      for (int id : regions.keySet()) {
        if (id >= 0 && id < limit) {
          b.set(id);
        }
      }
      denseRegions = b;
    }
    return denseRegions;
  }

  StreamEnd streamEnd(int stream) {
    return streamEnds.get(stream);
  }
}
