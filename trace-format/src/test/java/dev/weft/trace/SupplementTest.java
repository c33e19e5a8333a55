package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A supplement stream's events are read as its thread's (FORMAT.md, "Supplements"). */
class SupplementTest {
  @TempDir Path tmp;

  @Test
  void supplementEventsBelongToTheThreadWithTheSameJavaId() throws Exception {
    Path dir = tmp.resolve("t");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_000, 1));
      w.defineRegion(
          new RegionDef(3, ConstructKind.MONITOR, "synchronized", "A", "run", "A.java", 9, 9));
      StreamWriter main = w.openStream(41, "worker", 0, 0, 0);
      StreamWriter other = w.openStream(42, "other", 0, 0, 0);
      StreamWriter extra = w.openStream(41, "worker", ThreadDef.SUPPLEMENT, 0, 0);
      StreamWriter alone = w.openStream(43, "only-monitors", ThreadDef.SUPPLEMENT, 0, 0);
      main.enter(10, 0);
      other.enter(15, 0);
      other.exit(16, 0);
      extra.lockRequest(20, 3, 7);
      extra.lockAcquired(30, 7, LockFlags.CONTENDED);
      extra.lockReleased(30, 7);
      main.exit(40, 0);
      alone.waitEnter(50, 3, WaitKind.OBJECT_WAIT);
      alone.waitExit(60, 3);
    }
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      List<Integer> threads = new ArrayList<>();
      d.threads().forEach(th -> threads.add(th.stream()));
      assertEquals(List.of(1, 2, 4), threads, "the supplement of thread 41 is not a thread");
      assertEquals(1, d.supplements().size());
      assertEquals(1, d.owner(3));
      assertEquals(4, d.owner(4));
      assertTrue(d.thread(3).isSupplement());
      List<String> read = Writes.eventLines(t);
      assertEquals(
          List.of(
              "10:1:enter",
              "15:2:enter",
              "16:2:exit",
              "20:1:lock_request",
              "30:1:lock_acquired",
              "30:1:lock_released",
              "40:1:exit",
              "50:4:wait_enter",
              "60:4:wait_exit"),
          read);
      assertEquals(Trace.Status.COMPLETE, t.integrity().status());
    }
    try (Trace t = Trace.open(dir)) {
      TraceVerifier.VerifyReport r = TraceVerifier.verify(t);
      assertTrue(r.ok(), r.errors().toString());
      assertEquals(List.of(), r.warnings());
    }
  }
}
