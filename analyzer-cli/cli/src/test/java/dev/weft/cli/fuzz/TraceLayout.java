package dev.weft.cli.fuzz;

import dev.weft.trace.EventKind;
import dev.weft.trace.TraceFiles;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where things are in the files of a trace of format 1.0 (FORMAT.md), independently of the reader
 * under test: the blocks and events of an event file with the offset of every varint, and the
 * records of a definitions file with the offsets of their varints. The fuzz test uses it to aim
 * mutations (a field of an event, a THREAD record) and to splice a varint of another length into a
 * file while keeping the enclosing block or record length right.
 *
 * <p>A file of another version, or bytes that are not what 1.0 says, end the parse early; what was
 * found so far is kept, so mutations still land somewhere sensible in a file of a later minor
 * version.
 */
final class TraceLayout {
  static final int DEFS_HEADER = 16;
  static final int EVENTS_HEADER = 32;
  static final int BLOCK_HEADER = 13;
  static final int DEF_STRING = 0x01;
  static final int DEF_THREAD = 0x05;

  private TraceLayout() {}

  /** A block: its offset and its length field's value. */
  record Block(int start, int length) {}

  /**
   * An event: its offset, kind, and the offsets of its varints (index 0 the delta, then the
   * fields).
   */
  record Event(int offset, EventKind kind, int[] varints) {}

  /**
   * An event file: major and minor version, blocks, events, and {@code end}: the offset of the
   * stream's end marker, or where the parse stopped (so {@code [0, end]} holds every written byte).
   */
  record EventFile(int major, int minor, List<Block> blocks, List<Event> events, int end) {
    /** The {@code n}-th event of this kind, or null. */
    Event event(EventKind kind, int n) {
      for (Event e : events) {
        if (e.kind() == kind && n-- == 0) {
          return e;
        }
      }
      return null;
    }
  }

  /**
   * A definitions record: its offset, type, the offsets of its length varint and payload, the
   * payload's length, and the offsets of the payload's varints (for STRING: id and byte length).
   */
  record Record(
      int offset,
      int type,
      int lengthOffset,
      int payloadOffset,
      int payloadLength,
      int[] varints) {}

  /** Parses an event file (any bytes: a parse that meets something unexpected stops there). */
  static EventFile events(byte[] b) {
    List<Block> blocks = new ArrayList<>();
    List<Event> events = new ArrayList<>();
    if (b.length < EVENTS_HEADER
        || !Arrays.equals(Arrays.copyOf(b, 8), "WEFTEVTS".getBytes(StandardCharsets.US_ASCII))) {
      return new EventFile(-1, -1, blocks, events, lastNonZero(b) + 1);
    }
    int major = u16(b, 8);
    int minor = u16(b, 10);
    if (major != 1 || minor > TraceFiles.VERSION_MINOR) {
      return new EventFile(major, minor, blocks, events, Math.min(b.length, lastNonZero(b) + 1));
    }
    int pos = EVENTS_HEADER;
    int end = -1;
    outer:
    while (pos < b.length) {
      int c = b[pos] & 0xFF;
      if (c == 0) {
        end = pos;
        break;
      }
      if (c != 0xB0 || pos + BLOCK_HEADER > b.length) {
        break;
      }
      long length = u32(b, pos + 1);
      if (length < BLOCK_HEADER + 1 || length > Integer.MAX_VALUE) {
        break;
      }
      blocks.add(new Block(pos, (int) length));
      // Since 1.1 a block's last 9 bytes are its trailer (seal, count, checksum): no events there.
      int trailer = minor >= 1 ? 9 : 0;
      int limit = (int) Math.min(b.length, pos + length - trailer);
      int p = pos + BLOCK_HEADER;
      while (true) {
        if (p >= limit) {
          break outer;
        }
        int code = b[p] & 0xFF;
        if (code == 0xBF) {
          pos = (int) (pos + length);
          continue outer;
        }
        if (code == 0) {
          end = p;
          break outer;
        }
        EventKind kind = EventKind.ofCode(code);
        if (kind == null) {
          break outer;
        }
        int[] varints = new int[1 + kind.fieldCount()];
        int q = p + 1;
        for (int i = 0; i < varints.length; i++) {
          int n = varintLength(b, q, limit);
          if (n < 0) {
            break outer;
          }
          varints[i] = q;
          q += n;
        }
        events.add(new Event(p, kind, varints));
        p = q;
      }
    }
    if (end < 0) {
      end = Math.min(b.length, Math.max(pos, lastNonZero(b) + 1));
    }
    return new EventFile(major, minor, blocks, events, end);
  }

  /** Parses a definitions file's records, up to the first one that does not fit. */
  static List<Record> defs(byte[] b) {
    List<Record> records = new ArrayList<>();
    int pos = DEFS_HEADER;
    while (pos < b.length) {
      int type = b[pos] & 0xFF;
      int n = varintLength(b, pos + 1, b.length);
      if (n < 0) {
        break;
      }
      long length = varint(b, pos + 1);
      int payload = pos + 1 + n;
      if (length < 0 || payload + length > b.length) {
        break;
      }
      int end = (int) (payload + length);
      // Since 1.1 a record's payload ends with a 4-byte checksum: not a field.
      int fieldsEnd = u16(b, 10) >= 1 ? Math.max(payload, end - 4) : end;
      List<Integer> varints = new ArrayList<>();
      int q = payload;
      while (q < fieldsEnd && (type != DEF_STRING || varints.size() < 2)) {
        int m = varintLength(b, q, fieldsEnd);
        if (m < 0) {
          break;
        }
        varints.add(q);
        q += m;
      }
      records.add(
          new Record(
              pos,
              type,
              pos + 1,
              payload,
              (int) length,
              varints.stream().mapToInt(Integer::intValue).toArray()));
      pos = end;
    }
    return records;
  }

  /** The {@code n}-th record of a type, or null. */
  static Record record(List<Record> records, int type, int n) {
    for (Record r : records) {
      if (r.type() == type && n-- == 0) {
        return r;
      }
    }
    return null;
  }

  /**
   * {@code b} with the varint at {@code offset} replaced by the varint of {@code value}, and the
   * length of the block (event file) or record (definitions) that holds it grown or shrunk to
   * match, so that everything after it still parses as before.
   */
  static byte[] spliceVarint(byte[] b, int offset, long value, boolean definitions) {
    int old = varintLength(b, offset, b.length);
    if (old < 0) {
      old = 1;
    }
    byte[] enc = encode(value);
    int delta = enc.length - old;
    byte[] out = splice(b, offset, old, enc);
    if (definitions) {
      for (Record r : defs(b)) {
        if (offset >= r.payloadOffset() && offset < r.payloadOffset() + r.payloadLength()) {
          int lengthBytes = varintLength(b, r.lengthOffset(), b.length);
          return splice(out, r.lengthOffset(), lengthBytes, encode(r.payloadLength() + delta));
        }
      }
    } else {
      for (Block k : events(b).blocks()) {
        if (offset >= k.start() + BLOCK_HEADER && offset < k.start() + k.length()) {
          putU32(out, k.start() + 1, k.length() + delta);
          break;
        }
      }
    }
    return out;
  }

  static byte[] splice(byte[] b, int offset, int remove, byte[] insert) {
    byte[] out = new byte[b.length - remove + insert.length];
    System.arraycopy(b, 0, out, 0, offset);
    System.arraycopy(insert, 0, out, offset, insert.length);
    System.arraycopy(b, offset + remove, out, offset + insert.length, b.length - offset - remove);
    return out;
  }

  /** Unsigned LEB128 of {@code v} (as unsigned 64 bits: -1 is 2^64 - 1, ten bytes). */
  static byte[] encode(long v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
    return out.toByteArray();
  }

  /** The length of the varint at {@code p}, or -1 when it is longer than 10 bytes or passes end. */
  static int varintLength(byte[] b, int p, int end) {
    for (int i = 0; i < 10; i++) {
      if (p + i >= end) {
        return -1;
      }
      if ((b[p + i] & 0x80) == 0) {
        return i + 1;
      }
    }
    return -1;
  }

  static long varint(byte[] b, int p) {
    long v = 0;
    for (int i = 0; i < 10 && p + i < b.length; i++) {
      v |= (long) (b[p + i] & 0x7F) << (7 * i);
      if ((b[p + i] & 0x80) == 0) {
        break;
      }
    }
    return v;
  }

  static int lastNonZero(byte[] b) {
    int i = b.length - 1;
    while (i >= 0 && b[i] == 0) {
      i--;
    }
    return i;
  }

  private static int u16(byte[] b, int p) {
    return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8;
  }

  private static long u32(byte[] b, int p) {
    return (b[p] & 0xFFL)
        | (b[p + 1] & 0xFFL) << 8
        | (b[p + 2] & 0xFFL) << 16
        | (b[p + 3] & 0xFFL) << 24;
  }

  private static void putU32(byte[] b, int p, long v) {
    for (int i = 0; i < 4; i++) {
      b[p + i] = (byte) (v >>> (8 * i));
    }
  }
}
