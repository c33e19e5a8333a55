package dev.weft.trace;

import java.nio.ByteBuffer;

/** Unsigned LEB128 and zig-zag helpers for heap buffers (the definitions file and tests). */
final class Varint {
  private Varint() {}

  static void put(ByteBuffer b, long v) {
    while ((v & ~0x7FL) != 0) {
      b.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    b.put((byte) v);
  }

  static void putSigned(ByteBuffer b, long v) {
    put(b, (v << 1) ^ (v >> 63));
  }

  /**
   * Reads an unsigned varint; throws {@link java.nio.BufferUnderflowException} when the buffer ends
   * first.
   */
  static long get(ByteBuffer b) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte x = b.get();
      v |= (long) (x & 0x7F) << shift;
      if (x >= 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("varint longer than 10 bytes");
  }

  static long getSigned(ByteBuffer b) {
    long v = get(b);
    return (v >>> 1) ^ -(v & 1);
  }

  static int size(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }
}
