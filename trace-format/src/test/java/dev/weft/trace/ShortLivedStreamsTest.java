package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program that starts a thread per task: many streams, each short, one after the other. The
 * writer finishes each at its thread's end (its file closed, its STREAM_END written), and the
 * reader opens each only when the merge reaches its start, so neither holds a file per stream.
 */
class ShortLivedStreamsTest {
  @TempDir Path tmp;

  private static final int SHORT = 300;

  /** main is in a region 5 of every 10 ns; thread k lives 100k+1 .. 100k+60 (6 events). */
  private List<Event> write(Path dir) throws Exception {
    List<Event> written = new ArrayList<>();
    try (TraceWriter w =
        TraceWriter.create(dir, TraceWriter.Options.defaults().withWindows(4096, 8192))) {
      w.defineClock(new ClockDef(0, 1_000, 1));
      w.defineRegion(
          new RegionDef(7, ConstructKind.USER_REGION, "work", "A", "run", "A.java", 3, 9));
      StreamWriter main = w.openStream(1, "main", 0, 0, 0);
      for (int k = 0; k < SHORT; k++) {
        long begin = 100L * k + 1;
        for (long t = 100L * k; t < 100L * (k + 1); t += 10) {
          main.enter(t, 7);
          written.add(new Event(EventKind.ENTER, t, main.id(), new long[] {7}));
          main.exit(t + 5, 7);
          written.add(new Event(EventKind.EXIT, t + 5, main.id(), new long[] {7}));
        }
        StreamWriter s = w.openStream(100 + k, "task-" + k, 0, 0, begin);
        s.threadBegin(begin);
        written.add(new Event(EventKind.THREAD_BEGIN, begin, s.id(), new long[0]));
        for (int i = 1; i <= 2; i++) {
          s.enter(begin + 20 * i, 7);
          written.add(new Event(EventKind.ENTER, begin + 20 * i, s.id(), new long[] {7}));
          s.exit(begin + 20 * i + 10, 7);
          written.add(new Event(EventKind.EXIT, begin + 20 * i + 10, s.id(), new long[] {7}));
        }
        s.threadEnd(begin + 59);
        written.add(new Event(EventKind.THREAD_END, begin + 59, s.id(), new long[0]));
        s.retire();
        s.retire(); // a second retire does nothing
      }
    }
    written.sort(Comparator.comparingLong(Event::time).thenComparingInt(Event::stream));
    return written;
  }

  @Test
  void retiredStreamsAreCompleteAndReadInTimeOrder() throws Exception {
    Path dir = tmp.resolve("t");
    List<Event> written = write(dir);
    try (Trace t = Trace.open(dir)) {
      assertTrue(t.definitions().closedCleanly());
      EventCursor c = t.events();
      List<Event> read = new ArrayList<>();
      int mostOpened = 0;
      while (c.next()) {
        read.add(c.snapshot());
        // Streams opened so far: main and those whose thread began by now, never one ahead.
        long now = c.time();
        int begun = (int) Math.min(SHORT, now / 100 + (now % 100 >= 1 ? 1 : 0));
        assertTrue(
            t.streams().size() <= 1 + begun,
            t.streams().size() + " streams opened at " + now + ", " + begun + " begun");
        mostOpened = Math.max(mostOpened, t.streams().size());
      }
      assertEquals(written, read);
      assertEquals(1 + SHORT, mostOpened);
      for (StreamCursor s : t.streams()) {
        assertEquals(StreamCursor.State.COMPLETE, s.state(), s.stream() + ": " + s.problem());
      }
      assertEquals(Trace.Status.COMPLETE, t.integrity().status());
    }
    TraceVerifier.VerifyReport v;
    try (Trace t = Trace.open(dir)) {
      v = TraceVerifier.verify(t);
    }
    assertEquals(0, v.errors().size(), () -> v.errors().subList(0, 1).toString());
    assertEquals(written.size(), v.events());
  }
}
