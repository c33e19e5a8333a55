package dev.weft.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a property (its subtree included) changed at each call path over the last runs of one
 * program: the least-squares change across the runs, and the Mann-Kendall test of a monotonic trend
 * (two-sided p from the normal approximation with the tie correction), so that a call path whose
 * wait grew stands apart from one that only varied.
 */
public final class Trend {
  /** A trend is reported as growth when its p is below this and its change positive. */
  public static final double ALPHA = 0.05;

  /**
   * One call path's series.
   *
   * @param values the property's time at this call path in each run, oldest first (0 where absent)
   * @param changeNs the least-squares line's rise from the first run to the last
   * @param tau Kendall's tau of the values against run order
   * @param p two-sided p-value of the Mann-Kendall test (1 when fewer than 3 runs)
   */
  public record Row(
      long callpathKey, String callpath, long[] values, double changeNs, double tau, double p) {
    /** True when the series grew and the test says it is not chance. */
    public boolean grew() {
      return changeNs > 0 && p < ALPHA;
    }
  }

  /**
   * The result.
   *
   * @param mainClass the program whose runs were compared (null when the runs record none)
   * @param runIds the runs compared, oldest first
   * @param rows call paths, the largest change first
   */
  public record Result(String mainClass, List<String> runIds, List<Row> rows) {}

  // The queries are kept in the SQL that DuckDB and Spark both accept (weft-spark's tests run
  // each on both): no DuckDB-only functions, '!' as LIKE's escape (a backslash starts an escape
  // sequence inside Spark's string literals), parameters only where Spark takes a literal.

  /** The main class of the latest run. */
  public static final String LATEST_MAIN_CLASS_SQL =
      "SELECT main_class FROM runs"
          + " ORDER BY coalesce(started_at_ns, stored_at_ns) DESC, stored_at_ns DESC, run_id DESC"
          + " LIMIT 1";

  /**
   * The last N runs (parameter 2) of a main class (parameter 1), oldest first: by start time, then
   * (the same trace stored twice) by the time they were stored.
   */
  public static final String RUNS_SQL =
      "SELECT run_id FROM (SELECT run_id, coalesce(started_at_ns, stored_at_ns) AS t, stored_at_ns"
          + " FROM runs WHERE main_class IS NOT DISTINCT FROM ?"
          + " ORDER BY t DESC, stored_at_ns DESC, run_id DESC LIMIT ?)"
          + " ORDER BY t, stored_at_ns, run_id";

  /**
   * Per run of {@link #RUNS_SQL} (numbered from 0, oldest first) and call path, the time of the
   * subtree whose path matches the LIKE pattern (parameter 3, from {@link #subtreePattern}).
   */
  public static final String SERIES_SQL =
      "WITH r AS (SELECT run_id, row_number() OVER (ORDER BY t, stored_at_ns, run_id) - 1 AS i"
          + " FROM (SELECT run_id, coalesce(started_at_ns, stored_at_ns) AS t, stored_at_ns"
          + " FROM runs WHERE main_class IS NOT DISTINCT FROM ?"
          + " ORDER BY t DESC, stored_at_ns DESC, run_id DESC LIMIT ?)) SELECT r.i, x.callpath_key, sum(x.time_ns) FROM results x"
          + " JOIN r ON x.run_id = r.run_id WHERE x.property_path LIKE ? ESCAPE '!'"
          + " GROUP BY r.i, x.callpath_key";

  /** A readable call path for each key in the subtree (parameter 1, a LIKE pattern). */
  public static final String NAMES_SQL =
      "SELECT callpath_key, min(callpath) FROM results WHERE property_path LIKE ?"
          + " ESCAPE '!' GROUP BY callpath_key";

  /** Runs one of the queries above with positional parameters: DuckDB's JDBC, or Spark's. */
  @FunctionalInterface
  public interface Engine {
    /** The rows of {@code sql}, each as its column values (numbers as {@link Number}). */
    List<Object[]> rows(String sql, Object... params) throws SQLException;
  }

  private Trend() {}

  /** The LIKE pattern (escape '!') of the property paths in the subtree of {@code property}. */
  public static String subtreePattern(String property) {
    return "%/" + property.replaceAll("[!%_]", "!$0") + "/%";
  }

  /**
   * The trend of {@code property} over the last {@code last} runs of {@code mainClass} (null: the
   * program of the latest run), on DuckDB.
   */
  public static Result of(Connection c, String property, int last, String mainClass)
      throws SQLException {
    return of(jdbc(c), property, last, mainClass);
  }

  /** As above, on any engine that runs the queries. */
  public static Result of(Engine engine, String property, int last, String mainClass)
      throws SQLException {
    if (mainClass == null) {
      List<Object[]> latest = engine.rows(LATEST_MAIN_CLASS_SQL);
      mainClass = latest.isEmpty() ? null : (String) latest.get(0)[0];
    }
    List<String> runs = new ArrayList<>();
    for (Object[] r : engine.rows(RUNS_SQL, mainClass, last)) {
      runs.add((String) r[0]);
    }
    Map<Long, long[]> series = new LinkedHashMap<>();
    Map<Long, String> names = new HashMap<>();
    String like = subtreePattern(property);
    if (!runs.isEmpty()) {
      // The runs joined in SQL (DuckDB plans a join far better than IN (…)) and numbered there in
      // the order of the list above, so that the rows carry small integers, not run ids.
      for (Object[] r : engine.rows(SERIES_SQL, mainClass, last, like)) {
        long[] values =
            series.computeIfAbsent(((Number) r[1]).longValue(), k -> new long[runs.size()]);
        values[((Number) r[0]).intValue()] += ((Number) r[2]).longValue();
      }
      for (Object[] r : engine.rows(NAMES_SQL, like)) {
        names.put(((Number) r[0]).longValue(), (String) r[1]);
      }
    }
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<Long, long[]> e : series.entrySet()) {
      long[] v = e.getValue();
      double[] mk = mannKendall(v);
      rows.add(new Row(e.getKey(), names.get(e.getKey()), v, change(v), mk[0], mk[1]));
    }
    // Ties broken by key, so that both engines (whose rows come in different orders) agree.
    rows.sort(
        Comparator.comparingDouble(Row::changeNs).reversed().thenComparingLong(Row::callpathKey));
    return new Result(mainClass, runs, rows);
  }

  /** The engine of a DuckDB connection. */
  static Engine jdbc(Connection c) {
    return (sql, params) -> {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < params.length; i++) {
          ps.setObject(i + 1, params[i]);
        }
        List<Object[]> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          int n = rs.getMetaData().getColumnCount();
          while (rs.next()) {
            Object[] row = new Object[n];
            for (int i = 0; i < n; i++) {
              row[i] = rs.getObject(i + 1);
            }
            out.add(row);
          }
        }
        return out;
      }
    };
  }

  /** The least-squares slope times (n - 1): the fitted rise from the first run to the last. */
  static double change(long[] v) {
    int n = v.length;
    if (n < 2) {
      return 0;
    }
    double mx = (n - 1) / 2.0;
    double my = 0;
    for (long y : v) {
      my += y;
    }
    my /= n;
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < n; i++) {
      sxy += (i - mx) * (v[i] - my);
      sxx += (i - mx) * (i - mx);
    }
    return sxy / sxx * (n - 1);
  }

  /** Kendall's tau and the two-sided Mann-Kendall p-value of {@code v} against its order. */
  static double[] mannKendall(long[] v) {
    int n = v.length;
    if (n < 3) {
      return new double[] {0, 1};
    }
    long s = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        s += Long.signum(v[j] - v[i]);
      }
    }
    long[] sorted = v.clone();
    java.util.Arrays.sort(sorted);
    double ties = 0;
    for (int i = 0; i < n; ) {
      int j = i;
      while (j < n && sorted[j] == sorted[i]) {
        j++;
      }
      long t = j - i;
      ties += t * (t - 1) * (2 * t + 5);
      i = j;
    }
    double var = (n * (n - 1.0) * (2 * n + 5) - ties) / 18.0;
    double tau = s / (n * (n - 1) / 2.0);
    if (var <= 0) {
      return new double[] {tau, 1};
    }
    double z = s > 0 ? (s - 1) / Math.sqrt(var) : s < 0 ? (s + 1) / Math.sqrt(var) : 0;
    return new double[] {tau, Math.min(1, 2 * (1 - normalCdf(Math.abs(z))))};
  }

  /** The standard normal distribution function (Zelen and Severo, error below 7.5e-8). */
  static double normalCdf(double z) {
    double t = 1 / (1 + 0.2316419 * Math.abs(z));
    double d = 0.3989422804014327 * Math.exp(-z * z / 2);
    double p =
        d
            * t
            * (0.319381530
                + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    return z >= 0 ? 1 - p : p;
  }
}
