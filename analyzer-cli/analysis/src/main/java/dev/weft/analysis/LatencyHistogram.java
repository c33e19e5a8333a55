package dev.weft.analysis;

/**
 * Latencies (ns) of one group of tasks: count, sum and maximum exactly, percentiles from log-linear
 * buckets (16 per power of two, so a percentile is within 6.25 % of the true value and never above
 * the maximum). Memory is fixed per histogram, not per task.
 */
public final class LatencyHistogram {
  private static final int SUB_BITS = 4;
  private static final int SUB = 1 << SUB_BITS;

  private final long[] counts = new long[(64 - SUB_BITS + 1) * SUB];
  private long count;
  private long sum;
  private long max;

  /** Adds one latency (negative values count as 0). */
  public void add(long ns) {
    long v = Math.max(0, ns);
    counts[bucket(v)]++;
    count++;
    sum = sum + v < sum ? Long.MAX_VALUE : sum + v;
    max = Math.max(max, v);
  }

  public long count() {
    return count;
  }

  public long sum() {
    return sum;
  }

  public long max() {
    return max;
  }

  /** The mean, rounded down; 0 when empty. */
  public long mean() {
    return count == 0 ? 0 : sum / count;
  }

  /**
   * The {@code q}-quantile (0 < q ≤ 1): the upper end of the bucket holding it, at most the
   * maximum.
   */
  public long quantile(double q) {
    if (count == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(q * count));
    long seen = 0;
    for (int b = 0; b < counts.length; b++) {
      seen += counts[b];
      if (seen >= rank) {
        return Math.min(max, upper(b));
      }
    }
    return max;
  }

  static int bucket(long v) {
    if (v < SUB) {
      return (int) v;
    }
    int msb = 63 - Long.numberOfLeadingZeros(v);
    int shift = msb - SUB_BITS;
    return (shift + 1) * SUB + (int) ((v >>> shift) & (SUB - 1));
  }

  /** The largest value of bucket {@code b}. */
  static long upper(int b) {
    if (b < SUB) {
      return b;
    }
    int shift = b / SUB - 1;
    long low = ((long) (SUB + b % SUB)) << shift;
    long span = 1L << shift;
    return low + span - 1 < low ? Long.MAX_VALUE : low + span - 1;
  }
}
