package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.check.AnalysisFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** weft check --history: a run gated against the store's last runs of its program. */
class CheckHistoryTest {
  @TempDir static Path tmp;
  private static Path trace;
  private static Path store;
  private static Path doc;

  @BeforeAll
  static void storeThreeRuns() throws Exception {
    trace = TestTraces.wellFormed(tmp.resolve("trace"));
    store = tmp.resolve("store");
    doc = tmp.resolve("a.json");
    Cli.Result analyzed =
        Cli.run("analyze", trace.toString(), "--format", "json", "-o", doc.toString());
    assertEquals(0, analyzed.exit(), analyzed.toString());
    for (int i = 0; i < 3; i++) {
      Cli.Result added = Cli.run("store", "add", store.toString(), trace.toString());
      assertEquals(0, added.exit(), added.toString());
    }
  }

  @Test
  void storedRunsRebuildTheReportsSeveritiesAndShares() throws Exception {
    AnalysisFile json = AnalysisFile.read(doc);
    List<AnalysisFile> runs =
        StoreHistory.lastRuns(store, "demo.Main", 2, false, new PrintWriter(new StringWriter()));
    assertEquals(2, runs.size());
    for (AnalysisFile.Property p : json.properties()) {
      AnalysisFile.Property q =
          runs.get(1).properties().stream().filter(x -> x.id().equals(p.id())).findFirst().get();
      assertEquals(p.severityNs(), q.severityNs(), p.id());
      assertEquals(p.percent(), q.percent(), 1e-9, p.id());
      assertEquals(p.byThread().size(), q.byThread().size(), p.id());
    }
  }

  @Test
  void theSameProgramPassesAgainstItsHistory() {
    Cli.Result r = Cli.run("check", doc.toString(), "--history", store.toString(), "--last", "3");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("against the median of the last 3 runs of demo.Main"), r.out());
  }

  @Test
  void theMedianRunHasEachPropertysMiddleShare() throws Exception {
    List<AnalysisFile> runs =
        StoreHistory.lastRuns(store, "demo.Main", 3, false, new PrintWriter(new StringWriter()));
    AnalysisFile json = AnalysisFile.read(doc);
    AnalysisFile median = StoreHistory.median(runs, "m");
    for (AnalysisFile.Property p : json.properties()) {
      AnalysisFile.Property q =
          median.properties().stream().filter(x -> x.id().equals(p.id())).findFirst().get();
      assertEquals(p.severityNs(), q.severityNs(), p.id()); // three equal runs
    }
    assertEquals(json.timeNs(), median.timeNs());
  }

  @Test
  void anotherProgramHasNoHistoryAndBothBaselinesAreRefused() {
    Cli.Result none =
        Cli.run("check", doc.toString(), "--history", store.toString(), "--main-class", "x.Y");
    assertEquals(2, none.exit(), none.toString());
    assertTrue(none.err().contains("no stored run of x.Y"), none.toString());
    Cli.Result both =
        Cli.run(
            "check", doc.toString(), "--history", store.toString(), "--baseline", doc.toString());
    assertEquals(2, both.exit(), both.toString());
  }
}
