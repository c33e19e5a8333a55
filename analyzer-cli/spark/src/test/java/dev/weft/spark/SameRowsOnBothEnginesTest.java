package dev.weft.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.store.StoreReader;
import dev.weft.store.StoreWriter;
import dev.weft.store.StoredRun;
import dev.weft.store.Trend;
import dev.weft.store.TrendLines;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every canned query of the store and a few ad-hoc ones give the same rows on DuckDB and on Spark
 * {@code local[*]} over the same store, and the views have the same column types on both.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SameRowsOnBothEnginesTest {
  private SparkSession spark;
  private StoreReader duck;

  @BeforeAll
  void storeAndEngines(@TempDir Path tmp) throws Exception {
    Path store = tmp.resolve("store");
    Random random = new Random(11);
    try (StoreWriter w = StoreWriter.open()) {
      for (int i = 0; i < 8; i++) {
        w.add(store, run("App", 1_000L * (i + 1), i, random));
        w.add(store, run("Other", 1_000L * (i + 1) + 1, i, random));
      }
      // A run whose trace is gone: no start time, no program.
      w.add(store, run(null, null, 0, random));
    }
    duck = StoreReader.open(store, false);
    spark = SparkQuery.session("local[2]");
    assertEquals(List.of(), SparkStore.register(spark, store.toString(), false));
  }

  @AfterAll
  void close() {
    if (duck != null) {
      duck.close();
    }
    if (spark != null) {
      spark.stop();
    }
  }

  /** A run with cells in two properties of the wait subtree, two threads, labels. */
  static StoredRun run(String mainClass, Long startedAt, int i, Random random) {
    List<StoredRun.Cell> cells = new ArrayList<>();
    for (String thread : List.of("main", "worker-1")) {
      cells.add(
          cell(
              "lock_contention",
              "/time/wait/lock_contention/",
              "grows @ App.java:20",
              thread,
              1_000_000L + 200_000L * i + random.nextInt(50_000)));
      cells.add(
          cell(
              "lock_contention",
              "/time/wait/lock_contention/",
              "flat @ App.java:30",
              thread,
              3_000_000L + random.nextInt(400_000)));
      cells.add(
          cell(
              "barrier_wait",
              "/time/wait/barrier_wait/",
              "flat @ App.java:30",
              thread,
              random.nextInt(1_000_000)));
    }
    return new StoredRun(
        UUID.randomUUID().toString(),
        startedAt,
        1000 + i,
        4000 + i,
        "host",
        "jvm",
        mainClass,
        i % 3 == 0 ? "cut" : "complete",
        Map.of(
            "commit", "c" + i,
            "build", Integer.toString(100 + i),
            // Label text that DuckDB quotes inside a map.
            "a'quote", "x, y",
            "path", "C:\\dir\\{a}",
            "empty", "",
            "none", "null",
            "pad", " x"),
        cells);
  }

  private static StoredRun.Cell cell(
      String property, String path, String frame, String thread, long ns) {
    return new StoredRun.Cell(
        property, "wait", path, List.of("main @ App.java:1", frame), thread, ns);
  }

  @Test
  void cannedQueriesGiveTheSameRows() throws Exception {
    String wait = Trend.subtreePattern("wait");
    String lock = Trend.subtreePattern("lock_contention");
    same(Trend.LATEST_MAIN_CLASS_SQL);
    same(Trend.RUNS_SQL, "App", 5);
    same(Trend.RUNS_SQL, null, 5);
    same(Trend.SERIES_SQL, "App", 6, wait);
    same(Trend.SERIES_SQL, "Other", 20, lock);
    same(Trend.NAMES_SQL, wait);
    same("SELECT * FROM properties");
  }

  @Test
  void trendGivesTheSameResultOnBothEngines() throws Exception {
    for (String property : List.of("wait", "lock_contention", "barrier_wait")) {
      for (String mainClass : Arrays.asList("App", "Other", null)) {
        Trend.Result onDuck = Trend.of(duck.connection(), property, 6, mainClass);
        Trend.Result onSpark = SparkTrend.of(spark, property, 6, mainClass);
        assertFalse(onDuck.rows().isEmpty(), property + " " + mainClass);
        // The text form holds every figure exactly (doubles in hex).
        assertEquals(
            TrendLines.write(onDuck), TrendLines.write(onSpark), property + " " + mainClass);
      }
    }
    Trend.Result app = SparkTrend.of(spark, "wait", 8, "App");
    assertTrue(app.rows().get(0).callpath().endsWith("grows @ App.java:20"));
    assertTrue(app.rows().get(0).grew(), "p " + app.rows().get(0).p());
  }

  @Test
  void adHocQueriesGiveTheSameRows() throws Exception {
    same("SELECT * FROM runs");
    same("SELECT * FROM results");
    // STORE.md's example.
    same(
        "SELECT labels['commit'] AS commit, sum(time_ns) AS lock_ns"
            + " FROM runs JOIN results USING (run_id)"
            + " WHERE property_path LIKE '%/lock_contention/%'"
            + " GROUP BY ALL ORDER BY min(started_at_ns)");
    same(
        "SELECT main_class, thread, count(*) AS n, avg(time_ns) AS mean, max(time_ns) AS top"
            + " FROM runs r JOIN results x ON r.run_id = x.run_id"
            + " WHERE status = 'complete' GROUP BY main_class, thread");
    same(
        "SELECT callpath_key, callpath, sum(time_ns) AS ns FROM results"
            + " WHERE property_path LIKE '%/wait/%' GROUP BY callpath_key, callpath"
            + " ORDER BY ns DESC LIMIT 2");
  }

  @Test
  void viewsHaveDuckDbsColumnTypes() throws Exception {
    for (String table : List.of("runs", "results", "properties")) {
      List<String> duckTypes = new ArrayList<>();
      try (PreparedStatement ps = duck.connection().prepareStatement("DESCRIBE " + table);
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          duckTypes.add(rs.getString(1) + " " + sparkName(rs.getString(2)));
        }
      }
      List<String> sparkTypes = new ArrayList<>();
      for (StructField f : spark.table(table).schema().fields()) {
        sparkTypes.add(f.name() + " " + f.dataType().simpleString());
      }
      assertEquals(duckTypes, sparkTypes, table);
    }
  }

  /** DuckDB's type name as Spark names the same type. */
  private static String sparkName(String duckType) {
    return duckType
        .replace("VARCHAR", "string")
        .replace("BIGINT", "bigint")
        .replaceAll("MAP\\((\\w+), (\\w+)\\)", "map<$1,$2>");
  }

  /** Runs {@code sql} with positional parameters on both engines; asserts the same rows. */
  private void same(String sql, Object... params) throws Exception {
    List<List<String>> onDuck = new ArrayList<>();
    try (PreparedStatement ps = duck.connection().prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        ResultSetMetaData md = rs.getMetaData();
        while (rs.next()) {
          String[] row = new String[md.getColumnCount()];
          for (int i = 0; i < row.length; i++) {
            row[i] = rs.getString(i + 1);
          }
          onDuck.add(Arrays.asList(row));
        }
      }
    }
    Dataset<Row> result = spark.sql(sql, params);
    List<List<String>> onSpark = new ArrayList<>();
    for (Row r : result.collectAsList()) {
      String[] row = new String[r.size()];
      for (int i = 0; i < row.length; i++) {
        row[i] = SparkQuery.text(r.get(i));
      }
      onSpark.add(Arrays.asList(row));
    }
    assertFalse(onDuck.isEmpty(), "no rows on DuckDB: " + sql);
    assertEquals(sorted(onDuck), sorted(onSpark), sql);
  }

  private static List<List<String>> sorted(List<List<String>> rows) {
    List<List<String>> s = new ArrayList<>(rows);
    s.sort(Comparator.comparing(Object::toString));
    return s;
  }
}
