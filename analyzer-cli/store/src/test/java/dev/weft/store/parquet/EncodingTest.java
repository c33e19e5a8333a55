package dev.weft.store.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The byte-level encoders against byte sequences of the Thrift and Parquet specifications. */
class EncodingTest {
  @Test
  void varintsAreLeb128() {
    assertArrayEquals(bytes(0x00), varint(0));
    assertArrayEquals(bytes(0x7F), varint(127));
    assertArrayEquals(bytes(0x80, 0x01), varint(128));
    assertArrayEquals(bytes(0xAC, 0x02), varint(300));
    assertArrayEquals(
        bytes(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01), varint(-1L));
  }

  @Test
  void zigzagInterleavesSigns() {
    assertEquals(0, CompactWriter.zigzag(0));
    assertEquals(1, CompactWriter.zigzag(-1));
    assertEquals(2, CompactWriter.zigzag(1));
    assertEquals(3, CompactWriter.zigzag(-2));
    assertEquals(0xFFFFFFFE, CompactWriter.zigzag(Integer.MAX_VALUE));
    assertEquals(0xFFFFFFFF, CompactWriter.zigzag(Integer.MIN_VALUE));
    assertEquals(-1L, CompactWriter.zigzag(Long.MIN_VALUE));
    assertEquals(4_000_000_000L, CompactWriter.zigzag(2_000_000_000L));
  }

  @Test
  void compactStructFieldsUseIdDeltasAndLongFormHeaders() {
    ByteBuf b = new ByteBuf(64);
    new CompactWriter(b)
        .beginStruct()
        .i32(1, 3) // delta 1, type i32 (5): 0x15, zigzag(3) = 6
        .i64(2, -1) // 0x16, zigzag(-1) = 1
        .string(4, "ab") // delta 2, binary (8): 0x28, length 2, 'a' 'b'
        .bool(5, true) // 0x11: the value is in the type nibble
        .i32(30, 1) // delta 25 > 15: type byte 0x05, zigzag(30) = 60, then the value
        .beginStruct(31) // delta 1, struct (12): 0x1C
        .i32(1, 0) // inner ids restart: 0x15 0x00
        .endStruct() // 0x00
        .list(32, CompactWriter.I32, 2) // 0x19, then size 2 << 4 | i32: 0x25
        .i32(-1)
        .i32(1)
        .list(33, CompactWriter.BINARY, 15) // 15 elements: 0xF8, then varint 15
        .endStruct();
    assertArrayEquals(
        bytes(
            0x15, 0x06, 0x16, 0x01, 0x28, 0x02, 'a', 'b', 0x11, 0x05, 60, 0x02, 0x1C, 0x15, 0x00,
            0x00, 0x19, 0x25, 0x01, 0x02, 0x19, 0xF8, 0x0F, 0x00),
        b.toByteArray());
  }

  @Test
  void bitPackingFollowsTheSpecExample() {
    // Encodings.md: 0..7 at bit width 3 are the bytes 10001000 11000110 11111010, after the
    // header of one group of 8, varint(1 << 1 | 1).
    assertArrayEquals(
        bytes(0x03, 0b10001000, 0b11000110, 0b11111010),
        rle(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, 3));
  }

  @Test
  void repeatsBecomeRunsAndTheRestIsPaddedToWholeGroups() {
    int[] ones = new int[300];
    Arrays.fill(ones, 1);
    // One run: varint(300 << 1) = 0xD8 0x04, the value in one byte.
    assertArrayEquals(bytes(0xD8, 0x04, 0x01), rle(ones, 1));
    // A value of width 9 takes two bytes in a run.
    int[] wide = new int[8];
    Arrays.fill(wide, 0x1FF);
    assertArrayEquals(bytes(0x10, 0xFF, 0x01), rle(wide, 9));
    // Three values: one group, padded with zeros: 1,0,1 -> 0b101.
    assertArrayEquals(bytes(0x03, 0b101), rle(new int[] {1, 0, 1}, 1));
    // 0 then 11 ones: the run lends 7 values to fill the group, 4 repeats are left, too few for
    // a run, so all 12 values are bit-packed in 2 groups.
    int[] mixed = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    assertArrayEquals(bytes(0x05, 0xFE, 0x0F), rle(mixed, 1));
    // 0 then 21 ones: a group (0 and seven 1s), then a run of the 14 left.
    int[] run = new int[22];
    Arrays.fill(run, 1, 22, 1);
    assertArrayEquals(bytes(0x03, 0xFE, 0x1C, 0x01), rle(run, 1));
  }

  @Test
  void bitWidthCoversTheLargestValue() {
    assertEquals(1, RleHybrid.bitWidth(0));
    assertEquals(1, RleHybrid.bitWidth(1));
    assertEquals(2, RleHybrid.bitWidth(2));
    assertEquals(8, RleHybrid.bitWidth(255));
    assertEquals(9, RleHybrid.bitWidth(256));
  }

  @Test
  void gzipPagesAreGzipMembers() throws Exception {
    byte[] text = "weft weft weft weft weft".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    ByteBuf out = new ByteBuf(64);
    try (Gzip g = new Gzip(1)) {
      g.compress(text, text.length, out);
    }
    try (var in =
        new java.util.zip.GZIPInputStream(
            new java.io.ByteArrayInputStream(out.bytes, 0, out.size))) {
      assertArrayEquals(text, in.readAllBytes());
    }
  }

  private static byte[] varint(long v) {
    ByteBuf b = new ByteBuf(16);
    b.writeVarint(v);
    return b.toByteArray();
  }

  private static byte[] rle(int[] v, int width) {
    ByteBuf b = new ByteBuf(16);
    RleHybrid.encode(v, 0, v.length, width, b);
    return b.toByteArray();
  }

  private static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }
}
