package dev.weft.analysis;

import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Traces cut off at the end, and traces that start late: no invented waits, notes instead. */
class IncompleteTraceTest {
  @TempDir Path tmp;

  /**
   * a and b meet at a barrier at 100/150; b then waits again from 400 to 900, while a's stream ends
   * at 300 (killed: the trace is never closed). Every event is analysed: the run ends at the last
   * event of any thread (900); a was running at its last event, so it counts up to it.
   */
  @Test
  void killedProcessIsAnalysedUpToTheLastEventOfAnyThread() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int await = f.region("await", ConstructKind.CYCLIC_BARRIER, 40);
    int work = f.region("work", ConstructKind.USER_REGION, 41);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    a.barrierEnter(100, await, 5, 0);
    b.barrierEnter(150, await, 5, 0);
    b.barrierExit(160, await, 5, 0, BarrierOutcome.LAST);
    a.barrierExit(170, await, 5, 0, 0);
    a.enter(200, work);
    a.exit(300, work);
    b.barrierEnter(400, await, 5, 1);
    b.barrierExit(900, await, 5, 1, 0);
    AnalysisResult r = Analyzer.analyze(f.abandon());
    assertFalse(r.trace().complete());
    assertEquals(AnalysisResult.Status.CUT, r.status());
    assertEquals(900, r.trace().window().endNs());
    assertEquals(900, r.trace().durationNs());
    assertEquals(70, onThread(r, "barrier_wait", "a"));
    assertEquals(10 + 500, onThread(r, "barrier_wait", "b"));
    assertEquals(8, r.trace().events());
    assertEquals(new AnalysisResult.Cut(900, 2, 0, 0), r.trace().cut());
    assertTrue(
        r.statusDetail().startsWith("cut at 900 ns (trace clock 900 ns, the last event of any")
            && r.statusDetail().contains("2 threads without a clean end (a, b)")
            && r.statusDetail().contains("0 waits were still open at the cut"),
        r.statusDetail());
    String notes = String.join("\n", r.notes());
    assertTrue(
        notes.contains(
            "1 thread was running (no wait open) at its last event before the cut, without a clean"
                + " end (a 600 ns before the cut): what it did after it is unknown, so it counts up"
                + " to its own last event"),
        notes);
    assertFalse(notes.contains("ignored"), notes);
    Check.partition(r, Map.of("a", 300L, "b", 900L));
  }

  @Test
  void threadsThatEndedCountUpToTheirEnd() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int work = f.region("work", ConstructKind.USER_REGION, 41);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    a.enter(10, work);
    a.exit(20, work);
    a.threadEnd(30);
    b.enter(40, work);
    b.exit(700, work);
    AnalysisResult r = Analyzer.analyze(f.abandon());
    assertEquals(700, r.trace().window().endNs());
    assertEquals(new AnalysisResult.Cut(700, 1, 0, 0), r.trace().cut());
    Check.partition(r, Map.of("a", 30L, "b", 700L));
  }

  /**
   * A clean trace whose event file was truncated inside its last event: that thread counts up to
   * its last whole event; the others, complete, up to the END record. b's measured wait for a's
   * lock stays, all of it waiting for the holder, whose release is lost.
   */
  @Test
  void cutStreamEndsItsThreadAtItsLastWholeEvent() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("sync", ConstructKind.MONITOR, 30);
    int work = f.region("work", ConstructKind.USER_REGION, 31);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    a.lockRequest(100, sync, 9);
    a.lockAcquired(100, 9, 0);
    b.lockRequest(200, sync, 9);
    a.enter(250, work);
    a.lockReleased(300, 9); // cut away below
    b.lockAcquired(310, 9, 0);
    b.lockReleased(800, 9);
    Path dir = f.close(1000);
    truncateLastByte(TraceFiles.streamFile(dir, 1));
    AnalysisResult r = Analyzer.analyze(dir);
    assertFalse(r.trace().complete());
    assertEquals(AnalysisResult.Status.CUT, r.status());
    assertEquals(1000, r.trace().window().endNs());
    assertEquals(6, r.trace().events());
    assertEquals(1, r.trace().cut().damagedStreams());
    assertTrue(
        r.statusDetail().contains("1 stream file was cut short or damaged (a)"), r.statusDetail());
    assertTrue(
        r.notes().stream()
            .anyMatch(n -> n.contains("000001.wev") && n.contains("counts up to its last whole")),
        r.notes().toString());
    assertEquals(110, onThread(r, "monitor_contention", "b"));
    assertEquals(110, Check.cause(r, "monitor_contention", "waiting_for_holder_ns"));
    Check.partition(r, Map.of("a", 250L, "b", 1000L));
  }

  private static void truncateLastByte(Path file) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer all = ByteBuffer.allocate((int) ch.size());
      ch.read(all, 0);
      int last = all.capacity() - 1;
      while (last > 0 && all.get(last) == 0) {
        last--;
      }
      ch.truncate(last);
    }
  }

  /**
   * The trace starts while a holds a lock and is inside a region, a barrier and a task, and while b
   * waits in a join: only what is fully recorded is attributed.
   */
  @Test
  void lateStartInventsNoWaitsAndSaysWhatItCouldNotAttribute() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("sync", ConstructKind.MONITOR, 30);
    int region = f.region("work", ConstructKind.USER_REGION, 31);
    int await = f.region("await", ConstructKind.CYCLIC_BARRIER, 32);
    int join = f.region("join", ConstructKind.THREAD_JOIN, 33);
    f.pool(1, "pool", 1);
    StreamWriter a = f.worker("a", 1, 100);
    StreamWriter b = f.thread("b", 100);
    StreamWriter c = f.thread("c", 100);
    a.exit(110, region); // entered before the trace
    a.barrierExit(120, await, 77, 3, 0); // arrived before the trace
    a.taskEnd(130, 55); // begun before the trace
    b.joinWaitExit(140, join); // waiting since before the trace
    c.lockRequest(150, sync, 9); // a holds it since before the trace
    a.lockReleased(200, 9);
    c.lockAcquired(210, 9, 0); // a recorded wait: 50 for a, 10 hand-off
    a.lockReleased(220, 9); // released again without a recorded acquisition
    AnalysisResult r = Analyzer.analyze(f.close(300));
    assertEquals(0, severity(r, "barrier_wait"));
    assertEquals(0, severity(r, "join_wait"));
    assertEquals(60, severity(r, "lock_contention"));
    assertEquals(60, onThread(r, "monitor_contention", "c"));
    assertTrue(r.trace().complete());
    String notes = String.join("\n", r.notes());
    assertTrue(notes.contains("1 region exits had no recorded enter"), notes);
    assertTrue(notes.contains("1 barrier departures had no recorded arrival"), notes);
    assertTrue(notes.contains("1 TASK_ENDs had no recorded TASK_BEGIN"), notes);
    assertTrue(notes.contains("1 join-wait exits had no recorded enter"), notes);
    assertTrue(notes.contains("2 lock releases had no recorded acquisition"), notes);
    Check.partition(r, Map.of("a", 200L, "b", 200L, "c", 200L));
  }
}
