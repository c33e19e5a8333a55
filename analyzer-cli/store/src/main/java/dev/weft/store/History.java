package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The history of a few properties over the last runs of one program, for the HTML report: each
 * property's value (its subtree summed, as {@code weft trend} sums it) in every run, the same at
 * the call paths that weigh most in the current run, and each run's time and labels. The series
 * come from {@link Trend#of}, so the page and {@code weft trend} never disagree.
 */
public final class History {
  /** How many runs the report shows by default. */
  public static final int DEFAULT_RUNS = 20;

  /** Call paths shown per property: those with the most time in the current run. */
  public static final int CALLPATHS = 3;

  /** The runs of {@link Trend#RUNS_SQL} with their times and labels, newest first. */
  static final String RUNS_SQL =
      "SELECT run_id, started_at_ns, stored_at_ns, map_keys(labels), map_values(labels) FROM runs"
          + " WHERE main_class IS NOT DISTINCT FROM ?"
          + " ORDER BY coalesce(started_at_ns, stored_at_ns) DESC, stored_at_ns DESC, run_id DESC"
          + " LIMIT ?";

  /**
   * A stored run.
   *
   * @param startedAtNs wall clock of its start, or null
   * @param labels its labels ({@code --label} and the trace's attributes), by key
   */
  public record Run(String runId, Long startedAtNs, long storedAtNs, Map<String, String> labels) {}

  /**
   * A series of values, one per run, oldest first (0 where the run has no time there).
   *
   * @param callpath the call path's frames joined by {@code " > "}; null for a property's total
   */
  public record Series(String callpath, long[] values, double changeNs, double p) {
    static Series of(String callpath, long[] values) {
      return new Series(callpath, values, Trend.change(values), Trend.mannKendall(values)[1]);
    }

    /** As {@link Trend.Row#grew()}: a rise the Mann-Kendall test says is not chance. */
    public boolean grew() {
      return changeNs > 0 && p < Trend.ALPHA;
    }
  }

  /** A property's total per run and its heaviest call paths in the current run. */
  public record PropertyHistory(String property, Series total, List<Series> callpaths) {}

  /**
   * The result.
   *
   * @param runs oldest first
   * @param current the index in {@code runs} of the run the report is about, -1 when it is not
   *     among them
   */
  public record Result(
      String mainClass, List<Run> runs, int current, List<PropertyHistory> properties) {
    /** The data the HTML report's history section reads (REPORT.md). */
    public JsonNode toJson(String store) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode root = m.createObjectNode();
      root.put("store", store);
      root.put("main_class", mainClass);
      root.put("current", current);
      ArrayNode rs = root.putArray("runs");
      for (Run r : runs) {
        ObjectNode o = rs.addObject();
        o.put("run_id", r.runId());
        if (r.startedAtNs() == null) {
          o.putNull("started_at_ns");
        } else {
          o.put("started_at_ns", r.startedAtNs());
        }
        o.put("stored_at_ns", r.storedAtNs());
        ObjectNode labels = o.putObject("labels");
        new TreeMap<>(r.labels()).forEach(labels::put);
      }
      ArrayNode ps = root.putArray("properties");
      for (PropertyHistory p : properties) {
        ObjectNode o = ps.addObject();
        o.put("id", p.property());
        series(o.putObject("total"), p.total());
        ArrayNode cs = o.putArray("callpaths");
        for (Series s : p.callpaths()) {
          series(cs.addObject(), s);
        }
      }
      return root;
    }

    private static void series(ObjectNode o, Series s) {
      if (s.callpath() != null) {
        o.put("callpath", s.callpath());
      }
      ArrayNode v = o.putArray("values");
      for (long x : s.values()) {
        v.add(x);
      }
      o.put("change_ns", Math.round(s.changeNs()));
      o.put("p", s.p());
      o.put("grew", s.grew());
    }
  }

  private History() {}

  /**
   * The last {@code last} runs of {@code mainClass} and the history of each of {@code properties}
   * over them.
   *
   * @param currentRunId the run the report is about (marked), or null
   */
  public static Result of(
      Connection c, String mainClass, int last, String currentRunId, List<String> properties)
      throws SQLException {
    List<Run> runs = runs(c, mainClass, last);
    int current = -1;
    for (int i = 0; i < runs.size(); i++) {
      if (runs.get(i).runId().equals(currentRunId)) {
        current = i;
      }
    }
    List<PropertyHistory> out = new ArrayList<>();
    for (String property : properties) {
      Trend.Result t = Trend.of(c, property, last, mainClass);
      long[] total = new long[runs.size()];
      for (Trend.Row r : t.rows()) {
        for (int i = 0; i < total.length; i++) {
          total[i] += r.values()[i];
        }
      }
      List<Trend.Row> heaviest = new ArrayList<>(t.rows());
      int at = current >= 0 ? current : runs.size() - 1;
      heaviest.removeIf(r -> r.values()[at] == 0);
      heaviest.sort(
          Comparator.comparingLong((Trend.Row r) -> r.values()[at])
              .reversed()
              .thenComparingLong(Trend.Row::callpathKey));
      List<Series> paths = new ArrayList<>();
      for (Trend.Row r : heaviest.subList(0, Math.min(CALLPATHS, heaviest.size()))) {
        paths.add(Series.of(r.callpath(), r.values()));
      }
      out.add(new PropertyHistory(property, Series.of(null, total), paths));
    }
    return new Result(mainClass, runs, current, out);
  }

  private static List<Run> runs(Connection c, String mainClass, int last) throws SQLException {
    List<Run> runs = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(RUNS_SQL)) {
      ps.setString(1, mainClass);
      ps.setInt(2, last);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long started = rs.getLong(2);
          Long startedAt = rs.wasNull() ? null : started;
          runs.add(
              new Run(
                  rs.getString(1),
                  startedAt,
                  rs.getLong(3),
                  labels(rs.getArray(4), rs.getArray(5))));
        }
      }
    }
    Collections.reverse(runs);
    return runs;
  }

  private static Map<String, String> labels(java.sql.Array keys, java.sql.Array values)
      throws SQLException {
    Map<String, String> out = new TreeMap<>();
    if (keys == null || values == null) {
      return out;
    }
    Object[] k = (Object[]) keys.getArray();
    Object[] v = (Object[]) values.getArray();
    for (int i = 0; i < k.length; i++) {
      out.put(String.valueOf(k[i]), v[i] == null ? null : String.valueOf(v[i]));
    }
    return out;
  }
}
