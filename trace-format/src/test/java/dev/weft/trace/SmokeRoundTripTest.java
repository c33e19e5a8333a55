package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeRoundTripTest {
  @TempDir Path tmp;

  @Test
  void writesAndReadsTwoThreadsInTimeOrder() throws Exception {
    Path dir = tmp.resolve("t");
    List<Event> written = new ArrayList<>();
    try (TraceWriter w =
        TraceWriter.create(dir, TraceWriter.Options.defaults().withWindows(4096, 8192))) {
      w.defineClock(new ClockDef(0, 1_000, 1));
      w.defineRegion(
          new RegionDef(7, ConstructKind.USER_REGION, "work", "A", "run", "A.java", 3, 9));
      StreamWriter a = w.openStream(1, "main", 0, 0, 0);
      StreamWriter b = w.openStream(2, "worker", ThreadDef.DAEMON, 0, 0);
      for (int i = 0; i < 5000; i++) {
        a.enter(10L * i, 7);
        written.add(new Event(EventKind.ENTER, 10L * i, a.id(), new long[] {7}));
        b.lockAcquired(10L * i + 5, 123456789L, LockFlags.SHARED);
        written.add(
            new Event(EventKind.LOCK_ACQUIRED, 10L * i + 5, b.id(), new long[] {123456789L, 4}));
      }
      w.renameThread(b, 99, "worker-renamed");
    }
    try (Trace t = Trace.open(dir)) {
      assertEquals("worker-renamed", t.definitions().thread(2).name());
      assertEquals("A.java:3-9", t.definitions().region(7).location());
      assertTrue(t.definitions().closedCleanly());
      EventCursor c = t.events();
      List<Event> read = new ArrayList<>();
      while (c.next()) {
        read.add(c.snapshot());
      }
      assertEquals(written, read);
      for (StreamCursor s : t.streams()) {
        assertEquals(StreamCursor.State.COMPLETE, s.state(), String.valueOf(s.problem()));
      }
    }
  }

  @Test
  void threadJvmCountsRoundTrip() throws Exception {
    Path dir = tmp.resolve("jvm");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_000, 1));
      StreamWriter a = w.openStream(1, "reader-1", 0, 0, 0);
      StreamWriter b = w.openStream(2, "reader-2", 0, 0, 0);
      StreamWriter c = w.openStream(3, "io-1", 0, 0, 0);
      StreamWriter e = w.openStream(4, "io-2", 0, 0, 0);
      StreamWriter f = w.openStream(5, "attached-1", 0, 0, 0);
      a.enter(10, 0);
      w.defineThreadJvmCounts(a.id(), 53, 0);
      w.defineThreadJvmCounts(b.id(), 0, 1L << 40);
      w.defineThreadJvmCounts(c.id(), 1, 2, 3_000_000_000L, 40_000);
      w.defineThreadJvmCounts(e.id(), 0, 0, 0, -1); // CPU measured (none), run queue not
      w.defineThreadJvmCounts(f.id(), 0, 7, 2_000_000L, 500_000L, 1_234_567_890L);
    }
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertEquals(new ThreadJvmCounts(1, 53, 0), d.jvmCounts(1));
      assertEquals(new ThreadJvmCounts(2, 0, 1L << 40), d.jvmCounts(2));
      assertEquals(-1, d.jvmCounts(1).cpuNs(), "no trailing fields: not measured");
      assertEquals(new ThreadJvmCounts(3, 1, 2, 3_000_000_000L, 40_000), d.jvmCounts(3));
      assertEquals(new ThreadJvmCounts(4, 0, 0, 0, -1), d.jvmCounts(4));
      assertEquals(-1, d.jvmCounts(3).timesFromNs(), "the default span");
      assertEquals(
          new ThreadJvmCounts(5, 0, 7, 2_000_000L, 500_000L, 1_234_567_890L), d.jvmCounts(5));
      assertEquals(null, d.jvmCounts(6));
      assertEquals(5, d.jvmCounts().size());
      assertEquals(Trace.Status.COMPLETE, t.integrity().status());
    }
  }
}
