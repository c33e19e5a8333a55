package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.report.TextReport;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
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
}
