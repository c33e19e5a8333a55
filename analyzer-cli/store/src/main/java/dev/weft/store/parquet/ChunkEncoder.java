package dev.weft.store.parquet;

import java.util.Arrays;

/**
 * Writes one column of a row group as a column chunk: a dictionary page (dictionary columns) and
 * data pages (version 1) of at most {@link #PAGE_ROWS} rows each, every page compressed on its own.
 * Holds its scratch arrays between chunks, so one encoder per encoding thread.
 */
final class ChunkEncoder implements AutoCloseable {
  /** Rows per data page: small enough for readers' buffers, large enough to amortise headers. */
  static final int PAGE_ROWS = 65_536;

  // Parquet enum values (parquet.thrift).
  static final int PLAIN = 0;
  static final int RLE = 3;
  static final int RLE_DICTIONARY = 8;
  static final int DATA_PAGE = 0;
  static final int DICTIONARY_PAGE = 2;

  private final Codec codec;
  private final Gzip gzip;
  private final ByteBuf page = new ByteBuf(1 << 20);
  private final ByteBuf packed = new ByteBuf(1 << 16);
  private final ByteBuf header = new ByteBuf(64);
  private int[] local = new int[0]; // row -> local dictionary id (-1: null), in written order
  private int[] levels = new int[0];
  private int[] localOf = new int[0]; // dictionary id -> local id, -1 when unused
  private int[] used = new int[0]; // local id -> dictionary id

  ChunkEncoder(Codec codec) {
    this.codec = codec;
    this.gzip = codec == Codec.GZIP ? new Gzip(codec.level()) : null;
  }

  /**
   * What the footer says about a chunk.
   *
   * @param dictionaryPageOffset file offset of the dictionary page, -1 without one
   * @param min statistics, PLAIN-encoded (strings without their length); null when all null
   */
  record Chunk(
      long start,
      long dataPageOffset,
      long dictionaryPageOffset,
      long values,
      long nulls,
      long uncompressed,
      long compressed,
      byte[] min,
      byte[] max) {}

  /**
   * Appends column {@code c} of {@code block}, rows in the order {@code order}, to {@code out},
   * whose first byte is at file offset {@code base}.
   */
  Chunk encode(Column col, int c, RowBlock block, int[] order, ByteBuf out, long base) {
    int n = block.rows;
    long start = base + out.size;
    long[] sizes = new long[2];
    return switch (col.type()) {
      case INT32 -> plainInts(block.ints[c], order, n, out, base, start, sizes);
      case INT64 -> plainLongs(col, c, block, order, n, out, base, start, sizes);
      case STRING, INT64_DICT -> dictionary(col, c, block, order, n, out, base, start, sizes);
    };
  }

  private Chunk plainInts(
      int[] v, int[] order, int n, ByteBuf out, long base, long start, long[] sizes) {
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    for (int p = 0; p < n; p += PAGE_ROWS) {
      int end = Math.min(n, p + PAGE_ROWS);
      page.clear();
      page.reserve((end - p) * 4);
      for (int k = p; k < end; k++) {
        int x = v[order[k]];
        min = Math.min(min, x);
        max = Math.max(max, x);
        page.writeIntLe(x);
      }
      dataPage(end - p, PLAIN, out, sizes);
    }
    ByteBuf s = new ByteBuf(8);
    s.writeIntLe(min);
    s.writeIntLe(max);
    byte[] b = s.toByteArray();
    return new Chunk(
        start,
        start,
        -1,
        n,
        0,
        sizes[0],
        sizes[1],
        n == 0 ? null : Arrays.copyOf(b, 4),
        n == 0 ? null : Arrays.copyOfRange(b, 4, 8));
  }

  private Chunk plainLongs(
      Column col,
      int c,
      RowBlock block,
      int[] order,
      int n,
      ByteBuf out,
      long base,
      long start,
      long[] sizes) {
    long[] v = block.longs[c];
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long nulls = 0;
    levels = ensure(levels, Math.min(n, PAGE_ROWS));
    for (int p = 0; p < n; p += PAGE_ROWS) {
      int end = Math.min(n, p + PAGE_ROWS);
      page.clear();
      page.reserve((end - p) * 8);
      if (col.optional()) {
        for (int k = p; k < end; k++) {
          levels[k - p] = block.isNull(c, order[k]) ? 0 : 1;
        }
        definitionLevels(end - p);
      }
      for (int k = p; k < end; k++) {
        int row = order[k];
        if (col.optional() && levels[k - p] == 0) {
          nulls++;
          continue;
        }
        long x = v[row];
        min = Math.min(min, x);
        max = Math.max(max, x);
        page.writeLongLe(x);
      }
      dataPage(end - p, PLAIN, out, sizes);
    }
    return new Chunk(
        start,
        start,
        -1,
        n,
        nulls,
        sizes[0],
        sizes[1],
        nulls == n ? null : le(min),
        nulls == n ? null : le(max));
  }

  private Chunk dictionary(
      Column col,
      int c,
      RowBlock block,
      int[] order,
      int n,
      ByteBuf out,
      long base,
      long start,
      long[] sizes) {
    int[] ids = block.ints[c];
    Dictionary.View values = block.dictionaries[c];
    localOf = ensure(localOf, values.size());
    used = ensure(used, values.size());
    Arrays.fill(localOf, 0, values.size(), -1);
    local = ensure(local, n);
    int distinct = 0;
    long nulls = 0;
    for (int k = 0; k < n; k++) {
      int id = ids[order[k]];
      if (id < 0) {
        local[k] = -1;
        nulls++;
        continue;
      }
      int l = localOf[id];
      if (l < 0) {
        l = distinct++;
        localOf[id] = l;
        used[l] = id;
      }
      local[k] = l;
    }
    boolean strings = values.utf8() != null && col.type() == Column.Type.STRING;
    // The dictionary page: the used values, PLAIN (strings with a 4-byte length).
    page.clear();
    int minId = -1;
    int maxId = -1;
    for (int l = 0; l < distinct; l++) {
      int id = used[l];
      if (strings) {
        byte[] s = values.utf8()[id];
        page.writeIntLe(s.length);
        page.write(s);
        if (minId < 0 || Arrays.compareUnsigned(s, values.utf8()[minId]) < 0) {
          minId = id;
        }
        if (maxId < 0 || Arrays.compareUnsigned(s, values.utf8()[maxId]) > 0) {
          maxId = id;
        }
      } else {
        long x = values.longs()[id];
        page.writeLongLe(x);
        minId = minId < 0 || x < values.longs()[minId] ? id : minId;
        maxId = maxId < 0 || x > values.longs()[maxId] ? id : maxId;
      }
    }
    long dictionaryOffset = base + out.size;
    page(DICTIONARY_PAGE, distinct, PLAIN, out, sizes);
    long dataOffset = base + out.size;
    int width = RleHybrid.bitWidth(Math.max(0, distinct - 1));
    levels = ensure(levels, Math.min(n, PAGE_ROWS));
    for (int p = 0; p < n; p += PAGE_ROWS) {
      int end = Math.min(n, p + PAGE_ROWS);
      page.clear();
      int present = 0;
      if (col.optional()) {
        for (int k = p; k < end; k++) {
          levels[k - p] = local[k] < 0 ? 0 : 1;
        }
        definitionLevels(end - p);
        for (int k = p; k < end; k++) {
          if (local[k] >= 0) {
            local[p + present++] = local[k]; // compacted in place: k >= p + present
          }
        }
      } else {
        present = end - p;
      }
      page.write(width);
      RleHybrid.encode(local, p, p + present, width, page);
      dataPage(end - p, RLE_DICTIONARY, out, sizes);
    }
    byte[] min = null;
    byte[] max = null;
    if (minId >= 0) {
      min = strings ? values.utf8()[minId] : le(values.longs()[minId]);
      max = strings ? values.utf8()[maxId] : le(values.longs()[maxId]);
    }
    return new Chunk(start, dataOffset, dictionaryOffset, n, nulls, sizes[0], sizes[1], min, max);
  }

  /** Definition levels (0 null, 1 set) of the page's rows, with their 4-byte length first. */
  private void definitionLevels(int count) {
    int at = page.size;
    page.writeIntLe(0);
    RleHybrid.encode(levels, 0, count, 1, page);
    page.setIntLe(at, page.size - at - 4);
  }

  private void dataPage(int values, int encoding, ByteBuf out, long[] sizes) {
    page(DATA_PAGE, values, encoding, out, sizes);
  }

  /** Appends {@link #page} (compressed) with its header; adds to sizes {uncompressed, written}. */
  private void page(int type, int values, int encoding, ByteBuf out, long[] sizes) {
    ByteBuf body = page;
    if (gzip != null) {
      packed.clear();
      gzip.compress(page.bytes, page.size, packed);
      body = packed;
    }
    header.clear();
    CompactWriter h = new CompactWriter(header).beginStruct();
    h.i32(1, type).i32(2, page.size).i32(3, body.size);
    if (type == DATA_PAGE) {
      h.beginStruct(5).i32(1, values).i32(2, encoding).i32(3, RLE).i32(4, RLE).endStruct();
    } else {
      h.beginStruct(7).i32(1, values).i32(2, encoding).endStruct();
    }
    h.endStruct();
    out.write(header.bytes, 0, header.size);
    out.write(body.bytes, 0, body.size);
    sizes[0] += header.size + page.size;
    sizes[1] += header.size + body.size;
  }

  private static byte[] le(long v) {
    ByteBuf b = new ByteBuf(8);
    b.writeLongLe(v);
    return b.toByteArray();
  }

  /** {@code a}, or a larger array (its contents lost) when {@code a} is shorter than n. */
  private static int[] ensure(int[] a, int n) {
    return a.length >= n ? a : new int[Math.max(n, a.length * 2)];
  }

  @Override
  public void close() {
    if (gzip != null) {
      gzip.close();
    }
  }
}
