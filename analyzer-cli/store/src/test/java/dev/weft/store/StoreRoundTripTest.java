package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.AnalysisResult.CallPathSeverity;
import dev.weft.analysis.AnalysisResult.PropertyResult;
import dev.weft.analysis.AnalysisResult.ThreadSeverity;
import dev.weft.analysis.Analyzer;
import dev.weft.analysis.SyntheticTrace;
import dev.weft.trace.Trace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run analysed, stored and read back: its cells add up to the JSON report's values. */
class StoreRoundTripTest {
  @TempDir static Path tmp;

  private static AnalysisResult result;
  private static StoredRun run;
  private static Path store;

  @BeforeAll
  static void storeOneRun() throws Exception {
    Path trace = tmp.resolve("trace");
    SyntheticTrace.write(trace, 4, 40_000, new int[] {2, 2, 1, 1});
    StoredRun.CellCollector cells = new StoredRun.CellCollector();
    result = Analyzer.analyze(trace, cells.options(Analyzer.Options.defaults()));
    try (Trace t = Trace.open(trace)) {
      run = StoredRun.of(result, cells, t.definitions(), Map.of("commit", "abc'123"));
    }
    store = tmp.resolve("store");
    List<Path> files = StoreWriter.append(store, run);
    for (Path f : files) {
      assertTrue(Files.isRegularFile(f), f.toString());
    }
  }

  @Test
  void cellsAddUpToTheReportByPropertyThreadAndCallPath() throws Exception {
    try (StoreReader r = StoreReader.open(store, false)) {
      int checked = 0;
      for (PropertyResult p : result.properties()) {
        assertEquals(p.exclusiveNs(), sum(r, "property = ?", p.id()), p.id());
        for (ThreadSeverity t : p.byThread()) {
          assertEquals(
              t.severityNs(), sum(r, "property = ? AND thread = ?", p.id(), t.thread()), p.id());
        }
        for (CallPathSeverity c : p.byCallpath()) {
          assertEquals(
              c.severityNs(),
              sum(
                  r,
                  "property = ? AND callpath_key = ?",
                  p.id(),
                  Long.toString(CallPathKey.of(c.path()))),
              p.id() + " at " + c.path());
        }
        if (!p.id().equals("time")) { // the root also counts time outside every thread's cells
          assertEquals(
              p.severityNs(), sum(r, "property_path LIKE ?", "%/" + p.id() + "/%"), p.id());
        }
        checked += p.exclusiveNs() > 0 ? 1 : 0;
      }
      assertTrue(checked >= 3, "the synthetic trace has several properties with time");
    }
  }

  @Test
  void runRowHoldsTheTraceFactsAndLabels() throws Exception {
    try (StoreReader r = StoreReader.open(store, false);
        PreparedStatement ps =
            r.connection()
                .prepareStatement(
                    "SELECT run_id, duration_ns, thread_time_ns, status, labels['commit'], started_at_ns"
                        + " FROM runs");
        ResultSet rs = ps.executeQuery()) {
      assertTrue(rs.next());
      assertEquals(run.runId(), rs.getString(1));
      assertEquals(result.trace().durationNs(), rs.getLong(2));
      assertEquals(result.timeNs(), rs.getLong(3));
      assertEquals("complete", rs.getString(4));
      assertEquals("abc'123", rs.getString(5));
      assertEquals(1_700_000_000_000_000_000L + result.trace().window().startNs(), rs.getLong(6));
      assertFalse(rs.next());
    }
  }

  @Test
  void aStoreFromTheJsonDocumentKeepsTheCallPathSums() throws Exception {
    Path fromJson = tmp.resolve("from-json");
    StoreWriter.append(fromJson, StoredRun.of(result, null, null, Map.of()));
    try (StoreReader r = StoreReader.open(fromJson, false)) {
      for (PropertyResult p : result.properties()) {
        assertEquals(p.exclusiveNs(), sum(r, "property = ? AND thread IS NULL", p.id()), p.id());
      }
    }
  }

  private static long sum(StoreReader r, String where, String... args) throws SQLException {
    try (PreparedStatement ps =
        r.connection()
            .prepareStatement("SELECT coalesce(sum(time_ns), 0) FROM results WHERE " + where)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
