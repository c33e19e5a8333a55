package dev.weft.analysis;

import static dev.weft.analysis.Check.severity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vthread_pinning}, {@code carrier_utilisation} and carriers' idle time on a trace written
 * by hand.
 */
class VirtualThreadPropertiesTest {
  private static final long MONITOR = 11;

  /** Times below are in microseconds: locks count as blocked from 50 µs. */
  private static final long US = 1000;

  @TempDir Path tmp;

  /**
   * Carriers c1 and c2. Virtual thread 100 blocks 1000 µs on a monitor while mounted on c1 (pinned,
   * as on JDK 21 to 23), then sleeps unmounted and ends on c2; virtual thread 101 sleeps 500 µs
   * without unmounting (pinned) on c2, and takes the monitor at once (not blocked).
   */
  private Path trace() throws Exception {
    Path dir = tmp.resolve("t");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.defineRegion(
          new RegionDef(
              1, ConstructKind.MONITOR, "synchronized", "app.Main", "run", "M.java", 5, 0));
      w.defineRegion(
          new RegionDef(2, ConstructKind.SLEEP, "Thread.sleep", "app.Main", "run", "M.java", 6, 0));
      w.definePool(new PoolDef(1, ConstructKind.VIRTUAL_THREAD, "virtual thread scheduler", 2));
      w.defineObject(new ObjectDef(MONITOR, ConstructKind.MONITOR, "Object", 0));
      StreamWriter c1 = w.openStream(1, "c1", 0, 1, 0);
      StreamWriter c2 = w.openStream(2, "c2", 0, 1, 0);
      c1.vthreadMount(0, 100);
      w.defineCarriedThread(100, "v1", 0, 0);
      c1.threadBegin(1 * US);
      c1.lockRequest(10 * US, 1, MONITOR);
      c1.lockAcquired(1010 * US, MONITOR, 0);
      c1.lockReleased(1020 * US, MONITOR);
      c1.waitEnter(1030 * US, 2, WaitKind.SLEEP);
      c1.vthreadUnmount(1040 * US, 100);
      c2.vthreadMount(100 * US, 101);
      w.defineCarriedThread(101, "v2", 0, 100 * US);
      c2.threadBegin(101 * US);
      c2.waitEnter(200 * US, 2, WaitKind.SLEEP);
      c2.waitExit(700 * US, 2);
      c2.lockRequest(705 * US, 1, MONITOR);
      c2.lockAcquired(706 * US, MONITOR, 0);
      c2.lockReleased(707 * US, MONITOR);
      c2.threadEnd(710 * US);
      c2.vthreadUnmount(720 * US, 101);
      c2.vthreadMount(3000 * US, 100);
      c2.waitExit(3010 * US, 2);
      c2.threadEnd(3020 * US);
      c2.vthreadUnmount(3030 * US, 100);
      w.close(4000 * US);
    }
    return dir;
  }

  @Test
  void blocksWithoutAnUnmountArePinned() throws Exception {
    AnalysisResult r = Analyzer.analyze(trace());
    assertEquals(1500 * US, severity(r, "vthread_pinning"));
    AnalysisResult.PropertyResult p = r.property("vthread_pinning");
    assertEquals(Map.of("monitor", 1000 * US, "sleep", 500 * US), p.causes());
    assertEquals(1000 * US, p.thread("v1"));
    assertEquals(500 * US, p.thread("v2"));
  }

  /**
   * A carrier runs a virtual thread from its mount to its unmount: that is not idle time but the
   * carrier's execution at (running virtual threads). Both carriers live 0..4000 µs (defined at 0,
   * no THREAD_END); c1 runs v1 0..1040, c2 runs v2 100..720 and v1 3000..3030. Each carrier's life
   * is counted once.
   */
  @Test
  void carriersAreNotIdleWhileTheyRunAVirtualThread() throws Exception {
    AnalysisResult r = Analyzer.analyze(trace());
    assertEquals((4000 - 1040) * US, Check.onThread(r, "idle_threads", "c1"));
    assertEquals((4000 - 620 - 30) * US, Check.onThread(r, "idle_threads", "c2"));
    assertEquals(
        (1040 + 620 + 30) * US,
        Check.atPath(r, "execution", CallPathTree.RUNNING_VIRTUAL_THREADS_LABEL));
    assertEquals(1040 * US, Check.onThread(r, "execution", "c1"));
    assertEquals(650 * US, Check.onThread(r, "execution", "c2"));
    Check.partition(r, Map.of("c1", 4000 * US, "c2", 4000 * US, "v1", 3019 * US, "v2", 609 * US));
  }

  @Test
  void carriersAreBusyWhileMountedPerBucket() throws Exception {
    AnalysisResult r = Analyzer.analyze(trace());
    AnalysisResult.PropertyResult p = r.property("carrier_utilisation");
    assertEquals((1040 + 620 + 30) * US, p.severityNs());
    assertEquals("carrier_ns", p.unit());
    assertEquals(1040 * US, p.thread("c1"));
    AnalysisResult.Timeline t = p.timeline();
    assertEquals(200 * US, t.bucketNs());
    assertEquals(
        List.of("c1", "c2"), t.rows().stream().map(AnalysisResult.TimelineRow::thread).toList());
    AnalysisResult.TimelineRow c1 = t.rows().get(0);
    assertEquals(List.of(1.0, 1.0, 1.0, 1.0, 1.0, 0.2, 0.0), c1.share().subList(0, 7));
    assertEquals(0.26, c1.total());
    AnalysisResult.TimelineRow c2 = t.rows().get(1);
    assertEquals(List.of(0.5, 1.0, 1.0, 0.6, 0.0), c2.share().subList(0, 5));
    assertEquals(0.15, c2.share().get(15)); // 3000..3030 of 3000..3200
    assertNull(r.property("pool_queue_wait").timeline());
    AnalysisResult back =
        AnalysisJson.read(
            new java.io.ByteArrayInputStream(
                AnalysisJson.toJson(r).getBytes(java.nio.charset.StandardCharsets.UTF_8)),
            "json");
    assertEquals(t, back.property("carrier_utilisation").timeline(), "the JSON round trip");
  }
}
