package dev.weft.testapps;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The ground truth of one run: times and counts the scenario measured itself, by kind and key
 * (usually a thread name), optionally grouped by region.
 *
 * <p>Recording takes no lock and shares no counter between threads: each thread writes to its own
 * sheet (found through a {@link ThreadLocal}), and the sheets are summed by {@link #report()}. So
 * the recorder adds no lock or barrier events of its own to a traced run. {@link #report()} must be
 * called after every recording thread has finished (joined, or its pool terminated).
 */
public final class Truth {
  private static final String FLAT = "";

  /** Keys such as "worker-10" sort after "worker-9". */
  static final Comparator<String> NATURAL_ORDER = Truth::compareNatural;

  private final ConcurrentLinkedQueue<Sheet> sheets = new ConcurrentLinkedQueue<>();
  private final ThreadLocal<Sheet> sheet = ThreadLocal.withInitial(this::newSheet);

  /**
   * A truth with nothing recorded. It runs the recording path once on a throwaway sheet, so that a
   * scenario thread's first recording does not load and link it (a fraction of a millisecond on a
   * cold JVM, which the scenario would spend between two of its own timestamps).
   */
  public Truth() {
    new Sheet().add(FLAT, FLAT, FLAT, 0);
  }

  /** Adds {@code value} to {@code kind} under the current thread's name. */
  public void add(String kind, long value) {
    add(kind, currentThreadName(), value);
  }

  /** Adds {@code value} to {@code kind} under {@code key}. */
  public void add(String kind, String key, long value) {
    sheet.get().add(kind, FLAT, key, value);
  }

  /** Adds {@code value} to {@code kind} in {@code group} under the current thread's name. */
  public void addGrouped(String kind, String group, long value) {
    addGrouped(kind, group, currentThreadName(), value);
  }

  /** Adds {@code value} to {@code kind} in {@code group} under {@code key}. */
  public void addGrouped(String kind, String group, String key, long value) {
    if (group.isEmpty()) {
      throw new IllegalArgumentException("empty group");
    }
    sheet.get().add(kind, group, key, value);
  }

  /**
   * Adds the current thread's work time in {@code region} (see {@link TruthKinds#REGION_BUSY_NS}).
   */
  public void addRegionBusy(String region, long ns) {
    addGrouped(TruthKinds.REGION_BUSY_NS, region, ns);
  }

  /**
   * Makes {@code thread} a member of {@code region}'s team even if it records no work there, so
   * that it counts in the region's mean.
   */
  public void addRegionMember(String region, String thread) {
    addGrouped(TruthKinds.REGION_BUSY_NS, region, thread, 0);
  }

  /**
   * The summed truth, kinds in alphabetical order and keys in natural order. For every region of
   * {@link TruthKinds#REGION_BUSY_NS} it adds {@link TruthKinds#IMBALANCE} and {@link
   * TruthKinds#WORK_IMBALANCE_NS} (the per-thread, per-instance values a scenario recorded under
   * that kind summed over the region, else computed from the busy sums).
   */
  public Map<String, Object> report() {
    Map<String, Map<String, Map<String, Long>>> merged = new TreeMap<>();
    for (Sheet s : sheets) {
      s.values.forEach(
          (kind, groups) ->
              groups.forEach(
                  (group, keys) ->
                      keys.forEach(
                          (key, cell) ->
                              merged
                                  .computeIfAbsent(kind, k -> new TreeMap<>(NATURAL_ORDER))
                                  .computeIfAbsent(group, g -> new TreeMap<>(NATURAL_ORDER))
                                  .merge(key, cell[0], Long::sum))));
    }
    Map<String, Object> report = new TreeMap<>();
    merged.forEach(
        (kind, groups) -> {
          if (groups.size() == 1 && groups.containsKey(FLAT)) {
            report.put(kind, groups.get(FLAT));
          } else if (groups.containsKey(FLAT)) {
            throw new IllegalStateException("kind " + kind + " recorded both flat and grouped");
          } else {
            report.put(kind, groups);
          }
        });
    Map<String, Map<String, Long>> regions = merged.get(TruthKinds.REGION_BUSY_NS);
    Map<String, Map<String, Long>> recordedLost = merged.get(TruthKinds.WORK_IMBALANCE_NS);
    if (regions != null) {
      Map<String, Object> imbalance = new TreeMap<>(NATURAL_ORDER);
      Map<String, Object> lost = new TreeMap<>(NATURAL_ORDER);
      regions.forEach(
          (region, busy) -> {
            if (region.isEmpty() || busy.isEmpty()) {
              return;
            }
            long max = busy.values().stream().mapToLong(Long::longValue).max().orElse(0);
            long sum = busy.values().stream().mapToLong(Long::longValue).sum();
            double mean = (double) sum / busy.size();
            imbalance.put(region, mean == 0 ? 0.0 : round4((max - mean) / mean));
            // Time lost per instance, when the scenario measured its instances; else the sums'
            // (equal when the busiest member is the same in every instance).
            Map<String, Long> perInstance = recordedLost == null ? null : recordedLost.get(region);
            lost.put(
                region,
                perInstance != null
                    ? perInstance.values().stream().mapToLong(Long::longValue).sum()
                    : max * busy.size() - sum);
          });
      report.put(TruthKinds.IMBALANCE, imbalance);
      report.put(TruthKinds.WORK_IMBALANCE_NS, lost);
    }
    return report;
  }

  private static double round4(double x) {
    return Math.round(x * 10_000) / 10_000.0;
  }

  private Sheet newSheet() {
    Sheet s = new Sheet();
    sheets.add(s);
    return s;
  }

  private static String currentThreadName() {
    return Thread.currentThread().getName();
  }

  static int compareNatural(String a, String b) {
    List<Object> pa = splitDigits(a);
    List<Object> pb = splitDigits(b);
    for (int i = 0; i < Math.min(pa.size(), pb.size()); i++) {
      Object x = pa.get(i);
      Object y = pb.get(i);
      int c;
      if (x instanceof Long && y instanceof Long) {
        c = Long.compare((Long) x, (Long) y);
      } else {
        c = x.toString().compareTo(y.toString());
      }
      if (c != 0) {
        return c;
      }
    }
    return pa.size() != pb.size() ? Integer.compare(pa.size(), pb.size()) : a.compareTo(b);
  }

  private static List<Object> splitDigits(String s) {
    List<Object> parts = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      int j = i;
      boolean digits = Character.isDigit(s.charAt(i));
      while (j < s.length() && Character.isDigit(s.charAt(j)) == digits) {
        j++;
      }
      String part = s.substring(i, j);
      parts.add(digits && part.length() < 18 ? (Object) Long.parseLong(part) : part);
      i = j;
    }
    return parts;
  }

  /**
   * One thread's recordings: kind → group → key → value. Written by its owner thread only.
   *
   * <p>{@link #add} uses no lambda: scenarios call it between their arrival timestamp and the wait
   * they measure, and linking a lambda on its first use costs about a millisecond on a cold JVM,
   * which the truth would count as waiting.
   */
  private static final class Sheet {
    final Map<String, Map<String, Map<String, long[]>>> values = new LinkedHashMap<>();

    void add(String kind, String group, String key, long value) {
      Map<String, Map<String, long[]>> groups = values.get(kind);
      if (groups == null) {
        groups = new HashMap<>();
        values.put(kind, groups);
      }
      Map<String, long[]> keys = groups.get(group);
      if (keys == null) {
        keys = new HashMap<>();
        groups.put(group, keys);
      }
      long[] cell = keys.get(key);
      if (cell == null) {
        cell = new long[1];
        keys.put(key, cell);
      }
      cell[0] += value;
    }
  }
}
