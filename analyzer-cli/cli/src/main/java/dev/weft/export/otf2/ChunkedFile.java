package dev.weft.export.otf2;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One chunked OTF2 file (a location's events, the global or a local definitions file), written
 * front to back. The file is a sequence of chunks of exactly {@code chunkSize} bytes, the last one
 * cut after its data. A chunk starts with a header (type byte, endianness byte, the number of its
 * first event counted from 1 and of its last event, full 64-bit); in an event file it then holds a
 * timestamp record and events, each event preceded by a timestamp record when its time differs from
 * the previous one. A record never crosses a chunk's end: the rest of the chunk is filled with
 * END_OF_CHUNK bytes and the record goes into the next chunk. END_OF_FILE and END_OF_BUFFER end the
 * file.
 *
 * <p>Only a few KiB per file are held in memory: the bytes are appended to the file whenever they
 * pass {@link #FLUSH_BYTES}, so that a trace with many threads can be exported at once without
 * keeping one open file or one chunk per thread.
 */
final class ChunkedFile {
  private static final int FLUSH_BYTES = 16 * 1024;
  private static final int LAST_EVENT_OFFSET = 10;
  private static final int TIMESTAMP_BYTES = 9;

  private final Path path;
  private final int chunkSize;
  private final Encoding pending = new Encoding();
  private long flushed;
  private long chunkStart;
  private long events;
  private long lastTime;
  private boolean timeInChunk;

  /** Creates (or truncates) the file. */
  ChunkedFile(Path path, int chunkSize) throws IOException {
    this.path = path;
    this.chunkSize = chunkSize;
    try (FileChannel ch =
        FileChannel.open(
            path,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      // created empty
    }
    startChunk();
  }

  /** Events written so far. */
  long events() {
    return events;
  }

  /**
   * Appends one event record at {@code time} (OTF2 ticks; never less than the previous event's).
   */
  void event(long time, Encoding record) throws IOException {
    int timeBytes = !timeInChunk || time != lastTime ? TIMESTAMP_BYTES : 0;
    if (!fits(timeBytes + record.size())) {
      nextChunk();
      timeBytes = TIMESTAMP_BYTES;
    }
    if (timeBytes > 0) {
      pending.u8(Encoding.TIMESTAMP).u64Full(time);
      lastTime = time;
      timeInChunk = true;
    }
    pending.append(record);
    events++;
    flushIfFull();
  }

  /** Appends one definition record. */
  void definition(Encoding record) throws IOException {
    if (!fits(record.size())) {
      nextChunk();
    }
    pending.append(record);
    flushIfFull();
  }

  /** Ends the file. */
  void close() throws IOException {
    patchLastEvent();
    pending.u8(Encoding.END_OF_FILE).u8(Encoding.END_OF_BUFFER);
    flush();
  }

  /** A record fits when two bytes stay free after it, for the end markers. */
  private boolean fits(int bytes) {
    long used = flushed + pending.size() - chunkStart;
    if (LAST_EVENT_OFFSET + 8 + TIMESTAMP_BYTES + bytes + 2 > chunkSize) {
      throw new IllegalArgumentException("OTF2 record of " + bytes + " bytes exceeds a chunk");
    }
    return used + bytes + 2 <= chunkSize;
  }

  private void startChunk() {
    chunkStart = flushed + pending.size();
    pending.u8(Encoding.CHUNK_HEADER).u8(Encoding.LITTLE_ENDIAN);
    pending.u64Full(events + 1).u64Full(0); // last event: patched when the chunk ends
    timeInChunk = false;
  }

  private void nextChunk() throws IOException {
    patchLastEvent();
    long used = flushed + pending.size() - chunkStart;
    pending.zeros((int) (chunkSize - used)); // END_OF_CHUNK is 0
    flush();
    startChunk();
  }

  private void patchLastEvent() throws IOException {
    long at = chunkStart + LAST_EVENT_OFFSET;
    if (at >= flushed) {
      pending.patchU64((int) (at - flushed), events);
      return;
    }
    ByteBuffer b = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.putLong(0, events);
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
      while (b.hasRemaining()) {
        ch.write(b, at + b.position());
      }
    }
  }

  private void flushIfFull() throws IOException {
    if (pending.size() >= FLUSH_BYTES) {
      flush();
    }
  }

  private void flush() throws IOException {
    if (pending.size() == 0) {
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(pending.array(), 0, pending.size());
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.APPEND)) {
      while (b.hasRemaining()) {
        ch.write(b);
      }
    }
    flushed += pending.size();
    pending.clear();
  }
}
