package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.AnalysisResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** weft analyze --store, weft store add, weft query and weft trend, in-process. */
class StoreCommandTest {
  @TempDir static Path tmp;
  private static Path trace;
  private static Path store;
  private static AnalysisResult json;

  @BeforeAll
  static void storeTwoRuns() throws Exception {
    trace = TestTraces.wellFormed(tmp.resolve("trace"));
    store = tmp.resolve("store");
    Path doc = tmp.resolve("a.json");
    Cli.Result analyzed =
        Cli.run(
            "analyze",
            trace.toString(),
            "--format",
            "json",
            "-o",
            doc.toString(),
            "--store",
            store.toString(),
            "--label",
            "commit=abc");
    assertEquals(0, analyzed.exit(), analyzed.toString());
    assertTrue(analyzed.err().contains("stored run"), analyzed.toString());
    json = AnalysisJson.read(doc);
    Cli.Result added =
        Cli.run("store", "add", store.toString(), doc.toString(), "--label", "commit=def");
    assertEquals(0, added.exit(), added.toString());
  }

  @Test
  void queryAsJsonGivesEachRunsCellsSummingToTheReport() throws Exception {
    Cli.Result r =
        Cli.run(
            "query",
            store.toString(),
            "SELECT labels['commit'] AS commit, main_class, property, sum(time_ns) AS ns FROM runs"
                + " JOIN results USING (run_id) GROUP BY ALL ORDER BY ALL",
            "--format",
            "json");
    assertEquals(0, r.exit(), r.toString());
    JsonNode rows = new ObjectMapper().readTree(r.out());
    assertTrue(rows.get(0).get("ns").isIntegralNumber(), r.out());
    int seen = 0;
    for (JsonNode row : rows) {
      assertTrue(row.get("main_class").asText().equals("demo.Main"), row.toString());
      long expected = json.property(row.get("property").asText()).exclusiveNs();
      assertEquals(expected, row.get("ns").asLong(), row.toString());
      seen++;
    }
    assertTrue(seen >= 4, r.out());
    assertEquals(2, rows.findValuesAsText("commit").stream().distinct().count(), r.out());
  }

  @Test
  void queryAsTableAndCsv() {
    Cli.Result table = Cli.run("query", store.toString(), "SELECT count(*) AS runs FROM runs");
    assertEquals(0, table.exit(), table.toString());
    assertEquals("runs\n----\n   2\n(2 rows)\n".replace("(2 rows)", "(1 row)"), table.out());
    Cli.Result csv =
        Cli.run("query", store.toString(), "SELECT 'a,\"b' AS s, 1 AS n", "--format", "csv");
    assertEquals("s,n\r\n\"a,\"\"b\",1\r\n", csv.out());
  }

  @Test
  void aFileUriIsTheLocalStoreAndOtherUrisAreForSparkOnly() {
    Cli.Result uri =
        Cli.run("query", store.toUri().toString(), "SELECT count(*) AS runs FROM runs");
    assertEquals(0, uri.exit(), uri.toString());
    assertEquals("runs\n----\n   2\n(1 row)\n", uri.out());
    for (String command : new String[] {"query", "trend"}) {
      Cli.Result remote =
          command.equals("query")
              ? Cli.run("query", "hdfs://namenode:8020/weft", "SELECT 1")
              : Cli.run("trend", "s3a://bucket/weft", "--property", "lock_contention");
      assertEquals(ExitCodes.BAD_INPUT, remote.exit(), remote.toString());
      assertEquals(1, remote.err().lines().count(), remote.err());
      assertTrue(remote.err().contains("read with --engine spark"), remote.err());
    }
    Cli.Result master =
        Cli.run("trend", store.toString(), "--property", "lock_contention", "--master", "x");
    assertEquals("weft: --master is for --engine spark\n", master.err());
  }

  @Test
  void trendListsTheStoredCallPaths() {
    Cli.Result r =
        Cli.run("trend", store.toString(), "--property", "lock_contention", "--last", "5");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(
        r.outLines().get(0).startsWith("lock_contention (subtree) over the last 2 runs of"),
        r.out());
    assertTrue(r.out().contains("call path"), r.out());
  }

  @Test
  void badInputIsOneLineAndExitTwo() throws Exception {
    Cli.Result sql = Cli.run("query", store.toString(), "SELECT nope FROM runs");
    assertEquals(2, sql.exit(), sql.toString());
    assertEquals(1, sql.errLines().size(), sql.toString());
    Cli.Result property = Cli.run("trend", store.toString(), "--property", "no_such");
    assertEquals(2, property.exit(), property.toString());
    Cli.Result label = Cli.run("analyze", trace.toString(), "--label", "a=b");
    assertEquals(2, label.exit(), label.toString());

    Path damaged = tmp.resolve("damaged");
    assertEquals(0, Cli.run("store", "add", damaged.toString(), trace.toString()).exit());
    Path file;
    try (Stream<Path> files = Files.walk(damaged.resolve("runs"))) {
      file = files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    Files.writeString(file, "not parquet");
    Cli.Result r = Cli.run("query", damaged.toString(), "SELECT count(*) FROM runs");
    assertEquals(2, r.exit(), r.toString());
    assertTrue(r.err().startsWith("weft: " + file + ": damaged"), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    Cli.Result skipped =
        Cli.run("query", damaged.toString(), "SELECT count(*) AS n FROM runs", "--skip-damaged");
    assertEquals(0, skipped.exit(), skipped.toString());
    assertTrue(skipped.err().contains("skipped 1 damaged or foreign file"), skipped.toString());
  }
}
