package dev.weft.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The "what to do" line, built from what was found. */
class AdviceTest {
  @TempDir Path tmp;

  /**
   * main awaits a latch (100 to 1,000 ns) that a worker counts down after its work (RxJava's {@code
   * blockingGet()} does this): the one waiter waits for the worker's work, as a join would. No
   * advice to move work from "the busiest thread" to main, which had none to give.
   */
  @Test
  void aLatchAwaitedByOneThreadIsAWaitForTheOthersWork() throws Exception {
    Path dir = tmp.resolve("latch");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      Fixtures.region(w, 1, ConstructKind.COUNT_DOWN_LATCH, "CountDownLatch.await", "Main.java", 5);
      Fixtures.region(
          w, 2, ConstructKind.COUNT_DOWN_LATCH, "CountDownLatch.countDown", "W.java", 9);
      Fixtures.region(w, 3, ConstructKind.USER_REGION, "work", "W.java", 8);
      w.defineObject(new ObjectDef(50, ConstructKind.COUNT_DOWN_LATCH, "CountDownLatch", 1));
      StreamWriter main = w.openStream(1, "main", 0, 0, 0);
      StreamWriter worker = w.openStream(2, "worker", 0, 0, 0);
      main.threadBegin(0);
      worker.threadBegin(0);
      worker.enter(10, 3);
      main.barrierEnter(100, 1, 50, 0);
      worker.exit(990, 3);
      worker.barrierEnter(995, 2, 50, 0);
      worker.barrierExit(996, 2, 50, 0, BarrierOutcome.LAST);
      main.barrierExit(1_000, 1, 50, 0, 0);
      worker.threadEnd(1_010);
      main.threadEnd(1_020);
      w.close(1_100);
    }
    AnalysisResult r = Analyzer.analyze(dir);
    AnalysisResult.PropertyResult p = r.property("barrier_wait");
    assertTrue(p.exclusiveNs() > 800, "main's wait: " + p.exclusiveNs());
    String advice = Advice.of(p, r);
    assertTrue(advice.contains("is main waiting for other threads to arrive"), advice);
    assertFalse(advice.contains("Move work from the busiest threads"), advice);
  }
}
