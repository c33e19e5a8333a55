package dev.weft.store.parquet;

import java.util.Arrays;
import java.util.stream.IntStream;

/** The order in which a row group's rows are written, computed on the encoding thread. */
public interface RowOrder {
  /** Fills {@code order[0..rows)} with the rows of {@code block} in the order to write them. */
  void order(RowBlock block, int[] order);

  /** The rows as added. */
  RowOrder AS_ADDED = (block, order) -> Arrays.setAll(order, i -> i);

  /**
   * By a time bucket ({@code floor(time / bucketNs)}), then the thread's name (UTF-8 bytes,
   * unsigned), then the time: a row group sorted this way has each thread's rows of a second
   * together, and row groups filled in time order cover narrow time ranges.
   *
   * @param time an INT64 column
   * @param thread a required STRING column
   */
  static RowOrder byBucketThreadTime(int time, long bucketNs, int thread) {
    return new BucketThreadTime(time, bucketNs, thread);
  }

  /** See {@link RowOrder#byBucketThreadTime}. */
  final class BucketThreadTime implements RowOrder {
    private final int time;
    private final long bucketNs;
    private final int thread;
    private long[] keys = new long[0];
    private int[] counts = new int[0];

    BucketThreadTime(int time, long bucketNs, int thread) {
      this.time = time;
      this.bucketNs = bucketNs;
      this.thread = thread;
    }

    @Override
    public void order(RowBlock block, int[] order) {
      int n = block.rows;
      long[] ts = block.longs[time];
      int[] th = block.ints[thread];
      int[] rank = threadRanks(th, n, block.dictionaries[thread]);
      int threads = Arrays.stream(rank).max().orElse(-1) + 1;
      long firstBucket = Long.MAX_VALUE;
      long lastBucket = Long.MIN_VALUE;
      for (int i = 0; i < n; i++) {
        long b = Math.floorDiv(ts[i], bucketNs);
        firstBucket = Math.min(firstBucket, b);
        lastBucket = Math.max(lastBucket, b);
      }
      long groups = n == 0 ? 0 : (lastBucket - firstBucket + 1) * threads;
      if (groups > 0 && groups <= 4L * n + 1024) {
        countingSort(ts, th, rank, threads, firstBucket, (int) groups, n, order);
      } else {
        Integer[] boxed = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(
            boxed,
            (a, b) -> {
              int byBucket =
                  Long.compare(Math.floorDiv(ts[a], bucketNs), Math.floorDiv(ts[b], bucketNs));
              return byBucket != 0 ? byBucket : Integer.compare(rank[th[a]], rank[th[b]]);
            });
        for (int i = 0; i < n; i++) {
          order[i] = boxed[i];
        }
      }
      sortRunsByTime(ts, th, order, n);
    }

    /** Stable: within a bucket and thread the rows keep the order they were added in. */
    private void countingSort(
        long[] ts,
        int[] th,
        int[] rank,
        int threads,
        long firstBucket,
        int groups,
        int n,
        int[] order) {
      if (counts.length < groups + 1) {
        counts = new int[groups + 1];
      }
      Arrays.fill(counts, 0, groups + 1, 0);
      for (int i = 0; i < n; i++) {
        counts[group(ts[i], th[i], rank, threads, firstBucket) + 1]++;
      }
      for (int g = 0; g < groups; g++) {
        counts[g + 1] += counts[g];
      }
      for (int i = 0; i < n; i++) {
        order[counts[group(ts[i], th[i], rank, threads, firstBucket)]++] = i;
      }
    }

    private int group(long t, int thread, int[] rank, int threads, long firstBucket) {
      return (int) (Math.floorDiv(t, bucketNs) - firstBucket) * threads + rank[thread];
    }

    /** Rows added out of time order (waits end in order, not start): sorts each run by time. */
    private void sortRunsByTime(long[] ts, int[] th, int[] order, int n) {
      int from = 0;
      while (from < n) {
        long bucket = Math.floorDiv(ts[order[from]], bucketNs);
        int to = from + 1;
        boolean sorted = true;
        while (to < n
            && th[order[to]] == th[order[from]]
            && Math.floorDiv(ts[order[to]], bucketNs) == bucket) {
          sorted &= ts[order[to]] >= ts[order[to - 1]];
          to++;
        }
        if (!sorted) {
          sortByTime(ts, order, from, to);
        }
        from = to;
      }
    }

    private void sortByTime(long[] ts, int[] order, int from, int to) {
      int len = to - from;
      if (keys.length < len) {
        keys = new long[len];
      }
      long base = Long.MAX_VALUE;
      for (int k = from; k < to; k++) {
        base = Math.min(base, ts[order[k]]);
      }
      int rowBits = 32 - Integer.numberOfLeadingZeros(len);
      long span = 0;
      for (int k = from; k < to; k++) {
        span = Math.max(span, ts[order[k]] - base);
      }
      if (64 - Long.numberOfLeadingZeros(span) + rowBits > 63) {
        Integer[] boxed = new Integer[len];
        for (int k = 0; k < len; k++) {
          boxed[k] = order[from + k];
        }
        Arrays.sort(boxed, (a, b) -> Long.compare(ts[a], ts[b]));
        for (int k = 0; k < len; k++) {
          order[from + k] = boxed[k];
        }
        return;
      }
      // (time - base, position in the run) in one long: a primitive sort, stable.
      int[] rows = Arrays.copyOfRange(order, from, to);
      for (int k = 0; k < len; k++) {
        keys[k] = (ts[rows[k]] - base) << rowBits | k;
      }
      Arrays.sort(keys, 0, len);
      long mask = (1L << rowBits) - 1;
      for (int k = 0; k < len; k++) {
        order[from + k] = rows[(int) (keys[k] & mask)];
      }
    }

    /** Dictionary id -> rank of its name among the ids used in the block; -1 for unused ids. */
    private static int[] threadRanks(int[] th, int n, Dictionary.View names) {
      int[] rank = new int[names.size()];
      Arrays.fill(rank, -1);
      int distinct = 0;
      for (int i = 0; i < n; i++) {
        if (rank[th[i]] < 0) {
          rank[th[i]] = 0;
          distinct++;
        }
      }
      Integer[] ids = new Integer[distinct];
      int k = 0;
      for (int id = 0; id < rank.length; id++) {
        if (rank[id] == 0) {
          ids[k++] = id;
        }
      }
      byte[][] utf8 = names.utf8();
      Arrays.sort(ids, (a, b) -> Arrays.compareUnsigned(utf8[a], utf8[b]));
      for (int r = 0; r < distinct; r++) {
        rank[ids[r]] = r;
      }
      return rank;
    }
  }
}
