package dev.weft.store.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The order of a row group's rows: by second, then thread name, then time. */
class RowOrderTest {
  private static final long S = 1_000_000_000L;

  @Test
  void rowsGoByBucketThenThreadNameThenTime() {
    Dictionary threads = Dictionary.ofStrings();
    int zed = threads.id("zed");
    int main = threads.id("main");
    threads.id("unused"); // in the dictionary, in no row
    RowBlock b =
        new RowBlock(List.of(Column.int64("ts", false), Column.string("t", false, threads)), 16);
    long[] ts = {5 * S + 3, 5 * S + 1, 4 * S + 9, 5 * S + 2, 6 * S, 5 * S + 2, 4 * S};
    int[] th = {main, zed, zed, main, main, zed, zed};
    for (int k = 0; k < ts.length; k++) {
      int i = b.add();
      b.longs[0][i] = ts[k];
      b.ints[1][i] = th[k];
    }
    b.dictionaries = new Dictionary.View[] {null, threads.view()};
    int[] order = new int[ts.length];
    RowOrder.byBucketThreadTime(0, S, 1).order(b, order);
    // bucket 4: zed at 4s, 4s+9; bucket 5: main 5s+2, 5s+3, then zed 5s+1, 5s+2; bucket 6: main
    assertArrayEquals(new int[] {6, 2, 3, 0, 1, 5, 4}, order);
  }
}
