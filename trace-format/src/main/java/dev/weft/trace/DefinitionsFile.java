package dev.weft.trace;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The definitions file (defs.wdf) being written: one method per record type, encoding it as
 * FORMAT.md lays it out, the string table, and appending so that the file holds each record whole
 * or not at all, on a full disk with the help of the {@link SpaceReserve}. Apart from {@link
 * TraceWriter} because that decides what is defined and when (and manages the event streams), while
 * this is the file's bytes.
 *
 * <p>Not thread-safe: the {@link TraceWriter} calls it holding its own lock.
 */
final class DefinitionsFile {
  private final Path file;
  private final SpaceReserve reserve;
  private final SimulatedDisk disk;
  private final Consumer<String> problems;

  /**
   * The file. A stream, not a FileChannel: definitions are written on application threads, and a
   * FileChannel closes itself when an interrupted thread uses it.
   */
  private final FileOutputStream out;

  private boolean open = true;
  private final Map<String, Integer> strings = new HashMap<>();

  /**
   * Records encoded and not yet written: a definition and the strings it introduces go to the file
   * in one write (a new thread's name and its THREAD record: one system call, not two).
   */
  private byte[] batch = new byte[512];

  private ByteBuffer batchBuffer = ByteBuffer.wrap(batch).order(ByteOrder.LITTLE_ENDIAN);

  /** The strings defined in the batch: out of the table again when its write fails. */
  private final List<String> batchStrings = new ArrayList<>();

  /** A record's fields, encoded before the record's header (type, length) is known. */
  private final ByteBuffer payload = ByteBuffer.allocate(128);

  private final CRC32C crc = new CRC32C();

  /** The trace is closing: its records may use the close part of the reserve. */
  private boolean closing;

  /** An attribute is being written: it may use the close part of the reserve. */
  private boolean accountRecord;

  /** Length of the file up to its last whole record; -1 until first needed. */
  private long length = -1;

  /**
   * A failed write could not be cut back: records appended now would sit behind half a record,
   * where no reader finds them, so none are.
   */
  private boolean broken;

  /** Creates the file (which must not exist) and writes its header. */
  DefinitionsFile(Path dir, SpaceReserve reserve, SimulatedDisk disk, Consumer<String> problems)
      throws IOException {
    this.file = dir.resolve(TraceFiles.DEFS_FILE);
    this.reserve = reserve;
    this.disk = disk;
    this.problems = problems;
    PrivateFiles.createFile(file);
    this.out = new FileOutputStream(file.toFile(), true);
    ByteBuffer h = ByteBuffer.allocate(TraceFiles.DEFS_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    h.put(TraceFiles.DEFS_MAGIC);
    h.putShort((short) TraceFiles.VERSION_MAJOR);
    h.putShort((short) TraceFiles.VERSION_MINOR);
    h.putInt(0);
    out.write(h.array());
  }

  // ---- one method per record type (FORMAT.md, "Definitions") -----------------------------------

  void writeTrace(long traceId) throws IOException {
    ByteBuffer b = record();
    Varint.put(b, traceId);
    append(TraceFiles.DEF_TRACE, b);
  }

  void writeClock(ClockDef clock) throws IOException {
    ByteBuffer b = record();
    Varint.putSigned(b, clock.nanoBase());
    Varint.putSigned(b, clock.epochNanos());
    Varint.put(b, clock.resolutionNanos());
    append(TraceFiles.DEF_CLOCK, b);
  }

  void writeProcess(ProcessDef p) throws IOException {
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

  void writeRegion(RegionDef r) throws IOException {
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

  void writePool(PoolDef p) throws IOException {
    int name = string(p.name());
    ByteBuffer b = record();
    Varint.put(b, p.id());
    Varint.put(b, p.kind().code());
    Varint.put(b, name);
    Varint.put(b, Math.max(0, p.parallelism()));
    append(TraceFiles.DEF_POOL, b);
  }

  void writeObject(ObjectDef o) throws IOException {
    int cls = string(o.className());
    ByteBuffer b = record();
    Varint.put(b, o.id());
    Varint.put(b, o.kind().code());
    Varint.put(b, cls);
    Varint.put(b, Math.max(0, o.parties()));
    append(TraceFiles.DEF_OBJECT, b);
  }

  /**
   * An attribute: the trace's account of itself, mostly written just before the close, so on a full
   * disk it may use the close part of the space reserve, as DROPS and END do.
   */
  void writeAttribute(String key, String value) throws IOException {
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

  void writeThreadJvmCounts(
      int stream,
      long blockedCount,
      long waitedCount,
      long cpuNs,
      long runQueueNs,
      long timesFromNs)
      throws IOException {
    ByteBuffer b = record();
    Varint.put(b, stream);
    Varint.put(b, blockedCount);
    Varint.put(b, waitedCount);
    if (cpuNs >= 0) { // trailing fields: each only when known, the run queue only with the CPU
      Varint.put(b, cpuNs);
      if (runQueueNs >= 0) {
        Varint.put(b, runQueueNs);
        if (timesFromNs >= 0) {
          Varint.put(b, timesFromNs);
        }
      }
    }
    append(TraceFiles.DEF_THREAD_JVM_COUNTS, b);
  }

  void writeThread(int id, long javaId, String name, int flags, int pool, long time)
      throws IOException {
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

  void writeThreadName(int stream, long time, String name) throws IOException {
    int n = string(name);
    ByteBuffer b = record();
    Varint.put(b, stream);
    Varint.putSigned(b, time);
    Varint.put(b, n);
    append(TraceFiles.DEF_THREAD_NAME, b);
  }

  void writeDrops(int stream, long count) throws IOException {
    ByteBuffer b = record();
    Varint.put(b, stream);
    Varint.put(b, count);
    append(TraceFiles.DEF_DROPS, b);
  }

  void writeStreamEnd(int stream, WindowSeal.CommittedEnd end) throws IOException {
    ByteBuffer b = record();
    Varint.put(b, stream);
    Varint.put(b, end.blockOffset());
    Varint.put(b, end.endOffset());
    Varint.put(b, end.events());
    Varint.put(b, end.crc());
    append(TraceFiles.DEF_STREAM_END, b);
  }

  void writeEnd(long endTime) throws IOException {
    ByteBuffer b = record();
    Varint.putSigned(b, endTime);
    append(TraceFiles.DEF_END, b);
  }

  /** The trace is closing: from now on records may use the close part of the space reserve. */
  void closing() {
    closing = true;
  }

  /** Closes the file; records appended after this fail. */
  void close() throws IOException {
    open = false;
    out.close();
  }

  // ---- records ----------------------------------------------------------------------------------

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
    add(TraceFiles.DEF_STRING, b); // written with the record that uses it
    strings.put(s, next);
    batchStrings.add(s);
    return next;
  }

  /** The buffer for the next record's fields (records are encoded one at a time). */
  private ByteBuffer record() {
    payload.clear();
    return payload;
  }

  /**
   * Appends one record, with the strings it introduced before it, in a single write: all of them
   * or, when the write fails, none (see {@link #writeRecord}).
   */
  private void append(int type, ByteBuffer payload) throws IOException {
    if (!open) {
      dropBatch();
      throw new IOException("trace is closed");
    }
    add(type, payload);
    try {
      writeRecord(batch, batchBuffer.position());
      batchStrings.clear();
    } finally {
      dropBatch();
    }
  }

  /** Encodes one record (type, payload length, payload, CRC-32C of everything before it). */
  private void add(int type, ByteBuffer payload) {
    payload.flip();
    int len = payload.remaining() + TraceFiles.DEF_CHECKSUM_SIZE;
    int start = batchBuffer.position();
    int size = 1 + Varint.size(len) + len;
    if (start + size > batch.length) {
      batch = Arrays.copyOf(batch, Math.max(2 * batch.length, start + size));
      batchBuffer = ByteBuffer.wrap(batch).order(ByteOrder.LITTLE_ENDIAN).position(start);
    }
    batchBuffer.put((byte) type);
    Varint.put(batchBuffer, len);
    batchBuffer.put(payload);
    crc.reset();
    crc.update(batch, start, batchBuffer.position() - start);
    batchBuffer.putInt((int) crc.getValue());
  }

  /** Empties the batch; strings it defined that were not written leave the table. */
  private void dropBatch() {
    for (int i = 0; i < batchStrings.size(); i++) {
      strings.remove(batchStrings.get(i));
    }
    batchStrings.clear();
    batchBuffer.clear();
  }

  /**
   * Writes records so that the file holds all of them or none of them. A failed write is cut back
   * to the last whole record; then, while the reserve has a part these records may use, that part
   * is freed and the write tried again. A record that cannot be written is not in the file, and the
   * caller's definition must not be used.
   */
  private void writeRecord(byte[] bytes, int length) throws IOException {
    if (broken) {
      throw new IOException(TraceFiles.DEFS_FILE + " cannot be extended after a failed write");
    }
    if (this.length < 0) {
      this.length = Files.size(file);
    }
    IOException failure;
    do {
      try {
        write(bytes, length);
        this.length += length;
        return;
      } catch (IOException e) {
        failure = e;
      }
      cutBack();
    } while (!broken && reserve.release(TraceWriter.why(failure), closing || accountRecord));
    problems.accept("cannot write " + TraceFiles.DEFS_FILE + ": " + TraceWriter.why(failure));
    throw failure;
  }

  /**
   * Cuts the file back to its last whole record, through a handle of its own (the stream's channel
   * would close itself, and the stream, if an interrupted thread used it). If that fails, nothing
   * more is appended.
   */
  private void cutBack() {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      long size = f.length();
      if (size > length) {
        f.setLength(length);
        disk.give(size - length);
      }
    } catch (IOException | RuntimeException e) {
      broken = true;
    }
  }

  private void write(byte[] bytes, int length) throws IOException {
    int fits = disk.takeUpTo(length);
    if (fits < length) {
      out.write(bytes, 0, fits); // a real full disk may also take part of a write
      throw new IOException(SimulatedDisk.FULL);
    }
    out.write(bytes, 0, length);
  }
}
