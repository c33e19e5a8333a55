package dev.weft.trace;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

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
  private final Checks checks;

  /** Whether {@link #valid} runs: per-event checks against the definitions. */
  private final boolean checkEvents;

  /** The per-event checks when {@link #checkEvents}, else null. */
  private final EventChecks eventChecks;

  /** Format minor version of this file: 1.1 and later have block trailers and a trace id. */
  private int minor;

  /** Checks of whole blocks and of the stream's end. */
  private final BlockChecks blockChecks;

  /** The time delta of the event read last. */
  private long lastDelta;

  /** End of the current block's event bytes: before its trailer (1.1), else its end. */
  private long eventsEnd;

  private boolean firstBlock = true;

  /** Damage skipped over (salvage only; otherwise the first damage ends the stream). */
  private final DamageLog damage;

  // Not final: let go of by release() once the stream is read (a trace may hold many thousands).
  private byte[] buf = new byte[BUFFER_SIZE];
  private ByteBuffer wrapper = ByteBuffer.wrap(buf);

  /** File offset of {@code buf[0]}. */
  private long bufOffset;

  private int bufLength;

  /** Index in {@code buf} of the next event (or block end marker). */
  private int p;

  private boolean inBlock;
  private long blockStart;
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

  /**
   * What a cursor checks beyond the bytes themselves, from the trace it belongs to.
   *
   * @param definitions regions that events may name, the stream's STREAM_END and start time; null
   *     to check nothing against definitions
   * @param traceId the id every event file's header must repeat; 0 for none
   * @param salvage skip damaged blocks and events, counting them, instead of stopping there
   * @param semantics check that every region an event names is defined and that nothing follows a
   *     thread_end
   */
  record Checks(Definitions definitions, long traceId, boolean salvage, boolean semantics) {
    static final Checks NONE = new Checks(null, 0, false, false);
  }

  StreamCursor(Path path, int expectedStream) {
    this(path, expectedStream, Checks.NONE);
  }

  StreamCursor(Path path, int expectedStream, Checks checks) {
    this.path = path;
    this.stream = expectedStream;
    this.checks = checks;
    this.damage = new DamageLog(path);
    this.checkEvents = checks.definitions() != null && checks.semantics();
    this.eventChecks = checkEvents ? new EventChecks(checks.definitions()) : null;
    try {
      this.channel = FileChannel.open(path, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      throw new TraceFormatException(path + ": no such file");
    } catch (IOException e) {
      throw new TraceFormatException(path + ": cannot read: " + e.getMessage(), e);
    }
    try {
      this.fileSize = channel.size();
      this.blockChecks = new BlockChecks(channel, fileSize, checks.definitions(), expectedStream);
      Definitions defs = checks.definitions();
      EventFileHeader h =
          EventFileHeader.read(
              path,
              channel,
              expectedStream,
              checks.traceId(),
              defs == null ? -1 : defs.versionMinor());
      if (h == null) {
        this.headerDropped = 0;
        finish(State.CUT, "file ends inside its header (" + fileSize + " bytes)");
      } else {
        this.minor = h.minor();
        long live = h.dropped();
        if (defs != null && defs.closedCleanly() && minor >= 1) {
          // The live counter has no checksum; at a clean close the DROPS record (which has one)
          // says the same, and it is what counts. A counter below it was changed.
          long recorded = defs.drops().getOrDefault(expectedStream, 0L);
          if (live < recorded) {
            damaged(
                "drop counter " + live + " in the header is below the DROPS record's " + recorded,
                -1,
                -1);
          }
          live = recorded;
        }
        this.headerDropped = live;
      }
    } catch (IOException e) {
      close();
      throw new TraceFormatException(path + ": cannot read: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
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
        lastDelta = delta;
        eventBytes += q - p;
        int at = p;
        p = q;
        events++;
        return !checkEvents || valid(at) || nextCarefully();
      }
    }
    return nextCarefully();
  }

  /**
   * Checks the event just read, which started at {@code buf[at]} ({@link EventChecks}). False (with
   * the damage recorded, and in salvage mode the event skipped) when it fails.
   */
  private boolean valid(int at) {
    String wrong = eventChecks.check(kind, fields, bufOffset + at, lastDelta);
    return wrong == null || damagedEvent(at, wrong);
  }

  private boolean damagedEvent(int at, String why) {
    String where = "event at byte " + (bufOffset + at) + ": " + why;
    events--;
    if (!checks.salvage()) {
      return finish(State.CORRUPT, where);
    }
    damage.add(where, 1);
    return false;
  }

  private boolean nextCarefully() {
    while (state == State.READING) {
      int at = p;
      try {
        if (!advance()) {
          return false;
        }
      } catch (IOException | RuntimeException e) {
        return finish(State.CORRUPT, "cannot read at byte " + (bufOffset + p) + ": " + e);
      }
      if (!checkEvents || valid(p - lastEventLength)) {
        return true;
      }
      // A damaged event skipped in salvage mode: read on.
    }
    return false;
  }

  /** Encoded length of the event {@link #advance()} decoded last. */
  private int lastEventLength;

  private boolean advance() throws IOException {
    for (; ; ) {
      if (state != State.READING) {
        return false;
      }
      if (resumeAt >= 0) {
        // Salvage: go on after a damaged block.
        long r = resumeAt;
        resumeAt = -1;
        resumed = true;
        openBlock(r);
        continue;
      }
      if (!inBlock) {
        openBlock(TraceFiles.EVENTS_HEADER_SIZE);
        continue;
      }
      long at = bufOffset + p;
      long left = readableEnd - at;
      if (left <= 0) {
        if (readableEnd < eventsEnd) {
          return finish(State.CUT, "file ends inside a block at byte " + at);
        }
        // A block without an end marker (a writer always leaves one): go on with the next block.
        openBlock(blockEnd);
        continue;
      }
      if (bufLength - p < Math.min(left, MAX_EVENT)) {
        refill();
      }
      int limit = p + (int) Math.min(left, bufLength - p);
      int code = buf[p] & 0xFF;
      if (code == TraceFiles.CODE_END) {
        return endOfStream(at);
      }
      if (code == TraceFiles.CODE_BLOCK_END) {
        if (blockEnd > fileSize && minor >= 1) {
          BlockChecks.Damage d = blockChecks.checkOpenBlockEnd(blockStart, blockEnd, eventsEnd, at);
          if (d != null) {
            damaged(d.why(), d.lost(), d.resumeAt());
            continue;
          }
        }
        openBlock(blockEnd);
        continue;
      }
      EventKind k = EventKind.ofCode(code);
      if (k == null) {
        damaged(
            "unknown event code 0x" + Integer.toHexString(code) + " at byte " + at, -1, blockEnd);
        continue;
      }
      int q = decode(k, p + 1, limit);
      if (q == RUNS_PAST) {
        if (readableEnd < eventsEnd) {
          return finish(State.CUT, "file ends inside an event at byte " + at);
        }
        damaged("event runs past its block at byte " + at, -1, blockEnd);
        continue;
      }
      if (q == MALFORMED) {
        damaged("malformed number in the event at byte " + at, -1, blockEnd);
        continue;
      }
      long delta = decodedDelta;
      if (time + delta < time && delta > 0 || delta < 0) {
        damaged("time of the event at byte " + at + " wraps around", -1, blockEnd);
        continue;
      }
      kind = k;
      time += delta;
      lastDelta = delta;
      eventBytes += q - p;
      lastEventLength = q - p;
      p = q;
      events++;
      return true;
    }
  }

  private static final int RUNS_PAST = -1;
  private static final int MALFORMED = -2;

  /** The time delta of the event {@link #decode} read last. */
  private long decodedDelta;

  /**
   * Decodes an event's delta (into {@link #decodedDelta}) and fields (into {@link #fields}) from
   * {@code buf[q]} on, reading no further than {@code limit}. Returns the index after the event,
   * {@link #RUNS_PAST} when it runs past {@code limit}, or {@link #MALFORMED} for a number longer
   * than ten bytes.
   */
  private int decode(EventKind k, int q, int limit) {
    for (int f = -1, n = k.fieldCount(); f < n; f++) {
      long v = 0;
      for (int shift = 0; ; shift += 7) {
        if (q >= limit) {
          return RUNS_PAST;
        }
        byte x = buf[q++];
        v |= (long) (x & 0x7F) << shift;
        if (x >= 0) {
          break;
        }
        if (shift >= 63) {
          return MALFORMED;
        }
      }
      if (f < 0) {
        decodedDelta = v;
      } else {
        fields[f] = v;
      }
    }
    return q;
  }

  /**
   * The stream's valid end, a zero byte where an event would start: complete, unless what follows
   * it or the end the closing writer recorded says otherwise ({@link BlockChecks#checkEnd}).
   */
  private boolean endOfStream(long at) throws IOException {
    if (minor >= 1 || checks.definitions() != null) {
      BlockChecks.Damage d = blockChecks.checkEnd(at);
      if (d != null) {
        return damaged(d.why(), d.lost(), d.resumeAt());
      }
    }
    return finish(State.COMPLETE, null);
  }

  /** Salvage: the block to go on with after damage, or -1. */
  private long resumeAt = -1;

  /** Salvage: the block being opened follows a damaged one, so its base time cannot be checked. */
  private boolean resumed;

  /**
   * Records damage at the current point. Without salvage, reading stops (CORRUPT). With salvage,
   * the damage is counted and {@link #advance()} goes on with the block at {@code resumeAt} when
   * there is one (≥ 0), else reading stops. Always false.
   */
  private boolean damaged(String why, long lost, long resumeAt) {
    if (!checks.salvage()) {
      return finish(State.CORRUPT, why);
    }
    damage.add(why, lost);
    inBlock = false;
    fastEnd = 0;
    if (resumeAt < 0 || resumeAt >= fileSize) {
      state = State.CORRUPT;
      problem = path.getFileName() + ": " + why;
      return false;
    }
    this.resumeAt = resumeAt;
    return false;
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
      return endOfStream(offset);
    }
    if (avail < TraceFiles.BLOCK_HEADER_SIZE) {
      return finish(State.CUT, "file ends inside a block header at byte " + offset);
    }
    if (code != TraceFiles.CODE_BLOCK) {
      return damaged("expected a block header at byte " + offset, -1, -1);
    }
    long length = Integer.toUnsignedLong(intAt(p + 1));
    int trailer = minor >= 1 ? TraceFiles.BLOCK_TRAILER_SIZE : 0;
    if (length < TraceFiles.BLOCK_HEADER_SIZE + 1 + trailer || length > Integer.MAX_VALUE) {
      return damaged("block at byte " + offset + " has length " + length, -1, -1);
    }
    long base = (Integer.toUnsignedLong(intAt(p + 5))) | ((long) intAt(p + 9) << 32);
    blockStart = offset;
    blockEnd = offset + length;
    eventsEnd = blockEnd - trailer;
    readableEnd = Math.min(eventsEnd, fileSize);
    if (minor >= 1 && !checkBlock(offset, base)) {
      return state == State.READING && inBlock; // salvage went on with a later block, or stopped
    }
    time = base;
    firstBlock = false;
    p = (int) (offset - bufOffset) + TraceFiles.BLOCK_HEADER_SIZE;
    inBlock = true;
    updateFastEnd();
    return true;
  }

  /**
   * Checks a 1.1 block before any of its events are read: its bytes, then its base time ({@link
   * BlockChecks}). False when it is damaged (the damage is recorded; in salvage mode reading went
   * on with the next block).
   */
  private boolean checkBlock(long offset, long base) throws IOException {
    BlockChecks.Damage d = blockChecks.check(offset, blockEnd, eventsEnd);
    if (blockChecks.lateStart() >= 0 && checkEvents) {
      eventChecks.lateEventsFrom(blockChecks.lateStart(), blockEnd);
    }
    if (d == null) {
      if (resumed) {
        resumed = false; // it follows damage: the time of the event before it is unknown
      } else {
        d = blockChecks.checkBase(offset, blockEnd, base, firstBlock, time);
      }
    }
    return d == null || damaged(d.why(), d.lost(), d.resumeAt());
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

  /**
   * Damage found so far, one line each naming the file and byte: with salvage, every damaged block
   * or event skipped; without, at most the one that stopped reading (also {@link #problem()}).
   */
  public List<String> damage() {
    return damage.lines(state == State.CORRUPT ? problem : null);
  }

  /** Events known to be lost to damage (salvage mode), or -1 when some losses are uncounted. */
  public long lostEvents() {
    return damage.lostEvents();
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

  /**
   * Called by a merge once this cursor has no more events: closes the file and lets go of the
   * buffer, so that reading a trace of many short-lived threads holds a file and a buffer per
   * stream still being read, not per stream. What reading found (state, counts) stays.
   */
  void release() {
    close();
    buf = new byte[0];
    wrapper = ByteBuffer.wrap(buf);
    bufLength = 0;
    p = 0;
    fastEnd = 0;
  }
}
