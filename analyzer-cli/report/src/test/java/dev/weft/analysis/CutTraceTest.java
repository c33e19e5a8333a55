package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.cause;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.report.TextReport;
import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace cut off by kill -9 (no END record): main blocks in Thread.join early on, the workers go
 * on meeting at a barrier and taking a lock until much later. The whole run is analysed, up to the
 * last event of any thread, and the outputs say so.
 */
class CutTraceTest {
  @TempDir Path tmp;

  private int main;
  private int join;
  private int await;
  private int sync;
  private int work;
  private int tail;
  private long written;

  /**
   * main: region from 10, Thread.join from 50 (its last event). w1, w2: ten barrier rounds of 1000
   * ns (w1 arrives at +500, w2 last at +700; w2 leaves at +710, w1 at +720); then w1 takes lock 9
   * at 9800, w2 requests it at 9900 (its last event), and w1 arrives at the barrier again at 10000
   * (its last event). w3 runs a region from 100 to 12000 (the last event of the trace). w4 enters a
   * region at 5000 and records nothing more.
   */
  private Path cutTrace() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    main = f.region("main", ConstructKind.USER_REGION, 10);
    join = f.region("Thread.join", ConstructKind.THREAD_JOIN, 11);
    await = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 12);
    sync = f.region("sync", ConstructKind.MONITOR, 13);
    work = f.region("work", ConstructKind.USER_REGION, 14);
    tail = f.region("tail", ConstructKind.USER_REGION, 15);
    f.object(77, ConstructKind.CYCLIC_BARRIER, 2);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w1 = f.thread("w1", 20);
    StreamWriter w2 = f.thread("w2", 30);
    StreamWriter w3 = f.thread("w3", 40);
    StreamWriter w4 = f.thread("w4", 40);
    m.enter(10, main);
    m.joinWaitEnter(50, join, 2);
    w3.enter(100, work);
    for (int r = 0; r < 10; r++) {
      long t = r * 1000L;
      w1.enter(t + 100, work);
      w2.enter(t + 100, work);
      w1.exit(t + 500, work);
      w1.barrierEnter(t + 500, await, 77, r);
      w2.exit(t + 700, work);
      w2.barrierEnter(t + 700, await, 77, r);
      w2.barrierExit(t + 710, await, 77, r, BarrierOutcome.LAST);
      w1.barrierExit(t + 720, await, 77, r, 0);
    }
    w4.enter(5000, tail);
    w1.lockRequest(9800, sync, 9);
    w1.lockAcquired(9800, 9, 0);
    w2.lockRequest(9900, sync, 9);
    w1.barrierEnter(10000, await, 77, 10);
    w3.exit(12000, work);
    written = m.events() + w1.events() + w2.events() + w3.events() + w4.events();
    return f.abandon();
  }

  @Test
  void theWholeRunIsAnalysedAndBlockedThreadsCountUpToTheCut() {
    AnalysisResult r = Analyzer.analyze(cutTrace());

    assertEquals(AnalysisResult.Status.CUT, r.status());
    assertFalse(r.trace().complete());
    // The run: first record (main's definition, 0) to the last event of any thread (w3's, 12000).
    assertEquals(new AnalysisResult.Window(0, 12_000), r.trace().window());
    assertEquals(12_000, r.trace().durationNs());
    assertEquals(written, r.trace().events(), "no event is ignored");
    assertEquals(new AnalysisResult.Cut(12_000, 5, 3, 0), r.trace().cut());

    // main blocked in its join since 50: counted up to the cut.
    assertEquals(12_000 - 50, onThread(r, "join_wait", "main"));
    assertEquals(12_000 - 50, atPath(r, "join_wait", label("main", 10), label("Thread.join", 11)));
    // w2 waits for w1's lock from 9900 to the cut, all of it for the holder.
    assertEquals(12_000 - 9900, onThread(r, "monitor_contention", "w2"));
    assertEquals(12_000 - 9900, cause(r, "lock_contention", "waiting_for_holder_ns"));
    // Barrier: ten rounds (w1 220 each: 200 for w2, 20 release; w2 10 each, release), and w1's
    // open arrival at 10000, which waits for an arrival that never came: all waiting for the last.
    assertEquals(10 * 220 + 2000, onThread(r, "barrier_wait", "w1"));
    assertEquals(10 * 10, onThread(r, "barrier_wait", "w2"));
    assertEquals(10 * 200 + 2000, cause(r, "barrier_wait", "waiting_for_last_ns"));
    assertEquals(10 * 20 + 10 * 10, cause(r, "barrier_wait", "release_latency_ns"));
    // w4 was running at its last event (5000): it counts up to it, no time after it is invented.
    Check.partition(
        r, Map.of("main", 12_000L, "w1", 11_980L, "w2", 11_970L, "w3", 11_960L, "w4", 4960L));

    assertEquals(
        "cut at 12.0 us (trace clock 12000 ns, the last event of any thread; not closed cleanly:"
            + " the process was killed or is still running): 5 threads without a clean end (main,"
            + " w1, w2 and 2 more); 3 waits were still open at the cut and are counted up to it",
        r.statusDetail());
    String notes = String.join("\n", r.notes());
    assertTrue(
        notes.contains(
            "1 thread was running (no wait open) at its last event before the cut, without a clean"
                + " end (w4 7.0 us before the cut): what it did after it is unknown, so it counts up"
                + " to its own last event, where its open regions and tasks end"),
        notes);
    assertFalse(notes.contains("ignored"), notes);
    assertFalse(notes.contains("internal check"), notes);
  }

  @Test
  void textAndJsonSayTheTraceWasCut() throws Exception {
    AnalysisResult r = Analyzer.analyze(cutTrace());

    String text = TextReport.render(r);
    String header = text.substring(0, text.indexOf("Properties")).replaceAll("\\s+", " ");
    assertTrue(header.contains("CUT (see below and the notes)"), header);
    assertTrue(header.contains("CUT: cut at 12.0 us"), header);
    assertTrue(header.contains("5 threads without a clean end (main, w1, w2 and 2 more)"), header);
    assertTrue(header.contains("3 waits were still open at the cut"), header);

    String json = AnalysisJson.toJson(r);
    JsonNode root = new ObjectMapper().readTree(json);
    assertEquals("cut", root.get("status").asText());
    assertTrue(root.get("status_detail").asText().startsWith("cut at 12.0 us"), json);
    assertFalse(root.get("trace").get("complete").asBoolean());
    JsonNode cut = root.get("trace").get("cut");
    assertEquals(12_000, cut.get("at_ns").asLong());
    assertEquals(5, cut.get("threads_without_end").asInt());
    assertEquals(3, cut.get("open_waits").asInt());
    assertEquals(0, cut.get("damaged_streams").asInt());

    Path file = tmp.resolve("a.json");
    Files.writeString(file, json);
    assertEquals(r, AnalysisJson.read(file));
  }

  @Test
  void aCleanTraceIsCompleteAndSaysNothingOfACut() throws Exception {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int w = f.region("work", ConstructKind.USER_REGION, 14);
    StreamWriter a = f.thread("a", 0);
    a.enter(10, w);
    a.exit(20, w);
    AnalysisResult r = Analyzer.analyze(f.close(100));
    assertEquals(AnalysisResult.Status.COMPLETE, r.status());
    assertTrue(r.trace().complete());
    assertNull(r.statusDetail());
    assertNull(r.trace().cut());
    JsonNode root = new ObjectMapper().readTree(AnalysisJson.toJson(r));
    assertEquals("complete", root.get("status").asText());
    assertFalse(root.has("status_detail"));
    assertFalse(root.get("trace").has("cut"));
    String text = TextReport.render(r);
    assertTrue(text.lines().skip(1).findFirst().orElseThrow().endsWith(", complete"), text);
    assertFalse(text.contains("CUT"), text);
  }

  @Test
  void aSalvagedTraceIsPartialWithItsReasonFirst() {
    Path dir = cutTrace();
    AnalysisResult r =
        Analyzer.analyze(
            dir, Analyzer.Options.defaults().withPartial("stream 2 salvaged: 3 blocks skipped"));
    assertEquals(AnalysisResult.Status.PARTIAL, r.status());
    assertFalse(r.trace().complete());
    assertTrue(
        r.statusDetail().startsWith("stream 2 salvaged: 3 blocks skipped; cut at 12.0 us"),
        r.statusDetail());
    assertTrue(TextReport.render(r).contains("PARTIAL: stream 2 salvaged"));
    // Severities are those of the same trace analysed without the option.
    assertEquals(severity(Analyzer.analyze(dir), "time"), severity(r, "time"));

    AnalysisResult again = r.withStatus(AnalysisResult.Status.PARTIAL, "other reason");
    assertEquals("other reason", again.statusDetail());
    assertThrows(
        IllegalArgumentException.class, () -> r.withStatus(AnalysisResult.Status.PARTIAL, " "));
    assertThrows(IllegalArgumentException.class, () -> Analyzer.Options.defaults().withPartial(""));
  }

  @Test
  void aDocumentWithoutStatusReadsItFromComplete() throws Exception {
    AnalysisResult r = Analyzer.analyze(cutTrace());
    ObjectMapper mapper = new ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode root =
        (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(AnalysisJson.toJson(r));
    root.remove("status");
    root.remove("status_detail");
    Path file = tmp.resolve("old.json");
    Files.writeString(file, mapper.writeValueAsString(root));
    assertEquals(AnalysisResult.Status.CUT, AnalysisJson.read(file).status());
    root.put("status", "partial");
    Files.writeString(file, mapper.writeValueAsString(root));
    assertEquals(AnalysisResult.Status.PARTIAL, AnalysisJson.read(file).status());
  }
}
