package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The merge's order is (time, stream id) whatever the number of streams (powers of two or not),
 * with many equal times, empty streams, times near {@link Long#MAX_VALUE}, and cursors handed over
 * in any order.
 */
class MergedCursorTest {
  @TempDir Path tmp;

  private static final Comparator<long[]> ORDER =
      Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]);

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 5, 8, 9, 17})
  void mergesByTimeThenStreamWithTiesAndEmptyStreams(int streams) throws Exception {
    checkMerge(streams, 1);
  }

  /**
   * Real traces come in runs (a thread's events before another's turn: 12 to 105 on average in the
   * third-party benchmarks' traces), which the merge passes through without replaying its matches;
   * the runs here end at ties as often as by a later time.
   */
  @ParameterizedTest
  @ValueSource(ints = {2, 3, 5, 8, 9, 17})
  void mergesRunsOfOneStreamByTimeThenStream(int streams) throws Exception {
    checkMerge(streams, 40);
  }

  /**
   * Writes runs of 1 to {@code maxRun} events of one random stream at a time, reads them merged.
   */
  private void checkMerge(int streams, int maxRun) throws Exception {
    SplittableRandom r = new SplittableRandom(streams * 31L + maxRun);
    Path dir = tmp.resolve("s" + streams + "-" + maxRun);
    List<long[]> written = new ArrayList<>(); // {time, stream, region}
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      List<StreamWriter> writers = new ArrayList<>();
      long[] clocks = new long[streams];
      for (int i = 0; i < streams; i++) {
        writers.add(w.openStream(10 + i, "t" + i, 0, 0, 0));
      }
      int total = 3_000 * streams;
      for (int n = 0; n < total; ) {
        // Every third stream (beyond the first) stays empty; steps of 0-2 ns make many ties.
        int i = r.nextInt(streams);
        if (i > 0 && i % 3 == 0) {
          n++;
          continue;
        }
        for (int run = 1 + r.nextInt(maxRun); run > 0 && n < total; run--, n++) {
          clocks[i] += r.nextInt(3);
          int region = 1 + r.nextInt(1000);
          writers.get(i).enter(clocks[i], region);
          written.add(new long[] {clocks[i], writers.get(i).id(), region});
        }
      }
    }
    written.sort(ORDER);
    try (Trace t = Trace.openWithoutDefinitionChecks(dir)) {
      List<StreamCursor> cursors = new ArrayList<>();
      for (int id : t.streamIds()) {
        cursors.add(t.stream(id));
      }
      Collections.reverse(cursors); // the merge must not depend on the order it is given
      MergedCursor c = new MergedCursor(cursors);
      List<long[]> read = new ArrayList<>();
      while (c.next()) {
        read.add(new long[] {c.time(), c.stream(), c.field(0)});
      }
      assertFalse(c.next(), "stays at the end");
      assertEquals(written.size(), read.size());
      for (int i = 0; i < read.size(); i++) {
        assertEquals(
            List.of(written.get(i)[0], written.get(i)[1], written.get(i)[2]),
            List.of(read.get(i)[0], read.get(i)[1], read.get(i)[2]),
            "event " + i);
      }
    }
  }

  @Test
  void noStreamsMeansNoEvents() {
    MergedCursor c = new MergedCursor(List.of());
    assertFalse(c.next());
    assertFalse(c.next());
  }

  @Test
  void eventsAtTheLargestTimeStillComeOut() throws Exception {
    Path dir = tmp.resolve("max");
    StreamWriter a;
    StreamWriter b;
    StreamWriter c;
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      a = w.openStream(1, "a", 0, 0, Long.MAX_VALUE - 10);
      b = w.openStream(2, "b", 0, 0, Long.MAX_VALUE - 10);
      c = w.openStream(3, "c", 0, 0, 0);
      a.enter(Long.MAX_VALUE, 1);
      b.enter(Long.MAX_VALUE - 1, 2);
      b.exit(Long.MAX_VALUE, 2);
      c.enter(5, 3);
    }
    try (Trace t = Trace.openWithoutDefinitionChecks(dir)) {
      EventCursor m = t.events();
      List<String> read = new ArrayList<>();
      while (m.next()) {
        read.add(m.stream() + ":" + m.kind().id() + "@" + (Long.MAX_VALUE - m.time()));
      }
      assertEquals(
          List.of(
              c.id() + ":enter@" + (Long.MAX_VALUE - 5),
              b.id() + ":enter@1",
              a.id() + ":enter@0",
              b.id() + ":exit@0"),
          read);
    }
  }
}
