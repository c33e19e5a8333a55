package dev.weft.trace;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Reads one thread's event file, block by block (one block mapped at a time, so memory does not grow
 * with the file). Finds the file's valid end itself: a zero byte where an event would start ends the
 * stream; a file that ends inside an event or a block is reported as {@link State#CUT}.
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

  private ByteBuffer block;
  private long blockStart;
  private long blockLength;
  private boolean blockTruncated;
  private boolean sawBlock;
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
    try {
      this.channel = FileChannel.open(path, StandardOpenOption.READ);
      this.fileSize = channel.size();
      ByteBuffer h = ByteBuffer.allocate(TraceFiles.EVENTS_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
      while (h.hasRemaining() && channel.read(h, h.position()) > 0) {}
      if (h.position() < TraceFiles.EVENTS_HEADER_SIZE) {
        close();
        throw new TraceFormatException(path + ": not a Weft event file (shorter than its header)");
      }
      h.flip();
      byte[] magic = new byte[8];
      h.get(magic);
      if (!Arrays.equals(magic, TraceFiles.EVENTS_MAGIC)) {
        close();
        throw new TraceFormatException(path + ": not a Weft event file (bad magic)");
      }
      int major = Short.toUnsignedInt(h.getShort());
      h.getShort();
      if (major != TraceFiles.VERSION_MAJOR) {
        close();
        throw new TraceFormatException(path + ": event format version " + major + " is not supported");
      }
      this.stream = h.getInt();
      if (stream != expectedStream) {
        close();
        throw new TraceFormatException(
            path + ": header says stream " + stream + " but the file name says " + expectedStream);
      }
      this.headerDropped = h.getLong();
    } catch (NoSuchFileException e) {
      throw new TraceFormatException(path + ": no such file");
    } catch (IOException e) {
      throw new TraceFormatException(path + ": cannot read: " + e.getMessage(), e);
    }
    this.blockStart = TraceFiles.EVENTS_HEADER_SIZE;
    this.blockLength = 0;
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
      // No bytes where a block would start: an empty stream, or one cut at a block boundary.
      return sawBlock
          ? finish(State.CUT, "file ends at a block boundary (byte " + offset + ")")
          : finish(State.COMPLETE, null);
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
      ByteBuffer h = ByteBuffer.allocate(TraceFiles.BLOCK_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
      while (h.hasRemaining() && channel.read(h, offset + h.position()) > 0) {}
      int code = h.get(0) & 0xFF;
      if (code == TraceFiles.CODE_END) {
        return finish(State.COMPLETE, null);
      }
      if (code != TraceFiles.CODE_BLOCK) {
        return finish(State.CORRUPT, "expected a block header at byte " + offset);
      }
      long length = Integer.toUnsignedLong(h.getInt(1));
      if (length < TraceFiles.BLOCK_HEADER_SIZE + 1) {
        return finish(State.CORRUPT, "block at byte " + offset + " has length " + length);
      }
      long base = h.getLong(5);
      long readable = Math.min(length, avail);
      MappedByteBuffer m = channel.map(FileChannel.MapMode.READ_ONLY, offset, readable);
      block = m;
      blockStart = offset;
      blockLength = length;
      blockTruncated = readable < length;
      sawBlock = true;
      p = TraceFiles.BLOCK_HEADER_SIZE;
      end = (int) readable;
      time = base;
      return true;
    } catch (IOException e) {
      return finish(State.CORRUPT, "cannot read: " + e.getMessage());
    }
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
