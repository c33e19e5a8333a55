package dev.weft.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.store.StoreEngine;
import dev.weft.store.StoreReader;
import dev.weft.store.StoreSchema;
import dev.weft.store.StoreWriter;
import dev.weft.store.parquet.Codec;
import dev.weft.store.parquet.Column;
import dev.weft.store.parquet.Dictionary;
import dev.weft.store.parquet.RowBlock;
import dev.weft.store.parquet.RowOrder;
import dev.weft.store.parquet.TableWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SparkQuery as weft query runs it: damaged and foreign files, output formats, exit codes. */
class SparkQueryTest {
  @TempDir Path tmp;

  record Result(int exit, String out, String err) {}

  static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        SparkQuery.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void damagedFileIsNamedOrSkippedAndAnUnknownVersionIsRefused() throws Exception {
    Path store = tmp.resolve("store");
    StoreWriter.append(store, SameRowsOnBothEnginesTest.run("App", 1L, 0, new Random(1)));
    Path bad = Files.createDirectories(store.resolve("results/date=2026-01-01"));
    Path damaged = Files.writeString(bad.resolve("run-x.parquet"), "not parquet");
    String sql = "SELECT count(*) AS cells FROM results";

    Result refused = run("--master", "local[1]", store.toString(), sql);
    assertEquals(2, refused.exit(), refused.toString());
    assertEquals("", refused.out());
    assertTrue(
        refused.err().startsWith("weft: " + damaged + ": damaged or not a Parquet file"),
        refused.err());
    assertEquals(1, refused.err().lines().count(), refused.err());

    Result skipped =
        run("--master", "local[1]", "--skip-damaged", "--format", "json", store.toString(), sql);
    assertEquals(0, skipped.exit(), skipped.toString());
    assertEquals("[{\"cells\":6}]\n", skipped.out());
    assertEquals(
        "weft: warning: skipped 1 damaged or foreign file: " + damaged + "\n", skipped.err());

    Path newer = bad.resolve("run-y.parquet");
    try (Connection c = StoreEngine.open();
        Statement st = c.createStatement()) {
      st.execute(
          "COPY (SELECT 'r' AS run_id) TO '"
              + newer
              + "' (FORMAT parquet, KV_METADATA {'weft.store.schema': '99'})");
    }
    Result version = run("--master", "local[1]", "--skip-damaged", store.toString(), sql);
    assertEquals(2, version.exit(), version.toString());
    assertEquals(
        "weft: " + newer + ": store schema version 99; this weft reads version(s) [1]\n",
        version.err());
  }

  /**
   * An export table whose files disagree on which columns may be null: Weft's own writer marks
   * non-null columns REQUIRED, a copy made by another tool (here DuckDB) marks every column
   * OPTIONAL. Both engines read both files as one table and agree.
   */
  @Test
  void filesWithRequiredAndOptionalColumnsReadAsOneTable() throws Exception {
    Path store = tmp.resolve("store");
    StoreWriter.append(store, SameRowsOnBothEnginesTest.run("App", 1L, 0, new Random(1)));
    Path part = Files.createDirectories(store.resolve("wait_intervals/date=2026-01-01"));
    Path ours = part.resolve("run-a.parquet");
    Dictionary threads = Dictionary.ofStrings();
    List<Column> columns =
        List.of(
            Column.string("thread", false, threads),
            Column.int64("dur_ns", false),
            Column.int64("object_id", true));
    try (TableWriter w =
        TableWriter.create(
            part.resolve(".run-a.tmp"),
            columns,
            Map.of(StoreSchema.VERSION_KEY, "1"),
            Codec.GZIP,
            RowOrder.AS_ADDED,
            1024)) {
      for (int i = 0; i < 10; i++) {
        RowBlock b = w.block();
        int r = b.add();
        b.ints[0][r] = threads.id("worker-" + (i % 3));
        b.longs[1][r] = 1_000L * (i + 1);
        if (i % 4 == 0) {
          b.setNull(2, r);
        } else {
          b.longs[2][r] = i;
        }
      }
      w.finish(ours);
    }
    try (Connection c = StoreEngine.open();
        Statement st = c.createStatement()) {
      st.execute(
          "COPY (SELECT thread || '-copy' AS thread, dur_ns, object_id FROM read_parquet('"
              + ours
              + "')) TO '"
              + part.resolve("run-b.parquet")
              + "' (FORMAT parquet, KV_METADATA {'"
              + StoreSchema.VERSION_KEY
              + "': '1'})");
    }
    String sql =
        "SELECT thread, count(*) AS waits, sum(dur_ns) AS ns, count(object_id) AS objects"
            + " FROM wait_intervals GROUP BY thread ORDER BY thread";
    Result spark = run("--master", "local[1]", "--format", "csv", store.toString(), sql);
    assertEquals(0, spark.exit(), spark.toString());
    StringBuilder duck = new StringBuilder("thread,waits,ns,objects\r\n"); // CSV: RFC 4180 lines
    try (StoreReader reader = StoreReader.open(store, false);
        ResultSet rs = reader.connection().createStatement().executeQuery(sql)) {
      while (rs.next()) {
        duck.append(rs.getString(1)).append(',').append(rs.getLong(2)).append(',');
        duck.append(rs.getLong(3)).append(',').append(rs.getLong(4)).append("\r\n");
      }
    }
    assertEquals(duck.toString(), spark.out());
    assertEquals(7, spark.out().lines().count(), spark.out()); // header and 3 threads twice
    assertTrue(spark.out().contains("worker-0,4,22000,3\r\n"), spark.out());
    assertTrue(spark.out().contains("worker-0-copy,4,22000,3\r\n"), spark.out());
  }

  @Test
  void badArgumentsAndBadSqlAreOneLineAndExitTwo() {
    Result usage = run("only-a-dir");
    assertEquals(2, usage.exit());
    assertTrue(usage.err().startsWith("weft: usage: SparkQuery"), usage.err());
    Result format = run("--format", "xml", "d", "q");
    assertEquals("weft: unknown format 'xml' (table, csv or json)\n", format.err());
  }
}
