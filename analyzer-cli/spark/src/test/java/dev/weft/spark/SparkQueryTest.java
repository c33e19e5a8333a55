package dev.weft.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.store.StoreEngine;
import dev.weft.store.StoreWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
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

  @Test
  void badArgumentsAndBadSqlAreOneLineAndExitTwo() {
    Result usage = run("only-a-dir");
    assertEquals(2, usage.exit());
    assertTrue(usage.err().startsWith("weft: usage: SparkQuery"), usage.err());
    Result format = run("--format", "xml", "d", "q");
    assertEquals("weft: unknown format 'xml' (table, csv or json)\n", format.err());
  }
}
