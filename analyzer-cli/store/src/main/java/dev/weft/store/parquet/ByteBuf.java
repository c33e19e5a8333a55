package dev.weft.store.parquet;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** A growable byte array written at its end: little-endian numbers and unsigned LEB128 varints. */
final class ByteBuf {
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  byte[] bytes;
  int size;

  ByteBuf(int capacity) {
    bytes = new byte[Math.max(16, capacity)];
  }

  /** Makes room for {@code more} bytes after the end. */
  void reserve(int more) {
    if (bytes.length - size < more) {
      long want = Math.max((long) bytes.length * 2, (long) size + more);
      if (want > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("a Parquet page or footer over 2 GB");
      }
      bytes = Arrays.copyOf(bytes, (int) want);
    }
  }

  void clear() {
    size = 0;
  }

  void write(int b) {
    reserve(1);
    bytes[size++] = (byte) b;
  }

  void write(byte[] b) {
    write(b, 0, b.length);
  }

  void write(byte[] b, int off, int len) {
    reserve(len);
    System.arraycopy(b, off, bytes, size, len);
    size += len;
  }

  void writeIntLe(int v) {
    reserve(4);
    INT_LE.set(bytes, size, v);
    size += 4;
  }

  /** Overwrites 4 bytes at {@code at} (a length written before what it measures). */
  void setIntLe(int at, int v) {
    INT_LE.set(bytes, at, v);
  }

  void writeLongLe(long v) {
    reserve(8);
    LONG_LE.set(bytes, size, v);
    size += 8;
  }

  /** An unsigned LEB128 varint. */
  void writeVarint(long v) {
    reserve(10);
    while ((v & ~0x7FL) != 0) {
      bytes[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    bytes[size++] = (byte) v;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }
}
