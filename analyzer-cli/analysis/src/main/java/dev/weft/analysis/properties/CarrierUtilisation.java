package dev.weft.analysis.properties;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.CarrierSwitch;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/** How busy the carriers of virtual threads were, over time. */
@PropertyInfo(
    id = "carrier_utilisation",
    parent = "",
    name = "Carrier utilisation",
    info = "Time carrier threads ran virtual threads (mounted), per carrier and over time",
    unit = "carrier_ns",
    description =
        """
        For every carrier (a platform thread of a virtual-thread scheduler): the time from each \
        VTHREAD_MOUNT to its VTHREAD_UNMOUNT, the time it ran a virtual thread. A mount still \
        open at the end of the window counts up to it in the timeline. The severity is that busy time per \
        carrier (carrier time, not a share of the threads' time: 0 % in JSON); the timeline \
        object cuts the analysed window into 20 equal buckets and gives each carrier's busy \
        share (0 to 1) in each, and over the whole window, and the summary line gives the mean \
        over carriers. Needs a trace of format 1.3 or later (mounts recorded when they happen); \
        older traces record a mount only at a virtual thread's first event on a carrier.\
        """,
    diagnosis =
        """
        Carriers busy nearly all the time with virtual threads waiting to run: the scheduler is \
        saturated (CPU-bound virtual threads, or [[vthread_pinning]] holding carriers while \
        blocked). Carriers mostly idle while the program is slow: the virtual threads wait for \
        something else (I/O, locks: see the waits under [[time]]), and more carriers would not \
        help. Uneven rows: work arrives in bursts. A virtual thread's recorded wait ends when it \
        runs again on a carrier, so the time it was ready but waited for a free carrier is inside \
        that wait (or inside a sleep, which counts as execution): with saturated carriers, waits \
        and sleeps read longer than what the virtual threads waited for.\
        """)
public final class CarrierUtilisation extends Property {
  static final int BUCKETS = 20;

  /** Per carrier (thread index): busy intervals as start, end pairs, in time order. */
  private long[][] intervals = new long[8][];

  private int[] count = new int[8];

  /** Per carrier: the open mount's start, or Long.MIN_VALUE. */
  private long[] openSince = new long[8];

  @Override
  public void onCarrierSwitch(CarrierSwitch s) {
    int c = s.carrier();
    if (c >= intervals.length) {
      int n = Math.max(c + 1, intervals.length * 2);
      intervals = Arrays.copyOf(intervals, n);
      count = Arrays.copyOf(count, n);
      int old = openSince.length;
      openSince = Arrays.copyOf(openSince, n);
      Arrays.fill(openSince, old, n, Long.MIN_VALUE);
    }
    if (intervals[c] == null) {
      intervals[c] = new long[16];
      openSince[c] = Long.MIN_VALUE;
    }
    if (s.mount()) {
      if (openSince[c] == Long.MIN_VALUE) {
        openSince[c] = s.time();
      }
    } else if (openSince[c] != Long.MIN_VALUE) {
      add(0, c, close(c, s.time()));
    }
  }

  /** Ends carrier {@code c}'s open mount at {@code end}; returns its length. */
  private long close(int c, long end) {
    long start = openSince[c];
    openSince[c] = Long.MIN_VALUE;
    if (count[c] + 2 > intervals[c].length) {
      intervals[c] = Arrays.copyOf(intervals[c], intervals[c].length * 2);
    }
    intervals[c][count[c]++] = start;
    intervals[c][count[c]++] = end;
    return end - start;
  }

  @Override
  public AnalysisResult.Timeline timeline(long from, long to, IntFunction<String> threadName) {
    if (to <= from) {
      return null;
    }
    long bucket = (to - from + BUCKETS - 1) / BUCKETS;
    List<AnalysisResult.TimelineRow> rows = new ArrayList<>();
    double sum = 0;
    for (int c = 0; c < intervals.length; c++) {
      if (intervals[c] == null) {
        continue;
      }
      if (openSince[c] != Long.MIN_VALUE) {
        // Still running a virtual thread at the end: in the timeline (the severity was summed).
        close(c, Math.max(openSince[c], to));
      }
      long[] busy = new long[BUCKETS];
      long total = 0;
      for (int i = 0; i < count[c]; i += 2) {
        long s = Math.max(from, intervals[c][i]);
        long e = Math.min(to, intervals[c][i + 1]);
        total += Math.max(0, e - s);
        for (long t = s; t < e; ) {
          int b = (int) Math.min(BUCKETS - 1, (t - from) / bucket);
          long bucketEnd = b == BUCKETS - 1 ? e : Math.min(e, from + (b + 1) * bucket);
          busy[b] += bucketEnd - t;
          t = bucketEnd;
        }
      }
      List<Double> share = new ArrayList<>(BUCKETS);
      for (int b = 0; b < BUCKETS; b++) {
        long length = b == BUCKETS - 1 ? to - (from + b * bucket) : bucket;
        share.add(length <= 0 ? 0 : round(busy[b] / (double) length));
      }
      double whole = round(total / (double) (to - from));
      sum += whole;
      rows.add(new AnalysisResult.TimelineRow(threadName.apply(c), share, whole));
    }
    if (rows.isEmpty()) {
      return null;
    }
    String summary =
        String.format(
            Locale.ROOT,
            "%d carrier(s) busy %.1f %% of the window on average",
            rows.size(),
            100 * sum / rows.size());
    return new AnalysisResult.Timeline(from, bucket, rows, summary);
  }

  private static double round(double share) {
    return Math.round(share * 1000) / 1000.0;
  }
}
