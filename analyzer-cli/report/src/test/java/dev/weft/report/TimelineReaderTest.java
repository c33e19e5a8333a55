package dev.weft.report;

import static dev.weft.report.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineReaderTest {
  @TempDir Path tmp;

  private static Timeline read(Path dir, TimelineLimits limits) {
    try (Trace t = Trace.open(dir)) {
      return TimelineReader.read(t, limits);
    }
  }

  private static long[] iv(long start, long end, IntervalKind kind, int depth) {
    return new long[] {start, end, kind.ordinal() | depth << Timeline.DEPTH_SHIFT};
  }

  private static void assertIntervals(List<long[]> expected, Timeline.Track track) {
    List<long[]> actual = new ArrayList<>();
    for (long[] i : track.intervals()) {
      actual.add(new long[] {i[0], i[1], i[2]});
    }
    assertEquals(expected.size(), actual.size(), track.name() + " interval count");
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), track.name() + " interval " + i);
    }
  }

  @Test
  void smallTraceIsDrawnIntervalByInterval() throws IOException {
    Timeline tl = read(Fixtures.smallTrace(tmp.resolve("t")), TimelineLimits.defaults());
    assertEquals(Timeline.Mode.DETAILED, tl.mode());
    assertEquals(T0, tl.origin());
    assertEquals(2000, tl.end());
    assertEquals(
        List.of(
            new Timeline.Group("threads", 0, "", 0, 0, 2),
            new Timeline.Group("ForkJoinPool.commonPool", 1, "fork_join_pool", 2, 2, 2),
            new Timeline.Group("pool-1", 2, "executor", 1, 4, 1)),
        tl.groups());
    assertEquals(
        List.of("main", "timer", "fj-worker-1", "fj-worker-2", "pool-1-thread-1"),
        tl.tracks().stream().map(Timeline.Track::name).toList());

    Timeline.Track main = tl.tracks().get(0);
    assertIntervals(
        List.of(
            iv(0, 2000, IntervalKind.REGION, 0),
            iv(100, 910, IntervalKind.PARALLEL, 1),
            iv(130, 900, IntervalKind.JOIN_WAIT, 2),
            iv(1000, 1200, IntervalKind.LOCK_WAIT, 1),
            iv(1200, 1300, IntervalKind.LOCK_HOLD, 0),
            iv(1500, 1800, IntervalKind.SLEEP, 1)),
        main);
    assertEquals("main @ App.java:10", tl.labels().get((int) main.intervals().get(0)[3]));
    assertEquals(
        "ReentrantLock.lock @ Worker.java:33 on java.util.concurrent.locks.ReentrantLock",
        tl.labels().get((int) main.intervals().get(3)[3]));
    assertEquals(
        "lock on java.util.concurrent.locks.ReentrantLock",
        tl.labels().get((int) main.intervals().get(4)[3]));
    assertEquals(
        "sleep @ Thread.sleep @ App.java:44", tl.labels().get((int) main.intervals().get(5)[3]));
    assertIntervals(
        List.of(iv(200, 400, IntervalKind.SPIN, 0), iv(500, 800, IntervalKind.BARRIER_WAIT, 0)),
        tl.tracks().get(1));
    assertIntervals(
        List.of(
            iv(150, 610, IntervalKind.TASK, 0),
            iv(160, 600, IntervalKind.REGION, 1),
            iv(620, 800, IntervalKind.BARRIER_WAIT, 0)),
        tl.tracks().get(2));
    // A task is labelled with the call site that created it.
    assertEquals(
        "parallel stream @ App.java:20",
        tl.labels().get((int) tl.tracks().get(2).intervals().get(0)[3]));
    assertIntervals(List.of(iv(170, 850, IntervalKind.TASK, 0)), tl.tracks().get(3));
    assertIntervals(List.of(iv(1450, 1700, IntervalKind.TASK, 0)), tl.tracks().get(4));

    assertArrayEquals(new long[] {0, 110, 2, 150, 0, 120, 3, 170, 0, 1400, 4, 1450}, tl.arrows());
    assertEquals(13, tl.stats().intervals());
    assertEquals(3, tl.stats().arrows());
    assertEquals(0, tl.stats().unmatchedEnds());
    assertEquals(0, tl.stats().openAtEnd());
    assertEquals(5, tl.stats().streams());
    assertNull(main.columns());
  }

  /**
   * A re-entrant lock is held from its outermost acquisition to its last release; a failed tryLock
   * holds nothing; a lock still held when the thread ends is held to its end. Rows go by pool, then
   * by thread creation (Java thread id), not by the order the streams were opened.
   */
  @Test
  void lockHoldsAndRowsInCreationOrder() throws IOException {
    Path dir = tmp.resolve("holds");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 0, 1));
      Fixtures.region(w, 1, ConstructKind.REENTRANT_LOCK, "lock", "A.java", 1);
      StreamWriter late = w.openStream(30, "created-late", 0, 0, 0);
      StreamWriter early = w.openStream(10, "created-early", 0, 0, 0);
      early.lockAcquired(100, 5, 0);
      early.lockAcquired(150, 5, LockFlags.REENTRANT);
      early.lockReleased(200, 5);
      early.lockAcquired(250, 6, LockFlags.FAILED);
      early.lockReleased(300, 5);
      early.lockAcquired(400, 5, 0);
      early.threadEnd(500);
      late.enter(100, 1);
      late.exit(600, 1);
      w.close(600);
    }
    Timeline tl = read(dir, TimelineLimits.defaults());
    // Times are relative to the first event, at 100.
    assertEquals(
        List.of("created-early", "created-late"),
        tl.tracks().stream().map(Timeline.Track::name).toList());
    assertIntervals(
        List.of(iv(0, 200, IntervalKind.LOCK_HOLD, 0), iv(300, 400, IntervalKind.LOCK_HOLD, 0)),
        tl.tracks().get(0));
  }

  @Test
  void anAttachedRecordingIsDrawnFromWhereItsAnalysisStarts() throws IOException {
    // The agent had woven the loaded classes at 250 (agent.recording_from): what came before is
    // drawn as if then, as the analysis counts it.
    Path dir = tmp.resolve("attached");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 0, 1));
      Fixtures.region(w, 1, ConstructKind.REENTRANT_LOCK, "lock", "A.java", 1);
      w.defineAttribute("agent.attached", "true");
      w.defineAttribute("agent.recording_from", "250");
      StreamWriter s = w.openStream(10, "worker", 0, 0, 0);
      s.lockRequest(100, 1, 5);
      s.lockAcquired(200, 5, 0);
      s.lockReleased(300, 5);
      s.lockRequest(400, 1, 5);
      s.lockAcquired(500, 5, 0);
      s.lockReleased(600, 5);
      w.close(600);
    }
    Timeline tl = read(dir, TimelineLimits.defaults());
    assertEquals(250, tl.origin());
    // The first wait ended before 250: nothing of it is left; its hold is drawn from 250.
    assertIntervals(
        List.of(
            iv(0, 0, IntervalKind.LOCK_WAIT, 0),
            iv(0, 50, IntervalKind.LOCK_HOLD, 0),
            iv(150, 250, IntervalKind.LOCK_WAIT, 0),
            iv(250, 350, IntervalKind.LOCK_HOLD, 0)),
        tl.tracks().get(0));
  }

  @Test
  void endsWithoutStartsAreCountedAndOpenIntervalsRunToTheEnd() throws IOException {
    Path dir = tmp.resolve("edges");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 0, 1));
      Fixtures.region(w, 1, ConstructKind.USER_REGION, "r", "A.java", 1);
      Fixtures.region(w, 2, ConstructKind.REENTRANT_LOCK, "lock", "A.java", 2);
      StreamWriter a = w.openStream(1, "a", 0, 0, 0);
      StreamWriter b = w.openStream(2, "b", 0, 0, 0);
      a.exit(50, 1); // entered before the trace began
      a.lockAcquired(60, 9, 0); // requested before the trace began: no wait drawn, not a problem
      a.lockRequest(100, 2, 9); // never acquired
      b.enter(40, 1);
      b.exit(300, 1);
      w.close(1000);
    }
    Timeline tl = read(dir, TimelineLimits.defaults());
    assertEquals(1, tl.stats().unmatchedEnds());
    // The lock wait, and the lock acquired at 60 and never released.
    assertEquals(2, tl.stats().openAtEnd());
    assertEquals(960, tl.end(), "the trace's end record, relative to the first event at 40");
    Timeline.Track a = tl.tracks().get(0);
    assertEquals(2, a.intervals().size());
    long[] hold = a.intervals().get(0);
    assertArrayEquals(
        new long[] {20, 960, IntervalKind.LOCK_HOLD.ordinal() | Timeline.OPEN_AT_END},
        new long[] {hold[0], hold[1], hold[2]});
    long[] wait = a.intervals().get(1);
    assertEquals(60, wait[0]);
    assertEquals(960, wait[1]);
    assertEquals(IntervalKind.LOCK_WAIT.ordinal(), wait[2] & Timeline.KIND_MASK);
    assertTrue((wait[2] & Timeline.OPEN_AT_END) != 0);
    assertEquals(10, a.first());
    assertEquals(60, a.last());
  }

  @Test
  void passingTheLimitSummarisesAndDropsTheDetail() throws IOException {
    Timeline tl =
        read(
            Fixtures.smallTrace(tmp.resolve("t")),
            TimelineLimits.defaults().withMaxIntervals(11).withColumns(16));
    assertEquals(Timeline.Mode.SUMMARISED, tl.mode());
    assertEquals(13, tl.stats().intervals());
    assertEquals(0, tl.arrows().length);
    // The detail is gone, but each thread keeps its longest stretches of one activity (here all:
    // 16 a thread), depth 0 and apart; fj-worker-2's is its one task, labelled.
    for (Timeline.Track t : tl.tracks()) {
      long lastEnd = Long.MIN_VALUE;
      for (long[] iv : t.intervals()) {
        assertTrue(iv[0] >= lastEnd && iv[1] > iv[0], t.name() + " stretches apart");
        assertEquals(0, (iv[2] >> Timeline.DEPTH_SHIFT) & Timeline.DEPTH_MASK);
        assertTrue(iv[3] >= 0 && iv[3] < tl.labels().size(), "label kept");
        lastEnd = iv[1];
      }
    }
    List<long[]> worker2 = tl.tracks().get(3).intervals();
    assertEquals(1, worker2.size());
    assertArrayEquals(
        new long[] {170, 850, IntervalKind.TASK.ordinal()}, Arrays.copyOf(worker2.get(0), 3));
    // 2000 ns over 16 columns: 126 ns each (the END record tells the length up front).
    assertEquals(126, tl.columnWidth());
    assertEquals(16, tl.columns());
    // fj-worker-2 runs one task from 170 to 850: columns 1 (¾ full) to 6, nothing after 6.
    assertEquals(
        "."
            + sym(IntervalKind.TASK, 3)
            + sym(IntervalKind.TASK, 4)
            + "4"
            + sym(IntervalKind.TASK, 3)
            + ".9",
        tl.tracks().get(3).columns());
  }

  private static String sym(IntervalKind k, int level) {
    return String.valueOf(ColumnGrid.SYMBOLS.charAt(k.ordinal() * 4 + level - 1));
  }

  @Test
  void summarisedColumnsAgreeWithACountOverTheDetail() throws IOException {
    // Closed with an END record far too early: the column width is first underestimated, so the
    // grid
    // doubles many times while reading.
    for (long endRecord : new long[] {Long.MIN_VALUE, 10}) {
      Path dir = tmp.resolve("random" + (endRecord == 10 ? "-early" : ""));
      writeRandomTrace(dir, 4, 3000, 7, endRecord);
      Timeline detail = read(dir, TimelineLimits.defaults().withMaxIntervals(Integer.MAX_VALUE));
      assertEquals(Timeline.Mode.DETAILED, detail.mode());
      Timeline summary =
          read(dir, TimelineLimits.defaults().withMaxIntervals(1000).withColumns(64));
      assertEquals(Timeline.Mode.SUMMARISED, summary.mode());
      assertEquals(detail.stats().intervals(), summary.stats().intervals());
      assertTrue(summary.columns() <= 64 && summary.columns() > 32, "columns " + summary.columns());
      assertTrue(
          summary.end() < summary.columns() * summary.columnWidth(), "grid covers the trace");
      for (int t = 0; t < detail.tracks().size(); t++) {
        checkColumns(
            detail.tracks().get(t),
            summary.tracks().get(t),
            summary.columnWidth(),
            summary.columns());
      }
    }
  }

  /** Brute force: the innermost interval at every instant, summed per column and kind. */
  private static void checkColumns(
      Timeline.Track detail, Timeline.Track summary, long width, int columns) {
    int kinds = IntervalKind.ACTIVITIES;
    double[][] time = new double[columns][kinds];
    TreeSet<Long> cuts = new TreeSet<>();
    for (long[] i : detail.intervals()) {
      cuts.add(i[0]);
      cuts.add(i[1]);
    }
    for (long c = 0; c <= columns; c++) {
      cuts.add(c * width);
    }
    Long prev = null;
    for (long cut : cuts) {
      if (prev != null && cut > prev) {
        long mid = prev;
        int best = -1;
        long bestDepth = -1;
        for (long[] i : detail.intervals()) {
          long depth = (i[2] >> Timeline.DEPTH_SHIFT) & Timeline.DEPTH_MASK;
          // A lock hold is drawn under the activity and is no column's activity.
          boolean activity = (i[2] & Timeline.KIND_MASK) != IntervalKind.LOCK_HOLD.ordinal();
          if (activity && i[0] <= mid && mid < i[1] && depth > bestDepth) {
            best = (int) (i[2] & Timeline.KIND_MASK);
            bestDepth = depth;
          }
        }
        int col = (int) (prev / width);
        if (best >= 0 && col < columns) {
          time[col][best] += cut - prev;
        }
      }
      prev = cut;
    }
    String decoded = decode(summary.columns(), columns);
    for (int c = 0; c < columns; c++) {
      char s = decoded.charAt(c);
      double max = 0;
      for (double v : time[c]) {
        max = Math.max(max, v);
      }
      if (max == 0) {
        assertEquals('.', s, summary.name() + " column " + c + " is empty");
        continue;
      }
      if (s == '.') {
        fail(summary.name() + " column " + c + " should show activity");
      }
      int idx = ColumnGrid.SYMBOLS.indexOf(s);
      int kind = idx / 4;
      int level = idx % 4 + 1;
      assertTrue(
          time[c][kind] >= max - 1e-3 * width, summary.name() + " column " + c + " dominant kind");
      double quarters = 4 * Math.min(1, max / width);
      int expected = Math.max(1, (int) Math.ceil(quarters));
      boolean nearBoundary = Math.abs(quarters - Math.rint(quarters)) < 1e-3;
      assertTrue(
          level == expected || (nearBoundary && Math.abs(level - expected) <= 1),
          summary.name() + " column " + c + " level " + level + " expected " + expected);
    }
  }

  private static String decode(String rle, int columns) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < rle.length(); ) {
      char s = rle.charAt(i++);
      int j = i;
      while (j < rle.length() && Character.isDigit(rle.charAt(j))) {
        j++;
      }
      int n = j > i ? Integer.parseInt(rle.substring(i, j)) : 1;
      i = j;
      out.append(String.valueOf(s).repeat(n));
    }
    while (out.length() < columns) {
      out.append('.');
    }
    return out.toString();
  }

  /** Threads doing random nested regions, tasks, lock waits and waits, with idle gaps. */
  private static void writeRandomTrace(
      Path dir, int threads, int perThread, long seed, long endRecord) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 0, 1));
      Fixtures.region(w, 1, ConstructKind.USER_REGION, "r", "A.java", 1);
      long last = 0;
      for (int th = 0; th < threads; th++) {
        StreamWriter s = w.openStream(th + 1, "t" + th, 0, 0, 0);
        long t = 1000 + r.nextInt(5000);
        int open = 0;
        int[] stack = new int[16];
        for (int i = 0; i < perThread; i++) {
          t += r.nextInt(1, 3000);
          if (open > 0 && (open == stack.length || r.nextInt(3) == 0)) {
            switch (stack[--open]) {
              case 0 -> s.exit(t, 1);
              case 1 -> s.taskEnd(t, 100 + open);
              case 2 -> s.lockAcquired(t, 50 + open, 0);
              default -> s.waitExit(t, 1);
            }
            continue;
          }
          int kind = r.nextInt(4);
          switch (kind) {
            case 0 -> s.enter(t, 1);
            case 1 -> s.taskBegin(t, 100 + open);
            case 2 -> s.lockRequest(t, 1, 50 + open);
            default -> s.waitEnter(t, 1, 1);
          }
          stack[open++] = kind;
        }
        while (open > 0) {
          t += r.nextInt(1, 3000);
          switch (stack[--open]) {
            case 0 -> s.exit(t, 1);
            case 1 -> s.taskEnd(t, 100 + open);
            case 2 -> s.lockAcquired(t, 50 + open, 0);
            default -> s.waitExit(t, 1);
          }
        }
        last = Math.max(last, t);
      }
      w.close(endRecord == Long.MIN_VALUE ? last : endRecord);
    }
  }
}
