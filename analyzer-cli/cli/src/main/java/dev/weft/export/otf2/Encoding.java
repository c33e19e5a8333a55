package dev.weft.export.otf2;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * OTF2's byte encoding, written into a growable byte array. Numbers are little-endian (the files
 * say so in every chunk header). Most fields are <em>compressed</em>: 0 is the single byte 0, the
 * all-ones value ("undefined") is the single byte 0xFF, any other value is a byte count n (1–4 for
 * 32-bit, 1–8 for 64-bit fields) followed by the value's n low bytes. Strings are UTF-8 ending in a
 * zero byte. A record is its type byte, its data length (one byte below 255, else 0xFF and the
 * length as a full 64-bit number), and the data.
 */
final class Encoding {
  /** Fills the unused rest of a chunk. */
  static final int END_OF_CHUNK = 0;

  /** Ends the data of a file. */
  static final int END_OF_BUFFER = 1;

  /** Ends the anchor file's fields. */
  static final int END_OF_FILE = 2;

  /** Starts every chunk: this byte, the endianness byte, then (chunked files) event numbers. */
  static final int CHUNK_HEADER = 3;

  /** A timestamp record: this byte and the time as a full 64-bit number. */
  static final int TIMESTAMP = 5;

  /** The endianness byte of little-endian data. */
  static final int LITTLE_ENDIAN = 0x42;

  /** "Undefined" for 32-bit references (strings, regions, groups, system tree nodes). */
  static final long UNDEFINED_32 = 0xFFFF_FFFFL;

  private byte[] bytes = new byte[64];
  private int size;

  int size() {
    return size;
  }

  void clear() {
    size = 0;
  }

  /** Appends {@code other}'s bytes. */
  void append(Encoding other) {
    ensure(other.size);
    System.arraycopy(other.bytes, 0, bytes, size, other.size);
    size += other.size;
  }

  /** The bytes written so far (a copy). */
  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  /** The backing array: bytes [0, size()) are the data. */
  byte[] array() {
    return bytes;
  }

  Encoding u8(int v) {
    ensure(1);
    bytes[size++] = (byte) v;
    return this;
  }

  /** Appends {@code n} zero bytes. */
  Encoding zeros(int n) {
    ensure(n);
    Arrays.fill(bytes, size, size + n, (byte) 0);
    size += n;
    return this;
  }

  Encoding u32Full(long v) {
    return fixed(v, 4);
  }

  Encoding u64Full(long v) {
    return fixed(v, 8);
  }

  /** Overwrites the 8 bytes at {@code at} with {@code v}. */
  void patchU64(int at, long v) {
    for (int i = 0; i < 8; i++) {
      bytes[at + i] = (byte) (v >>> (8 * i));
    }
  }

  /** A compressed unsigned 32-bit number (the low 32 bits of {@code v}). */
  Encoding u32(long v) {
    v &= 0xFFFF_FFFFL;
    if (v == UNDEFINED_32) {
      return u8(0xFF);
    }
    return compressed(v);
  }

  /** A compressed unsigned 64-bit number; -1 is "undefined". */
  Encoding u64(long v) {
    if (v == -1L) {
      return u8(0xFF);
    }
    return compressed(v);
  }

  Encoding string(String s) {
    byte[] b = s.replace('\0', ' ').getBytes(StandardCharsets.UTF_8);
    ensure(b.length + 1);
    System.arraycopy(b, 0, bytes, size, b.length);
    size += b.length;
    bytes[size++] = 0;
    return this;
  }

  /** Appends a record: {@code type}, the length of {@code data}, then {@code data}. */
  Encoding record(int type, Encoding data) {
    u8(type);
    if (data.size < 255) {
      u8(data.size);
    } else {
      u8(0xFF);
      u64Full(data.size);
    }
    append(data);
    return this;
  }

  private Encoding compressed(long v) {
    if (v == 0) {
      return u8(0);
    }
    int n = (64 - Long.numberOfLeadingZeros(v) + 7) / 8;
    u8(n);
    return fixed(v, n);
  }

  private Encoding fixed(long v, int n) {
    ensure(n);
    for (int i = 0; i < n; i++) {
      bytes[size++] = (byte) (v >>> (8 * i));
    }
    return this;
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }
  }
}
