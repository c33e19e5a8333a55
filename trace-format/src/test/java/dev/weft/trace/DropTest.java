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
   * An interrupted application thread never allocates a window itself (an interrupt would close the
   * file channel): it drops until the background thread has one ready, keeps its interrupt status,
   * and the resumed stream starts with a DROPPED event counting the gap.
   */
  @Test
  void interruptedThreadDropsUntilTheNextWindowIsReadyThenMarksTheGap() throws Exception {
    Path dir = tmp.resolve("resume");
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
    List<Event> expected = new ArrayList<>();
    StreamWriter s;
    try (TraceWriter w = TraceWriter.create(dir, options)) {
      w.defineRegion(new RegionDef(1, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 1));
      s = w.openStream(1, "main", 0, 0, 0);
      long t = 0;
      Thread.currentThread().interrupt();
      try {
        while (s.dropped() < 500) {
          t += 10;
          long before = s.events();
          s.enter(t, 1);
          if (s.events() > before) {
            expected.add(new Event(EventKind.ENTER, t, 1, new long[] {1}));
          }
        }
        assertTrue(Thread.currentThread().isInterrupted(), "the application's interrupt is kept");
      } finally {
        Thread.interrupted();
      }
      long lastRecorded = expected.get(expected.size() - 1).time();
      preparerMayRun.countDown();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      long resumedAt = -1;
      while (resumedAt < 0 && System.nanoTime() < deadline) {
        t += 10;
        long dropped = s.dropped();
        long before = s.events();
        s.exit(t, 1);
        if (s.events() > before) {
          expected.add(new Event(EventKind.DROPPED, lastRecorded, 1, new long[] {dropped}));
          expected.add(new Event(EventKind.EXIT, t, 1, new long[] {1}));
          resumedAt = t;
        } else {
          Thread.sleep(1);
        }
      }
      assertTrue(resumedAt > 0, "recording resumed once the window was prepared");
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
}
