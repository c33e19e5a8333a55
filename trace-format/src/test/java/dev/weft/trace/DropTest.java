package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When no window can be had, events are dropped and counted, never thrown: the stream's dropped(),
 * the event file's header counter and the DROPS definition agree, and a DROPPED event marks the gap
 * when recording resumes.
 */
class DropTest {
  @TempDir Path tmp;

  @Test
  void sizeLimitDropsEventsAndAllCountsAgree() throws Exception {
    Path dir = tmp.resolve("limit");
    List<String> problems = new CopyOnWriteArrayList<>();
    TraceWriter.Options options =
        TraceWriter.Options.defaults()
            .withWindows(4096, 4096)
            .withMaxBytes(2 * 4096)
            .withProblemListener(problems::add);
    List<Event> attempted = new ArrayList<>();
    StreamWriter s;
    try (TraceWriter w = TraceWriter.create(dir, options)) {
      w.defineRegion(new RegionDef(1, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 1));
      s = w.openStream(1, "main", 0, 0, 0);
      for (int i = 0; i < 10_000; i++) {
        long t = 100L * (i + 1);
        if (i % 2 == 0) {
          s.enter(t, 1);
          attempted.add(new Event(EventKind.ENTER, t, 1, new long[] {1}));
        } else {
          s.exit(t, 1);
          attempted.add(new Event(EventKind.EXIT, t, 1, new long[] {1}));
        }
      }
      assertTrue(s.dropped() > 0);
      assertEquals(10_000, s.events() + s.dropped());
      assertEquals(s.dropped(), w.dropped());
      assertEquals(1, problems.size(), problems.toString());
      assertTrue(problems.get(0).contains("size limit of 8192 bytes"), problems.get(0));
    }
    try (Trace t = Trace.open(dir)) {
      StreamCursor c = t.stream(1);
      List<Event> read = new ArrayList<>();
      while (c.next()) {
        read.add(c.snapshot());
      }
      assertEquals(StreamCursor.State.COMPLETE, c.state(), c.problem());
      assertEquals(attempted.subList(0, (int) s.events()), read);
      assertEquals(s.dropped(), c.headerDropped());
      assertEquals(s.dropped(), t.definitions().drops().get(1));
    }
    try (Trace t = Trace.open(dir)) {
      TraceVerifier.VerifyReport report = TraceVerifier.verify(t);
      assertTrue(report.ok(), report.errors().toString());
      assertEquals(s.dropped(), report.dropped());
      assertTrue(
          report.warnings().stream().anyMatch(w -> w.contains(s.dropped() + " event(s) dropped")),
          report.warnings().toString());
    }
  }

  @Test
  void streamWithoutAnyWindowDropsEverythingQuietly() throws Exception {
    Path dir = tmp.resolve("none");
    TraceWriter.Options options =
        TraceWriter.Options.defaults().withWindows(4096, 4096).withMaxBytes(1000);
    try (TraceWriter w = TraceWriter.create(dir, options)) {
      StreamWriter s = w.openStream(1, "main", 0, 0, 0);
      for (int i = 0; i < 1000; i++) {
        s.lockAcquired(i, 5, 0);
        s.lockReleased(i, 5);
      }
      assertEquals(0, s.events());
      assertEquals(2000, s.dropped());
    }
    try (Trace t = Trace.open(dir)) {
      StreamCursor c = t.stream(1);
      assertTrue(!c.next());
      assertEquals(StreamCursor.State.COMPLETE, c.state(), c.problem());
      assertEquals(2000, c.headerDropped());
      assertEquals(2000L, t.definitions().drops().get(1));
    }
  }

  /**
   * Once the size limit lifts (here: bytes handed back, as when a failed window is released),
   * recording resumes in a new window that starts with a DROPPED event counting the gap; its time
   * is the last recorded event's time.
   */
  @Test
  void recordingResumesWithADroppedEventCountingTheGap() throws Exception {
    Path dir = tmp.resolve("resume");
    TraceWriter.Options options =
        TraceWriter.Options.defaults().withWindows(4096, 4096).withMaxBytes(4096);
    List<Event> expected = new ArrayList<>();
    StreamWriter s;
    try (TraceWriter w = TraceWriter.create(dir, options)) {
      w.defineRegion(new RegionDef(1, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 1));
      s = w.openStream(1, "main", 0, 0, 0);
      long t = 0;
      while (s.dropped() < 500) {
        t += 10;
        long before = s.events();
        s.enter(t, 1);
        if (s.events() > before) {
          expected.add(new Event(EventKind.ENTER, t, 1, new long[] {1}));
        }
      }
      long lastRecorded = expected.get(expected.size() - 1).time();
      w.releaseBytes(4096); // room for one more window
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      boolean resumed = false;
      while (!resumed && System.nanoTime() < deadline) {
        t += 10;
        long dropped = s.dropped();
        long before = s.events();
        s.exit(t, 1);
        if (s.events() > before) {
          expected.add(new Event(EventKind.DROPPED, lastRecorded, 1, new long[] {dropped}));
          expected.add(new Event(EventKind.EXIT, t, 1, new long[] {1}));
          resumed = true;
        } else if (s.dropped() % 65_536 == 1) {
          Thread.sleep(1); // the background thread was just asked for a window
        }
      }
      assertTrue(resumed, "recording resumed once the limit lifted");
      s.exit(t + 10, 1);
      expected.add(new Event(EventKind.EXIT, t + 10, 1, new long[] {1}));
    }
    try (Trace trace = Trace.open(dir)) {
      StreamCursor c = trace.stream(1);
      List<Event> read = new ArrayList<>();
      while (c.next()) {
        read.add(c.snapshot());
      }
      assertEquals(StreamCursor.State.COMPLETE, c.state(), c.problem());
      assertEquals(expected, read);
      assertEquals(s.dropped(), c.headerDropped());
      Long atClose = trace.definitions().drops().get(1);
      assertNotNull(atClose);
      assertEquals(s.dropped(), atClose);
    }
    try (Trace trace = Trace.open(dir)) {
      TraceVerifier.VerifyReport report = TraceVerifier.verify(trace);
      assertTrue(report.ok(), report.errors().toString());
      assertEquals(s.dropped(), report.dropped());
    }
  }

  /**
   * An interrupted application thread that must allocate its next window itself (the background
   * thread is held back here) still records everything, and its interrupt status is kept: a
   * FileChannel used with the status set would close itself.
   */
  @Test
  void interruptedThreadAllocatesWindowsAndKeepsItsInterruptStatus() throws Exception {
    Path dir = tmp.resolve("interrupted");
    CountDownLatch preparerMayRun = new CountDownLatch(1);
    TraceWriter.Options options =
        TraceWriter.Options.defaults()
            .withWindows(4096, 4096)
            .withThreadFactory(
                r ->
                    new Thread(
                        () -> {
                          try {
                            preparerMayRun.await();
                          } catch (InterruptedException e) {
                            return;
                          }
                          r.run();
                        }));
    int n = 10_000; // 3 bytes each: several 4 KiB windows
    StreamWriter s;
    try (TraceWriter w = TraceWriter.create(dir, options)) {
      Thread.currentThread().interrupt();
      try {
        s = w.openStream(1, "main", 0, 0, 0);
        for (int i = 1; i <= n; i++) {
          s.enter(i, 1);
        }
        w.defineRegion(new RegionDef(1, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 1));
        assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
      } finally {
        Thread.interrupted();
        preparerMayRun.countDown();
      }
      assertEquals(n, s.events());
      assertEquals(0, s.dropped());
      assertTrue(w.synchronousWindows() >= 5, "windows allocated: " + w.synchronousWindows());
    }
    try (Trace trace = Trace.open(dir)) {
      assertTrue(trace.definitions().closedCleanly());
      assertNotNull(trace.definitions().region(1));
      StreamCursor c = trace.stream(1);
      long i = 0;
      while (c.next()) {
        i++;
        assertEquals(i, c.time());
      }
      assertEquals(StreamCursor.State.COMPLETE, c.state(), c.problem());
      assertEquals(n, i);
    }
  }
}
