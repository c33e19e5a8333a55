package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.AnalysisResult;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** weft export --format parquet, read back with weft query. */
class ParquetExportTest {
  @TempDir Path tmp;

  @Test
  void waitIntervalsAndEventsAreQueryableAndSumToTheAnalysis() throws Exception {
    Path trace = TestTraces.wellFormed(tmp.resolve("trace"));
    Path store = tmp.resolve("store");
    Cli.Result exported =
        Cli.run(
            "export", trace.toString(), "--format", "parquet", "-o", store.toString(), "--events");
    assertEquals(0, exported.exit(), exported.toString());
    assertTrue(exported.err().contains("wait intervals"), exported.toString());
    Path doc = tmp.resolve("a.json");
    assertEquals(
        0, Cli.run("analyze", trace.toString(), "--format", "json", "-o", doc.toString()).exit());
    AnalysisResult json = AnalysisJson.read(doc);
    Cli.Result q =
        Cli.run(
            "query",
            store.toString(),
            "SELECT property, sum(wait_ns) AS ns, count(*) AS n FROM wait_intervals GROUP BY ALL",
            "--format",
            "json");
    assertEquals(0, q.exit(), q.toString());
    JsonNode rows = new ObjectMapper().readTree(q.out());
    assertTrue(rows.size() >= 1, q.out());
    for (JsonNode row : rows) {
      String id = row.get("property").asText();
      if (!id.equals("thread_management")) {
        assertEquals(json.property(id).exclusiveNs(), row.get("ns").asLong(), row.toString());
      }
    }
    Cli.Result events = Cli.run("query", store.toString(), "SELECT count(*) AS n FROM events");
    assertEquals(0, events.exit(), events.toString());
    assertTrue(!events.out().contains(" 0\n"), events.out());
  }

  @Test
  void parquetNeedsAnOutputDirectoryAndEventsNeedParquet() throws Exception {
    Path trace = TestTraces.wellFormed(tmp.resolve("trace"));
    Cli.Result noDir = Cli.run("export", trace.toString(), "--format", "parquet");
    assertEquals(2, noDir.exit(), noDir.toString());
    assertTrue(noDir.err().contains("-o"), noDir.toString());
    Cli.Result events = Cli.run("export", trace.toString(), "--events");
    assertEquals(2, events.exit(), events.toString());
    assertTrue(events.err().contains("--format parquet"), events.toString());
    Cli.Result codec = Cli.run("export", trace.toString(), "--compression", "none");
    assertEquals(2, codec.exit(), codec.toString());
    assertTrue(codec.err().contains("--format parquet"), codec.toString());
  }

  @Test
  void uncompressedExportsAreQueryable() throws Exception {
    Path trace = TestTraces.wellFormed(tmp.resolve("trace"));
    Path store = tmp.resolve("store");
    Cli.Result exported =
        Cli.run(
            "export",
            trace.toString(),
            "--format",
            "parquet",
            "-o",
            store.toString(),
            "--compression",
            "none");
    assertEquals(0, exported.exit(), exported.toString());
    Cli.Result q =
        Cli.run(
            "query",
            store.toString(),
            "SELECT count(*) AS n FROM wait_intervals",
            "--format",
            "csv");
    assertEquals(0, q.exit(), q.toString());
    assertTrue(
        q.out().contains(exported.err().replaceAll("(?s).*: (\\d+) wait intervals.*", "$1")),
        q.out() + exported.err());
  }
}
