package dev.weft.trace;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.util.zip.CRC32C;

/**
 * What lets a reader trust a written window's bytes (FORMAT.md, "Integrity"): the trailer that
 * seals a full window, and for the last window, never sealed, where its committed events end as the
 * closing writer records it. Apart from {@link StreamWriter} because both run once per window or
 * once per trace, never per event, and the writer's event path stays small without them.
 */
final class WindowSeal {
  private WindowSeal() {}

  /**
   * What the closing writer records of a stream's last window (a STREAM_END definition): the
   * window's file offset, the offset of the first byte after its committed events, their number,
   * and the CRC-32C of the window up to there.
   */
  record CommittedEnd(long blockOffset, long endOffset, long events, long crc) {}

  /**
   * Writes a finished window's trailer: its event count and the CRC-32C of everything before the
   * trailer, then the seal byte that makes them valid. Runs once per window, on the owner's thread
   * (about 0.1 ms for a 4 MiB window with the JDK's intrinsic CRC-32C).
   */
  static void seal(MappedByteBuffer w, long blockEvents) {
    int at = w.capacity() - TraceFiles.BLOCK_TRAILER_SIZE;
    CRC32C crc = new CRC32C();
    ByteBuffer covered = w.duplicate();
    covered.position(0).limit(at);
    crc.update(covered);
    w.putInt(at + 1, (int) Math.min(blockEvents, 0xFFFF_FFFFL));
    w.putInt(at + 5, (int) crc.getValue());
    VarHandle.storeStoreFence();
    w.put(at, (byte) TraceFiles.CODE_BLOCK_SEAL);
  }

  /**
   * Where the committed events end in {@code window}, an unsealed window at file offset {@code
   * offset}, found by walking its events as a reader would, with the CRC-32C of the window up to
   * there; null when the window has no block header. The window's owner may still be writing:
   * events committed later lie after the end found here.
   */
  static CommittedEnd committedEnd(MappedByteBuffer window, long offset) {
    ByteBuffer w = window.duplicate();
    int cap = w.capacity();
    int stop = cap - TraceFiles.BLOCK_TRAILER_SIZE;
    int q = TraceFiles.BLOCK_HEADER_SIZE;
    long n = 0;
    if ((w.get(0) & 0xFF) != TraceFiles.CODE_BLOCK) {
      return null;
    }
    while (q < stop) {
      int code = w.get(q) & 0xFF;
      VarHandle.acquireFence(); // the payload was stored before the code byte
      EventKind k = code == TraceFiles.CODE_END ? null : EventKind.ofCode(code);
      if (k == null) {
        break; // the end (0x00), or a block end the owner wrote while we looked
      }
      int r = q + 1;
      for (int f = -1; f < k.fieldCount() && r < stop; f++) {
        while (r < stop && w.get(r) < 0) {
          r++;
        }
        r++;
      }
      if (r > stop) {
        break;
      }
      q = r;
      n++;
    }
    CRC32C crc = new CRC32C();
    ByteBuffer covered = w.duplicate();
    covered.position(0).limit(q);
    crc.update(covered);
    return new CommittedEnd(offset, offset + q, n, crc.getValue());
  }
}
