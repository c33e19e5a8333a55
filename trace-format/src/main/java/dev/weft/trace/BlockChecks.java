package dev.weft.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The whole-block integrity checks of one event file (FORMAT.md, "Integrity"): a sealed block
 * against its checksum, the stream's last, unsealed block against the end the closing writer
 * recorded (STREAM_END), each block's base time, and the zero bytes after the stream's valid end.
 * Apart from {@link StreamCursor} because they run once per block or once per file, never per
 * event, and read the file through a scratch buffer of their own, not the cursor's sliding one.
 */
final class BlockChecks {

  /**
   * Damage a check found.
   *
   * @param why one line naming the byte
   * @param lost events known to be lost with it, or -1 when unknown
   * @param resumeAt where salvage goes on (the next block), or -1 when it cannot
   */
  record Damage(String why, long lost, long resumeAt) {}

  /** Scratch space for checking a block's checksum before its events are read. */
  private static final ThreadLocal<byte[]> CHECK_BUFFER =
      ThreadLocal.withInitial(() -> new byte[64 * 1024]);

  private static final byte[] ZEROS = new byte[64 * 1024];

  private final FileChannel channel;
  private final long fileSize;

  /** The STREAM_END definition of this stream, or null. */
  private final Definitions.StreamEnd streamEnd;

  /** The stream's THREAD definition, whose time the first block's base time repeats, or null. */
  private final ThreadDef thread;

  private boolean streamEndBlockSeen;

  /** See {@link #lateStart()}. */
  private long lateStart = -1;

  /**
   * @param definitions the trace's definitions, or null to check the file's bytes only
   */
  BlockChecks(FileChannel channel, long fileSize, Definitions definitions, int stream) {
    this.channel = channel;
    this.fileSize = fileSize;
    this.streamEnd = definitions == null ? null : definitions.streamEnd(stream);
    this.thread = definitions == null ? null : definitions.thread(stream);
  }

  /**
   * Checks a 1.1 block before any of its events are read: a sealed block against its checksum, an
   * unsealed one (the stream's last, still being written) against the STREAM_END the closing writer
   * recorded. Null when neither finds damage.
   *
   * @param offset where the block starts
   * @param blockEnd where it ends (possibly past the file's end)
   * @param eventsEnd where its event bytes end: its trailer
   */
  Damage check(long offset, long blockEnd, long eventsEnd) throws IOException {
    lateStart = -1;
    if (streamEnd != null && !streamEndBlockSeen) {
      // Blocks follow one another without gaps up to the last one the close recorded: a block
      // that starts after it, or runs over its start, has a damaged length (its own or an
      // earlier block's).
      long last = streamEnd.blockOffset();
      if (offset > last || blockEnd > last && offset < last) {
        return new Damage(
            "block at byte "
                + offset
                + " ends at byte "
                + blockEnd
                + ", past the stream's last block at byte "
                + last,
            -1,
            offset < last ? last : -1);
      }
    }
    long trailerAt = eventsEnd;
    if (blockEnd <= fileSize) {
      int seal = byteAt(trailerAt);
      long count = u32At(trailerAt + 1);
      long stored = u32At(trailerAt + 5);
      if (seal == TraceFiles.CODE_BLOCK_SEAL) {
        if (crc(offset, trailerAt) != stored) {
          return new Damage(
              "block at byte " + offset + ": checksum mismatch (" + count + " events lost)",
              count,
              blockEnd);
        }
        if (streamEnd != null && streamEnd.blockOffset() == offset) {
          streamEndBlockSeen = true; // sealed after the close looked: its checksum covers it
        }
        return null;
      }
      if (seal != 0 || count != 0 || stored != 0) {
        return new Damage("block at byte " + offset + ": damaged trailer", -1, blockEnd);
      }
    }
    if (streamEnd != null && streamEnd.blockOffset() == offset) {
      streamEndBlockSeen = true;
      long end = streamEnd.endOffset();
      if (end < offset + TraceFiles.BLOCK_HEADER_SIZE || end > trailerAt) {
        return new Damage(
            "block at byte " + offset + ": recorded end " + end + " outside the block", -1, -1);
      }
      if (end > fileSize) {
        return null; // the file is cut inside the recorded part: a cut
      }
      lateStart = end;
      if (crc(offset, end) != streamEnd.crc()) {
        return new Damage(
            "block at byte "
                + offset
                + ": checksum mismatch ("
                + streamEnd.events()
                + " events lost)",
            streamEnd.events(),
            blockEnd);
      }
    }
    return null;
  }

  /**
   * Checks a block's base time: the time of the stream's previous event, {@code previous} (for the
   * first block, {@code first}: the time its THREAD definition gives). Null when it is.
   */
  Damage checkBase(long offset, long blockEnd, long base, boolean first, long previous) {
    long expected;
    if (first) {
      if (thread == null || thread.names().isEmpty()) {
        return null;
      }
      expected = thread.names().get(0).time();
    } else {
      expected = previous;
    }
    if (base != expected) {
      return new Damage(
          "block at byte "
              + offset
              + ": base time "
              + base
              + " where "
              + expected
              + " was expected",
          -1,
          blockEnd);
    }
    return null;
  }

  /**
   * Where events written after the close would start, when the block {@link #check} looked at last
   * holds the stream's recorded end inside the file; else -1.
   */
  long lateStart() {
    return lateStart;
  }

  /**
   * Checks what follows a block end marker at {@code at} in a block that runs past the file's end,
   * whose trailer therefore cannot be checked: a truncated file leaves only the block's zero
   * padding (and perhaps part of its trailer, at {@code eventsEnd}) after the marker; anything else
   * means the block's length is damaged and its events were read without a checksum. Null when only
   * zeros follow.
   */
  Damage checkOpenBlockEnd(long offset, long blockEnd, long eventsEnd, long at) throws IOException {
    long nonZero = firstNonZero(at + 1, Math.min(eventsEnd, fileSize));
    if (nonZero < 0) {
      return null;
    }
    return new Damage(
        "block at byte "
            + offset
            + " ends at byte "
            + blockEnd
            + ", past the file's end, but data follows its end marker (byte "
            + nonZero
            + ")",
        -1,
        -1);
  }

  /**
   * Checks the stream's valid end, a zero byte where an event or block would start at {@code at}.
   * Everything after it must be zero too (space allocated, never written), but for the payload of
   * an event a killed writer had not yet made valid: anything else means a range of the file was
   * zeroed and the events after it are lost. A stream the closing writer recorded an end for must
   * reach it. Null when both hold.
   */
  Damage checkEnd(long at) throws IOException {
    long nonZero = firstNonZero(at, fileSize);
    if (nonZero >= 0 && isEventBeingWritten(at, nonZero)) {
      nonZero = -1;
    }
    if (nonZero >= 0) {
      return new Damage(
          "zero bytes at " + at + " where an event should start, data again at " + nonZero, -1, -1);
    }
    if (streamEnd != null && !streamEndBlockSeen) {
      return new Damage(
          "stream ends at byte "
              + at
              + " before its recorded end ("
              + streamEnd.events()
              + " events in the block at byte "
              + streamEnd.blockOffset()
              + ")",
          streamEnd.events(),
          -1);
    }
    return null;
  }

  /**
   * Whether the non-zero bytes after the zero kind byte at {@code at} are the payload of one event
   * that was being written when the writer stopped (killed): a writer stores an event's payload
   * before its kind byte, so such bytes lie within one event's length and only zeros follow them.
   */
  private boolean isEventBeingWritten(long at, long nonZero) throws IOException {
    long eventEnd = at + StreamWriter.MAX_EVENT_BYTES;
    return nonZero < eventEnd && firstNonZero(eventEnd, fileSize) < 0;
  }

  /** Offset of the first non-zero byte in [from, to), or -1. */
  private long firstNonZero(long from, long to) throws IOException {
    byte[] b = CHECK_BUFFER.get();
    ByteBuffer w = ByteBuffer.wrap(b);
    for (long off = from; off < to; ) {
      w.clear().limit((int) Math.min(b.length, to - off));
      int n = channel.read(w, off);
      if (n <= 0) {
        return -1;
      }
      int i = Arrays.mismatch(b, 0, n, ZEROS, 0, n); // vectorised
      if (i >= 0) {
        return off + i;
      }
      off += n;
    }
    return -1;
  }

  /** CRC-32C of the file's bytes [from, to), or -1 when the file ends sooner. */
  private long crc(long from, long to) throws IOException {
    byte[] b = CHECK_BUFFER.get();
    ByteBuffer w = ByteBuffer.wrap(b);
    CRC32C crc = new CRC32C();
    for (long off = from; off < to; ) {
      w.clear().limit((int) Math.min(b.length, to - off));
      int n = channel.read(w, off);
      if (n <= 0) {
        return -1;
      }
      crc.update(b, 0, n);
      off += n;
    }
    return crc.getValue();
  }

  private int byteAt(long offset) throws IOException {
    ByteBuffer one = ByteBuffer.allocate(1);
    return channel.read(one, offset) == 1 ? one.get(0) & 0xFF : -1;
  }

  private long u32At(long offset) throws IOException {
    ByteBuffer four = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
    while (four.hasRemaining() && channel.read(four, offset + four.position()) > 0) {
      // read all four
    }
    return four.hasRemaining() ? -1 : Integer.toUnsignedLong(four.getInt(0));
  }
}
