package dev.weft.store.parquet;

import java.util.Arrays;
import java.util.List;

/**
 * The rows of one row group, column by column in primitive arrays that the producer fills in place:
 * {@code int i = block.add(); block.longs[TS][i] = ts; block.ints[THREAD][i] = id; …}. Column
 * {@code c} is in {@code ints[c]} (INT32 values, dictionary ids) or {@code longs[c]} (INT64); the
 * other array of the pair is null.
 */
public final class RowBlock {
  public final int[][] ints;
  public final long[][] longs;
  private final long[][] nulls;
  final int capacity;
  int rows;
  Dictionary.View[] dictionaries;

  RowBlock(List<Column> columns, int capacity) {
    int n = columns.size();
    ints = new int[n][];
    longs = new long[n][];
    nulls = new long[n][];
    for (int c = 0; c < n; c++) {
      Column col = columns.get(c);
      if (col.heldAsInts()) {
        ints[c] = new int[capacity];
      } else {
        longs[c] = new long[capacity];
        if (col.optional()) {
          nulls[c] = new long[(capacity + 63) >>> 6];
        }
      }
    }
    this.capacity = capacity;
  }

  /** Reserves the next row and returns its index; every column of it must then be set. */
  public int add() {
    return rows++;
  }

  public int rows() {
    return rows;
  }

  boolean full() {
    return rows == capacity;
  }

  /** Makes row {@code i} of the optional INT64 column {@code c} null. */
  public void setNull(int c, int i) {
    nulls[c][i >>> 6] |= 1L << i;
  }

  boolean isNull(int c, int i) {
    long[] n = nulls[c];
    return n != null && (n[i >>> 6] & (1L << i)) != 0;
  }

  void clear() {
    for (long[] n : nulls) {
      if (n != null) {
        Arrays.fill(n, 0, (rows + 63) >>> 6, 0L);
      }
    }
    rows = 0;
    dictionaries = null;
  }
}
