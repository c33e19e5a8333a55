package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.cause;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.property;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.report.TextReport;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DelayCostTest {
  @TempDir Path tmp;

  /**
   * The last arrival rotates: in round i thread i arrives at 900, the others at 100, so each round
   * costs 2 × 800, charged to that round's last arrival. Over the whole run every thread waits and
   * works the same (work_imbalance 0 for the barrier), yet each thread delayed the others by 1600.
   */
  @Test
  void barrierWaitsAreChargedToEachRoundsLastArrival() {
    AnalysisResult r = Analyzer.analyze(TraceFixture.rotatingStraggler(tmp.resolve("t")));
    for (String t : new String[] {"a", "b", "c"}) {
      assertEquals(1600, onThread(r, "delay_cost_barrier", t), t);
    }
    assertEquals(cause(r, "barrier_wait", "waiting_for_last_ns"), severity(r, "delay_cost"));
    // charged where the late threads worked: outside any region here
    assertEquals(4800, atPath(r, "delay_cost_barrier"));
    String text = TextReport.render(r);
    assertTrue(text.contains("Barrier delay cost 4.8 us, caused by: a 1.6 us"), text);
  }

  /**
   * a holds the lock in its critical section 100..300 (inside region "update"); b requests at 150
   * and c at 200: b waits 150 for a; c waits 200..400, split at the releases during it: 200..300
   * for a's hold (a's cost) and 300..400 for b's (b's cost).
   */
  @Test
  void lockWaitsAreChargedToTheHolderInItsCriticalSection() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int update = f.region("update", ConstructKind.USER_REGION, 30);
    int sync = f.region("synchronized", ConstructKind.MONITOR, 31);
    f.object(5, ConstructKind.MONITOR, 0);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    StreamWriter c = f.thread("c", 0);
    a.enter(90, update);
    a.lockRequest(100, sync, 5);
    a.lockAcquired(100, 5, 0);
    b.lockRequest(150, sync, 5);
    c.lockRequest(200, sync, 5);
    a.lockReleased(300, 5);
    a.exit(310, update);
    b.lockAcquired(320, 5, 0);
    b.lockReleased(400, 5);
    c.lockAcquired(410, 5, 0);
    c.lockReleased(500, 5);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    assertEquals(250, onThread(r, "delay_cost_lock", "a"));
    assertEquals(100, onThread(r, "delay_cost_lock", "b"));
    assertEquals(250, atPath(r, "delay_cost_lock", label("update", 30)));
    assertEquals(cause(r, "lock_contention", "waiting_for_holder_ns"), severity(r, "delay_cost"));
  }

  /**
   * w waits while 30 threads hold the lock in turn: h0..h8 for 1000 ns each, h9..h29 for 1 ns each.
   * The text names the nine that caused more than 1 % and counts the other 21, rather than listing
   * every thread (a program of thousands of short threads listed thousands).
   */
  @Test
  void aLongListOfCausersNamesTheLargestAndCountsTheRest() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 31);
    f.object(5, ConstructKind.MONITOR, 0);
    StreamWriter w = f.thread("w", 0);
    StreamWriter[] h = new StreamWriter[30];
    for (int i = 0; i < h.length; i++) {
      h[i] = f.thread("h" + i, 0);
    }
    w.lockRequest(5, sync, 5);
    long t = 10;
    for (int i = 0; i < h.length; i++) {
      long hold = i < 9 ? 1000 : 1;
      h[i].lockRequest(t, sync, 5);
      h[i].lockAcquired(t, 5, 0);
      h[i].lockReleased(t + hold, 5);
      t += hold + 1;
    }
    w.lockAcquired(t, 5, 0);
    w.lockReleased(t + 1, 5);
    AnalysisResult r = Analyzer.analyze(f.close(t + 10));
    assertEquals(30, property(r, "delay_cost_lock").byThread().size());
    String text = TextReport.render(r).replaceAll("\\s+", " ");
    assertTrue(text.contains("Lock delay cost 9.1 us, caused by: h"), text);
    assertTrue(text.contains("h8 "), text);
    assertTrue(text.contains("... 21 more (each ≤ 1 %)"), text);
    String causers = text.substring(text.indexOf("caused by:"), text.indexOf("more (each"));
    assertTrue(!causers.contains("h9 ") && !causers.contains("h29 "), causers);
  }
}
