package dev.weft.store.parquet;

import java.nio.charset.StandardCharsets;

/**
 * Thrift's compact protocol, the encoding of Parquet's page headers and footer: each field a header
 * byte holding the id's delta from the previous field of the struct (or the type and a zigzag
 * varint id), integers as zigzag varints, binaries with a varint length, lists with a size and
 * element type header, a struct ended by a 0 byte. Only what the writer needs: no maps, sets,
 * doubles.
 */
final class CompactWriter {
  static final int BOOLEAN_TRUE = 1;
  static final int BOOLEAN_FALSE = 2;
  static final int I16 = 4;
  static final int I32 = 5;
  static final int I64 = 6;
  static final int BINARY = 8;
  static final int LIST = 9;
  static final int STRUCT = 12;

  private final ByteBuf out;
  private final int[] outer = new int[16];
  private int depth;
  private int lastId;

  CompactWriter(ByteBuf out) {
    this.out = out;
  }

  /** Starts a struct that is not a field: the message itself, or an element of a list. */
  CompactWriter beginStruct() {
    outer[depth++] = lastId;
    lastId = 0;
    return this;
  }

  /** Starts a struct field. */
  CompactWriter beginStruct(int id) {
    header(id, STRUCT);
    return beginStruct();
  }

  CompactWriter endStruct() {
    out.write(0);
    lastId = outer[--depth];
    return this;
  }

  CompactWriter i16(int id, short v) {
    header(id, I16);
    out.writeVarint(zigzag(v) & 0xFFFFFFFFL);
    return this;
  }

  CompactWriter i32(int id, int v) {
    header(id, I32);
    out.writeVarint(zigzag(v) & 0xFFFFFFFFL);
    return this;
  }

  CompactWriter i64(int id, long v) {
    header(id, I64);
    out.writeVarint(zigzag(v));
    return this;
  }

  CompactWriter bool(int id, boolean v) {
    header(id, v ? BOOLEAN_TRUE : BOOLEAN_FALSE);
    return this;
  }

  CompactWriter binary(int id, byte[] v) {
    header(id, BINARY);
    return binary(v);
  }

  CompactWriter string(int id, String v) {
    return binary(id, v.getBytes(StandardCharsets.UTF_8));
  }

  /** Starts a list field; its {@code size} elements follow. */
  CompactWriter list(int id, int elementType, int size) {
    header(id, LIST);
    if (size < 15) {
      out.write(size << 4 | elementType);
    } else {
      out.write(0xF0 | elementType);
      out.writeVarint(size);
    }
    return this;
  }

  /** An i32 (or enum) element of a list. */
  CompactWriter i32(int v) {
    out.writeVarint(zigzag(v) & 0xFFFFFFFFL);
    return this;
  }

  /** A binary element of a list. */
  CompactWriter binary(byte[] v) {
    out.writeVarint(v.length);
    out.write(v);
    return this;
  }

  /** A string element of a list. */
  CompactWriter string(String v) {
    return binary(v.getBytes(StandardCharsets.UTF_8));
  }

  private void header(int id, int type) {
    int delta = id - lastId;
    if (delta > 0 && delta <= 15) {
      out.write(delta << 4 | type);
    } else {
      out.write(type);
      out.writeVarint(zigzag(id) & 0xFFFFFFFFL);
    }
    lastId = id;
  }

  static int zigzag(int v) {
    return (v << 1) ^ (v >> 31);
  }

  static long zigzag(long v) {
    return (v << 1) ^ (v >> 63);
  }
}
