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
   * a and b meet at a barrier at 100/150; b then waits again at 400 for a, whose stream ends at 300
   * (killed: the trace is never closed). Without the window rule b's wait from 400 on would be a
   * phantom.
   */
  @Test
  void killedProcessIsAnalysedOverTheWindowAllThreadsCover() {
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
    assertEquals(300, r.trace().window().endNs());
    assertEquals(70, onThread(r, "barrier_wait", "a"));
    assertEquals(10, onThread(r, "barrier_wait", "b"));
    assertEquals(8, r.trace().events());
    assertTrue(
        r.notes().get(0).startsWith("trace is incomplete (not closed cleanly")
            && r.notes().get(0).contains("up to 300 ns (the last event of thread 'a')")
            && r.notes().get(0).contains("2 later events"),
        r.notes().get(0));
    Check.partition(r, Map.of("a", 300L, "b", 300L));
  }

  @Test
  void threadsThatEndedDoNotLimitTheWindow() {
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
    Check.partition(r, Map.of("a", 30L, "b", 700L));
  }

  /** A clean trace whose event file was truncated inside its last event. */
  @Test
  void cutStreamShrinksTheWindowToItsLastWholeEvent() throws IOException {
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
    assertEquals(250, r.trace().window().endNs()); // a's last whole event
    assertTrue(
        r.notes().stream()
            .anyMatch(n -> n.startsWith("trace is incomplete (") && n.contains("000001.wev")),
        r.notes().toString());
    // b is still blocked at the window end, by a's hold: observed, so counted up to the end
    assertEquals(50, onThread(r, "monitor_contention", "b"));
    assertEquals(50, Check.cause(r, "monitor_contention", "waiting_for_holder_ns"));
    Check.partition(r, Map.of("a", 250L, "b", 250L));
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
