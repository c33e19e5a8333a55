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
 * Reads one thread's event file through a small heap buffer that slides along the file, so memory
 * does not grow with the file (32 KiB per stream). Finds the file's valid end itself: a zero byte
 * where an event or a block would start ends the stream ({@link State#COMPLETE}); a file that ends
 * before such a byte is {@link State#CUT}; bytes that cannot be events are {@link State#CORRUPT}.
 * Reading never throws once the cursor exists: whatever was read before the end is a prefix of what
 * was written.
 */
public final class StreamCursor implements EventCursor, Closeable {

  /** Why a stream ended (or that it has not yet). */
  public enum State {
    READING,
    /** Reached a zero byte where the next event or block would start: every event was read. */
    COMPLETE,
    /** The file ends before the stream's valid end: the file was truncated or is being copied. */
    CUT,
    /** Bytes that are not format v1 events; reading stopped there. See {@link #problem()}. */
    CORRUPT
  }

  /** Bytes of file held at a time. */
  static final int BUFFER_SIZE = 32 * 1024;

  private static final int MAX_EVENT = StreamWriter.MAX_EVENT_BYTES;

  private final Path path;
  private final int stream;
  private final FileChannel channel;
  private final long fileSize;
  private final long headerDropped;

  private final byte[] buf = new byte[BUFFER_SIZE];
  private final ByteBuffer wrapper = ByteBuffer.wrap(buf);

  /** File offset of {@code buf[0]}. */
  private long bufOffset;

  private int bufLength;

  /** Index in {@code buf} of the next event (or block end marker). */
  private int p;

  private boolean inBlock;
  private long blockEnd;

  /** Where the current block's bytes end in this file: its end, or the file's end if sooner. */
  private long readableEnd;

  /**
   * Events starting before this index in {@code buf} lie wholly inside the buffer and the current
   * block's readable bytes, even if malformed ({@code MAX_EVENT} bytes follow, more than decoding
   * one event reads): {@link #next()} decodes them without checking for the end of either. 0 when
   * there is no such stretch (no block open, or reading has stopped).
   */
  private int fastEnd;

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
    // The common case first: an event well inside the buffer and the block, decoded without end
    // checks. Anything else (a block boundary, a refill, the stream's end, a number of 10 bytes)
    // goes the careful way, which also decodes events and says why reading stops.
    int q = p;
    if (q < fastEnd) {
      EventKind k = EventKind.ofCode(buf[q++]);
      if (k != null) {
        byte[] b = buf;
        // Each number is one loop, its first byte included: a loop whose exit is seen both ways
        // (one-byte and longer numbers are both common) stays compiled when longer numbers first
        // turn up late in a trace, where a separate path for them would be recompiled then.
        long delta = 0;
        for (int shift = 0; ; shift += 7) {
          byte x = b[q++];
          delta |= (long) (x & 0x7F) << shift;
          if (x >= 0) {
            break;
          }
          if (shift == 56) {
            return nextCarefully();
          }
        }
        for (int f = 0, n = k.fieldCount(); f < n; f++) {
          long v = 0;
          for (int shift = 0; ; shift += 7) {
            byte x = b[q++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
              break;
            }
            if (shift == 56) {
              return nextCarefully();
            }
          }
          fields[f] = v;
        }
        kind = k;
        time += delta;
        eventBytes += q - p;
        p = q;
        events++;
        return true;
      }
    }
    return nextCarefully();
  }

  private boolean nextCarefully() {
    if (state != State.READING) {
      return false;
    }
    try {
      return advance();
    } catch (IOException | RuntimeException e) {
      return finish(State.CORRUPT, "cannot read at byte " + (bufOffset + p) + ": " + e);
    }
  }

  private boolean advance() throws IOException {
    for (; ; ) {
      if (!inBlock) {
        if (!openBlock(TraceFiles.EVENTS_HEADER_SIZE)) {
          return false;
        }
        continue;
      }
      long at = bufOffset + p;
      long left = readableEnd - at;
      if (left <= 0) {
        if (readableEnd < blockEnd) {
          return finish(State.CUT, "file ends inside a block at byte " + at);
        }
        // A block without an end marker (a writer always leaves one): go on with the next block.
        if (!openBlock(blockEnd)) {
          return false;
        }
        continue;
      }
      if (bufLength - p < Math.min(left, MAX_EVENT)) {
        refill();
      }
      int limit = p + (int) Math.min(left, bufLength - p);
      int code = buf[p] & 0xFF;
      if (code == TraceFiles.CODE_END) {
        return finish(State.COMPLETE, null);
      }
      if (code == TraceFiles.CODE_BLOCK_END) {
        if (!openBlock(blockEnd)) {
          return false;
        }
        continue;
      }
      EventKind k = EventKind.ofCode(code);
      if (k == null) {
        return finish(
            State.CORRUPT, "unknown event code 0x" + Integer.toHexString(code) + " at byte " + at);
      }
      int q = p + 1;
      long delta = 0;
      int n = k.fieldCount();
      // The time delta, then the fields. A number running past the readable bytes means the file
      // was cut there, or (inside a complete block) that the bytes are not events.
      for (int f = -1; f < n; f++) {
        if (q >= limit) {
          return runsPast(at);
        }
        byte x = buf[q++];
        long v = x;
        if (x < 0) {
          v &= 0x7F;
          for (int shift = 7; ; shift += 7) {
            if (q >= limit) {
              return runsPast(at);
            }
            x = buf[q++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
              break;
            }
            if (shift >= 63) {
              return finish(State.CORRUPT, "malformed number at byte " + (bufOffset + q));
            }
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
      eventBytes += q - p;
      p = q;
      events++;
      return true;
    }
  }

  private boolean runsPast(long at) {
    return readableEnd < blockEnd
        ? finish(State.CUT, "file ends inside an event at byte " + at)
        : finish(State.CORRUPT, "event runs past its block at byte " + at);
  }

  /** Reads the block header at {@code offset}; false (with the state set) when there is none. */
  private boolean openBlock(long offset) throws IOException {
    inBlock = false;
    fastEnd = 0;
    if (offset >= fileSize) {
      // A writer always leaves a zero byte (or a whole block) where the next block would start.
      return finish(State.CUT, "file ends where a block would start (byte " + offset + ")");
    }
    long avail = fileSize - offset;
    int need = (int) Math.min(TraceFiles.BLOCK_HEADER_SIZE, avail);
    if (offset < bufOffset || offset + need > bufOffset + bufLength) {
      bufOffset = offset;
      bufLength = 0;
      p = 0;
      refill();
      if (bufLength < need) {
        return finish(State.CUT, "file shrank while being read (byte " + offset + ")");
      }
    } else {
      p = (int) (offset - bufOffset);
    }
    int code = buf[p] & 0xFF;
    if (code == TraceFiles.CODE_END) {
      return finish(State.COMPLETE, null);
    }
    if (avail < TraceFiles.BLOCK_HEADER_SIZE) {
      return finish(State.CUT, "file ends inside a block header at byte " + offset);
    }
    if (code != TraceFiles.CODE_BLOCK) {
      return finish(State.CORRUPT, "expected a block header at byte " + offset);
    }
    long length = Integer.toUnsignedLong(intAt(p + 1));
    if (length < TraceFiles.BLOCK_HEADER_SIZE + 1 || length > Integer.MAX_VALUE) {
      return finish(State.CORRUPT, "block at byte " + offset + " has length " + length);
    }
    time = (Integer.toUnsignedLong(intAt(p + 5))) | ((long) intAt(p + 9) << 32);
    blockEnd = offset + length;
    readableEnd = Math.min(blockEnd, fileSize);
    p += TraceFiles.BLOCK_HEADER_SIZE;
    inBlock = true;
    updateFastEnd();
    return true;
  }

  /** Recomputes {@link #fastEnd} after the buffer or the block changed. */
  private void updateFastEnd() {
    long readable = Math.min(bufLength, readableEnd - bufOffset);
    fastEnd = inBlock && state == State.READING ? (int) Math.max(0, readable - MAX_EVENT) : 0;
  }

  private int intAt(int i) {
    return (buf[i] & 0xFF)
        | (buf[i + 1] & 0xFF) << 8
        | (buf[i + 2] & 0xFF) << 16
        | (buf[i + 3] & 0xFF) << 24;
  }

  /** Keeps the unread bytes, moved to the start of the buffer, and reads as many more as fit. */
  private void refill() throws IOException {
    int keep = bufLength - p;
    System.arraycopy(buf, p, buf, 0, keep);
    bufOffset += p;
    p = 0;
    bufLength = keep;
    while (bufLength < buf.length) {
      wrapper.limit(buf.length).position(bufLength);
      int n = channel.read(wrapper, bufOffset + bufLength);
      if (n <= 0) {
        break;
      }
      bufLength += n;
    }
    updateFastEnd();
  }

  private boolean finish(State s, String why) {
    fastEnd = 0;
    state = s;
    problem = why == null ? null : path.getFileName() + ": " + why;
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
