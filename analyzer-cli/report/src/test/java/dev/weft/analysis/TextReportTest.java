package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.report.TextReport;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextReportTest {
  @TempDir Path tmp;

  /**
   * Three threads meet at a barrier three times; thread i arrives last in round i, so every thread
   * waits about as long as the others: the advice says that the straggler rotates.
   */
  @Test
  void adviceFollowsTheFindingForARotatingStraggler() {
    String text =
        TextReport.render(Analyzer.analyze(TraceFixture.rotatingStraggler(tmp.resolve("t"))));
    assertTrue(text.contains("changes from round to round"), text);
    assertFalse(text.contains("nonzeros"), text);
  }

  /** A thread waits for a lock at eight call sites, each 1/8 of the contention: all are shown. */
  @Test
  void neverHidesACallPathHoldingMoreThanOnePercent() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int[] sites = new int[8];
    for (int k = 0; k < sites.length; k++) {
      sites[k] = f.region("lock" + k, ConstructKind.REENTRANT_LOCK, 50 + k);
    }
    f.object(7, ConstructKind.REENTRANT_LOCK, 0);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    for (int k = 0; k < sites.length; k++) {
      long t = 100 + 100L * k;
      a.lockRequest(t, sites[k], 7);
      a.lockAcquired(t, 7, 0);
      b.lockRequest(t + 10, sites[k], 7);
      a.lockReleased(t + 50, 7);
      b.lockAcquired(t + 50 + k, 7, 0);
      b.lockReleased(t + 60, 7);
    }
    String text = TextReport.render(Analyzer.analyze(f.close(1000)));
    for (int k = 0; k < sites.length; k++) {
      assertTrue(text.contains("lock" + k + " @ Main.java:" + (50 + k)), text);
    }
    assertFalse(text.contains("smaller"), text);
  }

  /**
   * Regions in which nothing was lost (a latch counted down once by each of two threads, one
   * instance each: nobody waited for anybody) are not listed as imbalanced, however different the
   * members' summed busy times; the JSON keeps them.
   */
  @Test
  void regionsThatLostNothingAreNotListedAsImbalanced() {
    AnalysisResult r = Analyzer.analyze(TraceFixture.rotatingStraggler(tmp.resolve("t")));
    AnalysisResult.RegionResult lostSome = r.regions().get(0);
    assertTrue(lostSome.lostNs() > 0, r.regions().toString());
    AnalysisResult.RegionResult lostNothing =
        new AnalysisResult.RegionResult(
            "CountDownLatch.countDown",
            "SingleThreadEventExecutor.java:1278",
            3,
            Map.of("event-loop", 390_000_000L, "acceptor", 470_000L),
            1.996,
            0);
    String text = TextReport.render(withRegions(r, List.of(lostSome, lostNothing)));
    assertTrue(text.contains("Most imbalanced regions"), text);
    assertTrue(text.contains(lostSome.name() + " @ " + lostSome.location()), text);
    assertFalse(text.contains("CountDownLatch.countDown"), text);

    String none = TextReport.render(withRegions(r, List.of(lostNothing)));
    assertFalse(none.contains("Most imbalanced regions"), none);
  }

  private static AnalysisResult withRegions(
      AnalysisResult r, List<AnalysisResult.RegionResult> regions) {
    return new AnalysisResult(
        r.format(),
        r.status(),
        r.statusDetail(),
        r.trace(),
        r.timeNs(),
        r.properties(),
        regions,
        r.notes(),
        r.criticalPath());
  }
}
