package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random event sequences of every kind, written and read back: each thread's events come back equal
 * and in order, and the merged cursor yields them sorted by (time, stream). Small windows make the
 * streams cross many blocks.
 */
class RoundTripPropertyTest {
  @TempDir Path tmp;

  private static final Comparator<Event> MERGED_ORDER =
      Comparator.comparingLong(Event::time).thenComparingInt(Event::stream);

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void randomEventsOfEveryKindOnManyStreamsReadBackEqual(long seed) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    Path dir = tmp.resolve("t" + seed);
    int streams = 2 + r.nextInt(10);
    List<Event> written = new ArrayList<>();
    Map<Integer, List<Event>> perStream = new HashMap<>();
    TraceWriter.Options options = TraceWriter.Options.defaults().withWindows(4096, 16384);
    try (TraceWriter w = TraceWriter.create(dir, options)) {
      List<StreamWriter> writers = new ArrayList<>();
      long[] clocks = new long[streams];
      for (int i = 0; i < streams; i++) {
        long start = r.nextBoolean() ? -r.nextLong(1L << 50) : r.nextLong(1L << 50);
        clocks[i] = start;
        writers.add(w.openStream(100 + i, "t" + i, 0, 0, start));
      }
      int total = 5_000 + r.nextInt(20_000);
      for (int n = 0; n < total; n++) {
        int i = r.nextInt(streams);
        clocks[i] += Writes.step(r);
        StreamWriter s = writers.get(i);
        Event e = Writes.random(r, clocks[i], s.id());
        Writes.write(s, e.kind(), e.time(), e.fields());
        written.add(e);
        perStream.computeIfAbsent(s.id(), k -> new ArrayList<>()).add(e);
      }
      for (StreamWriter s : writers) {
        assertEquals(perStream.getOrDefault(s.id(), List.of()).size(), s.events());
        assertEquals(0, s.dropped());
      }
    }
    assertReadBack(dir, written, perStream);
  }

  @Test
  void threadsWritingConcurrentlyReadBackEqual() throws Exception {
    Path dir = tmp.resolve("concurrent");
    int threads = 6;
    Map<Integer, List<Event>> perStream = new HashMap<>();
    List<Event> written = new ArrayList<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    TraceWriter.Options options = TraceWriter.Options.defaults().withWindows(4096, 65536);
    try (TraceWriter w = TraceWriter.create(dir, options)) {
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> running = new ArrayList<>();
      List<List<Event>> lists = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        List<Event> mine = new ArrayList<>();
        lists.add(mine);
        long seed = 1000 + i;
        Thread t =
            new Thread(
                () -> {
                  try {
                    SplittableRandom r = new SplittableRandom(seed);
                    long now = System.nanoTime();
                    StreamWriter s =
                        w.openStream(Thread.currentThread().getId(), "w" + seed, 0, 0, now);
                    go.await();
                    for (int n = 0; n < 40_000; n++) {
                      now += Writes.step(r) % 100_000;
                      Event e = Writes.random(r, now, s.id());
                      Writes.write(s, e.kind(), e.time(), e.fields());
                      mine.add(e);
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                });
        running.add(t);
        t.start();
      }
      go.countDown();
      for (Thread t : running) {
        t.join();
      }
      if (failure.get() != null) {
        throw new AssertionError(failure.get());
      }
      for (List<Event> mine : lists) {
        perStream.put(mine.get(0).stream(), mine);
        written.addAll(mine);
      }
      assertEquals(0, w.dropped());
    }
    assertReadBack(dir, written, perStream);
  }

  @Test
  void timeThatStepsBackIsClampedSoEachStreamStaysMonotonic() throws Exception {
    Path dir = tmp.resolve("clamp");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      StreamWriter s = w.openStream(1, "main", 0, 0, 1000);
      s.enter(2000, 1);
      s.exit(1500, 1); // the caller's clock stepped back
      s.enter(2500, 1);
      s.exit(900, 1); // before the stream's start
    }
    try (Trace t = Trace.openWithoutDefinitionChecks(dir)) {
      StreamCursor c = t.stream(1);
      long[] times = new long[4];
      int i = 0;
      while (c.next()) {
        times[i++] = c.time();
      }
      assertEquals(4, i);
      assertEquals(
          List.of(2000L, 2000L, 2500L, 2500L), List.of(times[0], times[1], times[2], times[3]));
    }
  }

  private static void assertReadBack(
      Path dir, List<Event> written, Map<Integer, List<Event>> perStream) {
    try (Trace t = Trace.openWithoutDefinitionChecks(dir)) {
      assertTrue(t.definitions().closedCleanly());
      assertEquals(List.of(), t.warnings());
      for (Map.Entry<Integer, List<Event>> e : perStream.entrySet()) {
        StreamCursor c = t.stream(e.getKey());
        List<Event> read = new ArrayList<>();
        while (c.next()) {
          read.add(c.snapshot());
        }
        assertEquals(StreamCursor.State.COMPLETE, c.state(), c.problem());
        assertEquals(e.getValue().size(), read.size(), "events of stream " + e.getKey());
        assertEquals(e.getValue(), read, "events of stream " + e.getKey());
      }
      List<Event> expected = new ArrayList<>(written);
      expected.sort(MERGED_ORDER); // stable: each stream keeps its own order among equal times
      EventCursor m = t.events();
      List<Event> merged = new ArrayList<>();
      while (m.next()) {
        merged.add(m.snapshot());
      }
      assertEquals(expected.size(), merged.size());
      assertEquals(expected, merged);
    }
  }
}
