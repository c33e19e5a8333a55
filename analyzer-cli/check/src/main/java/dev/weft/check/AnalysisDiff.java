package dev.weft.check;

import dev.weft.check.AnalysisFile.Property;
import dev.weft.check.AnalysisFile.Region;
import dev.weft.check.AnalysisFile.ThreadShare;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What changed from analysis A (before) to analysis B (after): properties, regions, threads. */
public final class AnalysisDiff {

  /** A property in both analyses (either side may be null when only the other has it). */
  public record PropertyRow(
      String id, String name, String parent, int depth, Property a, Property b) {
    public double aPercent() {
      return a == null ? 0 : a.percent();
    }

    public double bPercent() {
      return b == null ? 0 : b.percent();
    }

    public long aNs() {
      return a == null ? 0 : a.severityNs();
    }

    public long bNs() {
      return b == null ? 0 : b.severityNs();
    }

    /** Change of the share of time, in percentage points. */
    public double deltaPoints() {
      return bPercent() - aPercent();
    }

    /** Relative change of the share of time ((b - a) / a), or null when A is 0. */
    public Double deltaRelative() {
      return aPercent() == 0 ? null : (bPercent() - aPercent()) / aPercent();
    }
  }

  /** A region in both analyses (either side may be null). */
  public record RegionRow(String key, String name, String location, Region a, Region b) {
    public long deltaLostNs() {
      return (b == null ? 0 : b.lostNs()) - (a == null ? 0 : a.lostNs());
    }

    public double deltaImbalance() {
      return (b == null ? 0 : b.imbalance()) - (a == null ? 0 : a.imbalance());
    }
  }

  /** One thread's severity of a property in A and B. */
  public record ThreadRow(String thread, long aNs, long bNs) {
    public long deltaNs() {
      return bNs - aNs;
    }
  }

  /** How a property's severity moved between threads. */
  public record ThreadChanges(PropertyRow property, List<ThreadRow> threads) {}

  private final AnalysisFile a;
  private final AnalysisFile b;
  private final List<PropertyRow> properties;

  public AnalysisDiff(AnalysisFile a, AnalysisFile b) {
    this.a = a;
    this.b = b;
    this.properties = propertyRows(a, b);
  }

  public AnalysisFile a() {
    return a;
  }

  public AnalysisFile b() {
    return b;
  }

  /** Every property of either analysis, in metric-tree order (B's order first, then A's). */
  public List<PropertyRow> properties() {
    return properties;
  }

  /**
   * Properties of both analyses as a tree: each root followed by its descendants, siblings in file
   * order (B's, then A's for properties only A has).
   */
  public static List<PropertyRow> propertyRows(AnalysisFile a, AnalysisFile b) {
    Map<String, Property> inA = new LinkedHashMap<>();
    Map<String, Property> inB = new LinkedHashMap<>();
    a.properties().forEach(p -> inA.putIfAbsent(p.id(), p));
    b.properties().forEach(p -> inB.putIfAbsent(p.id(), p));
    Set<String> ids = new LinkedHashSet<>(inB.keySet());
    ids.addAll(inA.keySet());
    Map<String, String> parent = new LinkedHashMap<>();
    for (String id : ids) {
      Property p = inB.containsKey(id) ? inB.get(id) : inA.get(id);
      parent.put(
          id,
          p.parent() != null && ids.contains(p.parent()) && !p.parent().equals(id)
              ? p.parent()
              : null);
    }
    List<PropertyRow> rows = new ArrayList<>();
    Set<String> done = new LinkedHashSet<>();
    for (String id : ids) {
      if (parent.get(id) == null) {
        addTree(id, 0, ids, parent, inA, inB, rows, done);
      }
    }
    for (String id : ids) { // a parent cycle: list what is left flat rather than lose it
      if (!done.contains(id)) {
        addTree(id, 0, ids, parent, inA, inB, rows, done);
      }
    }
    return rows;
  }

  private static void addTree(
      String id,
      int depth,
      Set<String> ids,
      Map<String, String> parent,
      Map<String, Property> inA,
      Map<String, Property> inB,
      List<PropertyRow> rows,
      Set<String> done) {
    if (!done.add(id)) {
      return;
    }
    Property pa = inA.get(id);
    Property pb = inB.get(id);
    String name = pb != null ? pb.name() : pa.name();
    rows.add(new PropertyRow(id, name, parent.get(id), depth, pa, pb));
    for (String child : ids) {
      if (id.equals(parent.get(child))) {
        addTree(child, depth + 1, ids, parent, inA, inB, rows, done);
      }
    }
  }

  /** Regions of either analysis, those whose lost time changed most first. */
  public List<RegionRow> regions(int top) {
    Map<String, Region[]> byKey = new LinkedHashMap<>();
    for (Region r : a.regions()) {
      byKey.computeIfAbsent(r.key(), k -> new Region[2])[0] = r;
    }
    for (Region r : b.regions()) {
      byKey.computeIfAbsent(r.key(), k -> new Region[2])[1] = r;
    }
    List<RegionRow> rows = new ArrayList<>();
    for (Map.Entry<String, Region[]> e : byKey.entrySet()) {
      Region any = e.getValue()[1] != null ? e.getValue()[1] : e.getValue()[0];
      rows.add(
          new RegionRow(e.getKey(), any.name(), any.location(), e.getValue()[0], e.getValue()[1]));
    }
    rows.sort(
        Comparator.comparingLong((RegionRow r) -> Math.abs(r.deltaLostNs()))
            .thenComparingDouble(r -> Math.abs(r.deltaImbalance()))
            .reversed());
    return rows.subList(0, Math.min(top, rows.size()));
  }

  /**
   * Per-thread changes of the {@code topProperties} wait-state properties whose severity changed
   * most (not {@code time} or {@code execution}), each with its {@code topThreads} most changed
   * threads.
   */
  public List<ThreadChanges> threadChanges(int topProperties, int topThreads) {
    List<PropertyRow> candidates = new ArrayList<>();
    for (PropertyRow row : properties) {
      if (!isWork(row.id()) && hasThreads(row) && row.aNs() != row.bNs()) {
        candidates.add(row);
      }
    }
    candidates.sort(
        Comparator.comparingLong((PropertyRow r) -> Math.abs(r.bNs() - r.aNs())).reversed());
    List<ThreadChanges> result = new ArrayList<>();
    for (PropertyRow row : candidates.subList(0, Math.min(topProperties, candidates.size()))) {
      Map<String, long[]> byThread = new LinkedHashMap<>();
      if (row.a() != null) {
        for (ThreadShare s : row.a().byThread()) {
          byThread.computeIfAbsent(s.thread(), k -> new long[2])[0] += s.severityNs();
        }
      }
      if (row.b() != null) {
        for (ThreadShare s : row.b().byThread()) {
          byThread.computeIfAbsent(s.thread(), k -> new long[2])[1] += s.severityNs();
        }
      }
      List<ThreadRow> threads = new ArrayList<>();
      byThread.forEach((t, v) -> threads.add(new ThreadRow(t, v[0], v[1])));
      threads.sort(Comparator.comparingLong((ThreadRow t) -> Math.abs(t.deltaNs())).reversed());
      result.add(new ThreadChanges(row, threads.subList(0, Math.min(topThreads, threads.size()))));
    }
    return result;
  }

  private static boolean hasThreads(PropertyRow row) {
    return (row.a() != null && !row.a().byThread().isEmpty())
        || (row.b() != null && !row.b().byThread().isEmpty());
  }

  /** {@code time} and {@code execution} measure useful work, not waiting. */
  public static boolean isWork(String id) {
    return id.equals("time") || id.equals("execution");
  }
}
