package dev.weft.store.parquet;

/**
 * Parquet's RLE / bit-packing hybrid, for definition levels and dictionary indices: a value
 * repeated 8 times or more becomes a run (a varint {@code count << 1} and the value in whole
 * bytes), the rest is bit-packed in groups of 8 (a varint {@code groups << 1 | 1}, then the values
 * packed from each byte's least significant bit). Only the last group is padded, with zeros: the
 * reader knows how many values there are.
 */
final class RleHybrid {
  private RleHybrid() {}

  /** The bits needed for values up to {@code max} (at least 1). */
  static int bitWidth(int max) {
    return Math.max(1, 32 - Integer.numberOfLeadingZeros(max));
  }

  /** Encodes {@code v[from..to)}, each below {@code 1 << width}, onto {@code out}. */
  static void encode(int[] v, int from, int to, int width, ByteBuf out) {
    int packedFrom = from; // the values not written yet, all to be bit-packed
    int i = from;
    while (i < to) {
      int x = v[i];
      int j = i + 1;
      while (j < to && v[j] == x) {
        j++;
      }
      if (j - i >= 8) {
        // The bit-packed values before the run must fill whole groups: lend them the run's head.
        int lend = (8 - (i - packedFrom) % 8) % 8;
        if (j - i - lend >= 8) {
          pack(v, packedFrom, i + lend, width, out);
          run(x, j - i - lend, width, out);
          packedFrom = j;
        }
      }
      i = j;
    }
    pack(v, packedFrom, to, width, out);
  }

  private static void run(int value, int count, int width, ByteBuf out) {
    out.writeVarint((long) count << 1);
    for (int b = 0; b < width; b += 8) {
      out.write(value >>> b);
    }
  }

  private static void pack(int[] v, int from, int to, int width, ByteBuf out) {
    if (from >= to) {
      return;
    }
    int groups = (to - from + 7) / 8;
    out.writeVarint((long) groups << 1 | 1);
    out.reserve(groups * width);
    byte[] b = out.bytes;
    int at = out.size;
    long bits = 0;
    int held = 0;
    int end = from + groups * 8;
    for (int k = from; k < end; k++) {
      bits |= (k < to ? v[k] & 0xFFFFFFFFL : 0) << held;
      held += width;
      while (held >= 8) {
        b[at++] = (byte) bits;
        bits >>>= 8;
        held -= 8;
      }
    }
    out.size = at;
  }
}
