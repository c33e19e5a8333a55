package dev.weft.trace;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads one thread's event file, block by block (one block mapped at a time, so memory does not grow
 * with the file). Finds the file's valid end itself: a zero byte where an event or a block would
 * start ends the stream ({@link State#COMPLETE}); a file that ends before such a byte is {@link
 * State#CUT}; bytes that cannot be events are {@link State#CORRUPT}. Reading never throws once the
 * cursor exists: whatever was read before the end is a prefix of what was written.
 */
public final class StreamCursor implements EventCursor, Closeable {

  /** Why a stream ended (or that it has not yet). */
  public enum State {
    READING,
    /** Reached a zero byte where the next event would start: every event written was read. */
    COMPLETE,
    /** The file ends inside an event or a block: the process was killed or the file truncated. */
    CUT,
    /** Bytes that are not format v1 events; reading stopped there. See {@link #problem()}. */
    CORRUPT
  }

  private final Path path;
  private final int stream;
  private final FileChannel channel;
  private final long fileSize;
  private final long headerDropped;

  /** Blocks up to this size are read into the heap rather than mapped. */
  private static final int SMALL_BLOCK = 64 * 1024;

  private ByteBuffer block;
  private ByteBuffer small;
  private long blockStart;
  private long blockLength;
  private boolean blockTruncated;
  private int p;
  private int end;
  private long time;

  private EventKind kind;
  private final long[] fields = new long[EventKind.MAX_FIELDS];
  private State state = State.READING;
  private String problem;
  private long events;
  private long eventBytes;

  StreamCursor(Path path, int expectedStream) {
    this.path = path;
    this.stream = expectedStream;
    try {
      this.channel = FileChannel.open(path, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      throw new TraceFormatException(path + ": no such file");
    } catch (IOException e) {
      throw new TraceFormatException(path + ": cannot read: " + e.getMessage(), e);
    }
    try {
      this.fileSize = channel.size();
      ByteBuffer h = readHeader(path, channel, expectedStream);
      if (h == null) {
        this.headerDropped = 0;
        finish(State.CUT, "file ends inside its header (" + fileSize + " bytes)");
      } else {
        this.headerDropped = h.getLong(TraceFiles.EVENTS_HEADER_DROPPED_OFFSET);
      }
    } catch (IOException e) {
      close();
      throw new TraceFormatException(path + ": cannot read: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Reads and checks an event file's header. Returns it (little-endian), or null when the file ends
   * inside a header whose bytes so far are right (a writer killed while creating the file).
   *
   * @throws TraceFormatException when the file is not a Weft event file of this major version or
   *     belongs to another stream
   */
  static ByteBuffer readHeader(Path path, FileChannel channel, int expectedStream)
      throws IOException {
    ByteBuffer h =
        ByteBuffer.allocate(TraceFiles.EVENTS_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    while (h.hasRemaining() && channel.read(h, h.position()) > 0) {
      // read until full or end of file
    }
    int n = h.position();
    for (int i = 0; i < Math.min(n, TraceFiles.EVENTS_MAGIC.length); i++) {
      if (h.get(i) != TraceFiles.EVENTS_MAGIC[i]) {
        throw new TraceFormatException(path + ": not a Weft event file (bad magic)");
      }
    }
    if (n >= 10) {
      int major = Short.toUnsignedInt(h.getShort(8));
      if (major != TraceFiles.VERSION_MAJOR) {
        throw new TraceFormatException(
            path
                + ": event file format version "
                + major
                + " is not supported (this reader reads "
                + TraceFiles.VERSION_MAJOR
                + ".x)");
      }
    }
    if (n < TraceFiles.EVENTS_HEADER_SIZE) {
      return null;
    }
    int stream = h.getInt(12);
    if (stream != expectedStream) {
      throw new TraceFormatException(
          path + ": header says stream " + stream + " but the file name says " + expectedStream);
    }
    return h;
  }

  @Override
  public boolean next() {
    if (state != State.READING) {
      return false;
    }
    for (; ; ) {
      if (block == null || p >= end) {
        if (block != null && blockTruncated) {
          return finish(State.CUT, "file ends inside a block at byte " + (blockStart + p));
        }
        if (!openBlock(block == null ? TraceFiles.EVENTS_HEADER_SIZE : blockStart + blockLength)) {
          return false;
        }
        continue;
      }
      int code = block.get(p) & 0xFF;
      if (code == TraceFiles.CODE_END) {
        return finish(State.COMPLETE, null);
      }
      if (code == TraceFiles.CODE_BLOCK_END) {
        p = end; // continue with the next block
        blockTruncated = false;
        if (!openBlock(blockStart + blockLength)) {
          return false;
        }
        continue;
      }
      EventKind k = EventKind.ofCode(code);
      if (k == null) {
        return finish(
            State.CORRUPT,
            "unknown event code 0x" + Integer.toHexString(code) + " at byte " + (blockStart + p));
      }
      int start = p;
      int q = p + 1;
      long delta = 0;
      int n = k.fieldCount();
      // Decode delta and fields; any varint running past the readable end means a cut or corruption.
      for (int f = -1; f < n; f++) {
        long v = 0;
        int shift = 0;
        for (; ; ) {
          if (q >= end) {
            return blockTruncated
                ? finish(State.CUT, "file ends inside an event at byte " + (blockStart + start))
                : finish(State.CORRUPT, "event runs past its block at byte " + (blockStart + start));
          }
          byte x = block.get(q++);
          v |= (long) (x & 0x7F) << shift;
          if (x >= 0) {
            break;
          }
          shift += 7;
          if (shift > 63) {
            return finish(State.CORRUPT, "malformed number at byte " + (blockStart + q));
          }
        }
        if (f < 0) {
          delta = v;
        } else {
          fields[f] = v;
        }
      }
      kind = k;
      time += delta;
      p = q;
      events++;
      eventBytes += q - start;
      return true;
    }
  }

  /** Maps the block at {@code offset}; false (with the state set) when there is none. */
  private boolean openBlock(long offset) {
    if (offset >= fileSize) {
      // A writer always leaves a zero byte (or a whole block) where the next block would start.
      return finish(State.CUT, "file ends where a block would start (byte " + offset + ")");
    }
    try {
      long avail = fileSize - offset;
      if (avail < TraceFiles.BLOCK_HEADER_SIZE) {
        ByteBuffer one = ByteBuffer.allocate(1);
        channel.read(one, offset);
        return one.get(0) == 0
            ? finish(State.COMPLETE, null)
            : finish(State.CUT, "file ends inside a block header at byte " + offset);
      }
      ByteBuffer h =
          ByteBuffer.allocate(TraceFiles.BLOCK_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
      while (h.hasRemaining() && channel.read(h, offset + h.position()) > 0) {
        // read the whole block header
      }
      int code = h.get(0) & 0xFF;
      if (code == TraceFiles.CODE_END) {
        return finish(State.COMPLETE, null);
      }
      if (code != TraceFiles.CODE_BLOCK) {
        return finish(State.CORRUPT, "expected a block header at byte " + offset);
      }
      long length = Integer.toUnsignedLong(h.getInt(1));
      if (length < TraceFiles.BLOCK_HEADER_SIZE + 1 || length > Integer.MAX_VALUE) {
        return finish(State.CORRUPT, "block at byte " + offset + " has length " + length);
      }
      long base = h.getLong(5);
      long readable = Math.min(length, avail);
      block = load(offset, (int) readable);
      blockStart = offset;
      blockLength = length;
      blockTruncated = readable < length;
      p = TraceFiles.BLOCK_HEADER_SIZE;
      end = (int) readable;
      time = base;
      return true;
    } catch (IOException | RuntimeException e) {
      return finish(State.CORRUPT, "cannot read at byte " + offset + ": " + e.getMessage());
    }
  }

  /**
   * The readable bytes of a block: small blocks are read into a reused heap buffer (cheaper than a
   * mapping), large ones are mapped (memory stays outside the heap and is paged in on demand).
   */
  private ByteBuffer load(long offset, int size) throws IOException {
    if (size > SMALL_BLOCK) {
      return channel.map(FileChannel.MapMode.READ_ONLY, offset, size);
    }
    if (small == null || small.capacity() < size) {
      small = ByteBuffer.allocate(Math.max(size, 4096));
    }
    ByteBuffer b = small.clear().limit(size);
    while (b.hasRemaining()) {
      if (channel.read(b, offset + b.position()) < 0) {
        throw new IOException("file shrank while being read");
      }
    }
    return b;
  }

  private boolean finish(State s, String why) {
    state = s;
    problem = why == null ? null : path.getFileName() + ": " + why;
    block = null;
    return false;
  }

  @Override
  public EventKind kind() {
    return kind;
  }

  @Override
  public long time() {
    return time;
  }

  @Override
  public int stream() {
    return stream;
  }

  @Override
  public long field(int index) {
    return fields[index];
  }

  public State state() {
    return state;
  }

  /** What was wrong, one line naming the file, or null. */
  public String problem() {
    return problem;
  }

  /** Events read so far. */
  public long eventCount() {
    return events;
  }

  /** Encoded bytes of the events read so far (block headers and padding excluded). */
  public long eventBytes() {
    return eventBytes;
  }

  /** The drop count kept live in the file header by the writer. */
  public long headerDropped() {
    return headerDropped;
  }

  public Path path() {
    return path;
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // read-only: nothing to lose
    }
  }
}
