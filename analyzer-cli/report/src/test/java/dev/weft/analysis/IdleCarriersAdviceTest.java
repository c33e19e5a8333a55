package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.report.TextReport;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.PoolDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the text report advises when the idle threads are carriers of virtual threads. */
class IdleCarriersAdviceTest {
  @TempDir Path tmp;

  /**
   * Carrier c1 runs virtual thread v1 for 100 of its 1000 ns and is idle the rest: the advice
   * speaks of virtual threads that were not ready to run, not of a master working alone.
   */
  @Test
  void idleCarriersGetAdviceAboutVirtualThreads() throws Exception {
    Path dir = tmp.resolve("t");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.definePool(new PoolDef(1, ConstructKind.VIRTUAL_THREAD, "virtual thread scheduler", 1));
      StreamWriter c1 = w.openStream(1, "c1", 0, 1, 0);
      c1.vthreadMount(0, 100);
      w.defineCarriedThread(100, "v1", 0, 0);
      c1.threadBegin(1);
      c1.threadEnd(100);
      c1.vthreadUnmount(100, 100);
      w.close(1000);
    }
    AnalysisResult r = Analyzer.analyze(dir);
    assertEquals(900, Check.onThread(r, "idle_threads", "c1"));
    String text = TextReport.render(r).replaceAll("\\s+", " ");
    assertTrue(text.contains("The idle threads are carriers of virtual threads"), text);
    assertFalse(text.contains("master-only pattern"), text);
  }
}
