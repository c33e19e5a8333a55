package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-ahead cursor hands out its source's events unchanged and in order, across batch borders;
 * passes on what the source throws after the events before it; and stops its thread when closed
 * early.
 */
class ReadAheadCursorTest {
  @TempDir Path tmp;

  /** Events of every kind with random fields, times and streams; throws after {@code failAt}. */
  private static final class Source implements EventCursor {
    final List<Event> events = new ArrayList<>();
    final long failAt;
    final RuntimeException failure = new TraceFormatException("the source broke here");
    volatile long read;
    private int at = -1;

    Source(int count, long failAt) {
      this.failAt = failAt;
      SplittableRandom r = new SplittableRandom(count);
      EventKind[] kinds = EventKind.values();
      for (int i = 0; i < count; i++) {
        EventKind k = kinds[r.nextInt(kinds.length)];
        long[] f = new long[k.fieldCount()];
        for (int j = 0; j < f.length; j++) {
          f[j] = r.nextLong();
        }
        events.add(new Event(k, r.nextLong(), r.nextInt(), f));
      }
    }

    @Override
    public boolean next() {
      if (at + 1 == failAt) {
        throw failure;
      }
      read++;
      return ++at < events.size();
    }

    @Override
    public EventKind kind() {
      return events.get(at).kind();
    }

    @Override
    public long time() {
      return events.get(at).time();
    }

    @Override
    public int stream() {
      return events.get(at).stream();
    }

    @Override
    public long field(int index) {
      return events.get(at).field(index);
    }
  }

  @Test
  void handsOutEveryEventUnchangedAndInOrder() {
    for (int count :
        new int[] {0, 1, ReadAheadCursor.BATCH_EVENTS, ReadAheadCursor.BATCH_EVENTS * 7 + 3}) {
      Source source = new Source(count, -1);
      try (ReadAheadCursor c = new ReadAheadCursor(source)) {
        List<Event> read = new ArrayList<>();
        while (c.next()) {
          read.add(c.snapshot());
        }
        assertFalse(c.next(), "stays at the end");
        assertEquals(source.events, read, count + " events");
      }
    }
  }

  @Test
  void throwsWhatTheSourceThrewAfterTheEventsBeforeIt() {
    long failAt = ReadAheadCursor.BATCH_EVENTS * 2L + 10;
    Source source = new Source(ReadAheadCursor.BATCH_EVENTS * 4, failAt);
    try (ReadAheadCursor c = new ReadAheadCursor(source)) {
      for (int i = 0; i < failAt; i++) {
        assertTrue(c.next());
        assertEquals(source.events.get(i).time(), c.time());
      }
      assertSame(source.failure, assertThrows(TraceFormatException.class, c::next));
    }
  }

  @Test
  void closingEarlyStopsTheReaderWithBoundedReading() throws Exception {
    Source source = new Source(ReadAheadCursor.BATCH_EVENTS * 40, -1);
    Thread reader;
    try (ReadAheadCursor c = new ReadAheadCursor(source)) {
      assertTrue(c.next());
      reader = readerThread();
      // The reader fills every batch and then waits: it never reads further ahead than that.
      long bound = (long) ReadAheadCursor.BATCH_EVENTS * (ReadAheadCursor.BATCHES + 1);
      for (int i = 0; i < 200 && source.read < bound - ReadAheadCursor.BATCH_EVENTS; i++) {
        Thread.sleep(5);
      }
      Thread.sleep(50);
      assertTrue(source.read <= bound, source.read + " events read ahead");
    }
    assertFalse(reader.isAlive(), "the reader ended with close()");
  }

  @Test
  void readsATraceAsItsMergedCursorDoes() throws Exception {
    Path dir = tmp.resolve("t");
    SplittableRandom r = new SplittableRandom(7);
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      List<StreamWriter> writers = new ArrayList<>();
      long[] clocks = new long[5];
      for (int i = 0; i < clocks.length; i++) {
        writers.add(w.openStream(10 + i, "t" + i, 0, 0, 0));
      }
      for (int n = 0; n < 30_000; n++) {
        int i = r.nextInt(clocks.length);
        clocks[i] += r.nextInt(3); // many ties between streams
        writers.get(i).enter(clocks[i], 1 + r.nextInt(1000));
      }
    }
    List<Event> direct = new ArrayList<>();
    try (Trace t = Trace.openWithoutDefinitionChecks(dir)) {
      EventCursor c = t.events();
      while (c.next()) {
        direct.add(c.snapshot());
      }
    }
    List<Event> ahead = new ArrayList<>();
    try (Trace t = Trace.openWithoutDefinitionChecks(dir);
        ReadAheadCursor c = new ReadAheadCursor(t.events())) {
      while (c.next()) {
        ahead.add(c.snapshot());
      }
      for (StreamCursor s : t.streams()) {
        assertEquals(
            StreamCursor.State.COMPLETE, s.state(), "read to the end when next() is false");
      }
    }
    assertEquals(30_000, direct.size());
    assertEquals(direct, ahead);
  }

  private static Thread readerThread() {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("weft-trace-reader")) {
        return t;
      }
    }
    throw new AssertionError("no reader thread");
  }
}
