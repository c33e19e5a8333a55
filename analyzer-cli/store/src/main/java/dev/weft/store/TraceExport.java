package dev.weft.store;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.analysis.CountedWait;
import dev.weft.trace.ClockDef;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * {@code weft export TRACE --format parquet -o DIR}: a trace's waits (and, when asked, its raw
 * events) as tables of a store, beside the run's row and cells. The waits come from the analysis
 * ({@link Analyzer.Options#withWaits}), so that they sum to its figures; rows are appended to an
 * in-memory DuckDB table and written sorted by a one-second time bucket, thread and time, in row
 * groups of {@value #ROW_GROUP} rows compressed with zstd, for time-range queries.
 */
public final class TraceExport {
  /** Rows per Parquet row group of the exported tables. */
  static final int ROW_GROUP = 524_288;

  /** The time bucket the rows are sorted by first, in ns. */
  static final long BUCKET_NS = 1_000_000_000L;

  /**
   * What to export.
   *
   * @param fromNs start of the window, ns after the trace's first event
   * @param toNs end of the window, ns after the trace's first event (Long.MAX_VALUE: the end)
   * @param threads which threads (stream id, name) to export
   * @param events also export the raw events
   */
  public record Options(
      long fromNs,
      long toNs,
      BiPredicate<Integer, String> threads,
      boolean events,
      Map<String, String> labels) {}

  /**
   * What was written.
   *
   * @param files every file written: wait intervals, events (with --events), results, runs
   */
  public record Result(
      StoredRun run, AnalysisResult analysis, long waitRows, long eventRows, List<Path> files) {}

  private TraceExport() {}

  /** Exports the trace in {@code trace} to the store in {@code dir}. */
  public static Result export(Path trace, Path dir, Options options) throws StoreException {
    Definitions defs;
    long first;
    try (Trace t = Trace.open(trace)) {
      defs = t.definitions();
      EventCursor c = t.events();
      first = c.next() ? c.time() : 0;
    }
    long from = first + options.fromNs();
    long to = options.toNs() >= Long.MAX_VALUE - first ? Long.MAX_VALUE : first + options.toNs();
    ClockDef clock = defs.clock();
    long toEpoch = clock == null ? 0 : clock.epochNanos() - clock.nanoBase();
    long storedAt = Instant.now().getEpochSecond() * 1_000_000_000L + Instant.now().getNano();
    try (Connection c = StoreEngine.open();
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE w (thread INTEGER, ts BIGINT, endt BIGINT, ns BIGINT, kind INTEGER,"
              + " construct INTEGER, property INTEGER, node INTEGER, object BIGINT,"
              + " blocker INTEGER)");
      WaitRows rows = new WaitRows(Appender.open(c, "w"), from, to, options.threads());
      StoredRun.CellCollector cells = new StoredRun.CellCollector();
      AnalysisResult result;
      try {
        result =
            Analyzer.analyze(
                trace, cells.options(Analyzer.Options.defaults()).withWaits(both(cells, rows)));
        rows.appender.close();
      } catch (UncheckedIOException e) {
        throw (StoreException) e.getCause();
      }
      StoredRun run = StoredRun.of(result, cells, defs, options.labels());
      rows.writeDimensions(c);
      List<Path> files = new ArrayList<>();
      Path waits = StoreWriter.file(dir, StoreSchema.WAIT_INTERVALS, run, storedAt);
      StoreWriter.copy(
          st,
          "(SELECT "
              + Sql.literal(run.runId())
              + " AS run_id, t.name AS thread, w.ts + "
              + toEpoch
              + " AS ts_ns, w.endt - w.ts AS dur_ns, w.ns AS wait_ns, k.s AS kind,"
              + " cs.s AS construct, pr.s AS property, p.key AS callpath_key,"
              + " p.text AS callpath, nullif(w.object, 0) AS object_id, b.name AS blocker_thread"
              + " FROM w JOIN threads t ON w.thread = t.i LEFT JOIN threads b ON w.blocker = b.i"
              + " JOIN names k ON w.kind = k.i LEFT JOIN names cs ON w.construct = cs.i"
              + " JOIN names pr ON w.property = pr.i JOIN paths p ON w.node = p.node"
              + sorted()
              + ")",
          StoreSchema.WAIT_INTERVALS,
          waits,
          rowGroups());
      files.add(waits);
      long eventRows = 0;
      if (options.events()) {
        Path events = StoreWriter.file(dir, StoreSchema.EVENTS, run, storedAt);
        eventRows = events(c, st, trace, defs, from, to, options.threads());
        StoreWriter.copy(
            st,
            "(SELECT "
                + Sql.literal(run.runId())
                + " AS run_id, t.name AS thread, e.stream, e.ts + "
                + toEpoch
                + " AS ts_ns, k.name AS kind, e.f0, e.f1, e.f2, e.f3 FROM e"
                + " JOIN streams t ON e.stream = t.stream JOIN kinds k ON e.kind = k.code"
                + sorted()
                + ")",
            StoreSchema.EVENTS,
            events,
            rowGroups());
        files.add(events);
      }
      try (StoreWriter w = StoreWriter.open()) {
        files.addAll(w.add(dir, run));
      }
      return new Result(run, result, rows.written, eventRows, files);
    } catch (SQLException e) {
      throw new StoreException(dir + ": cannot export: " + Sql.oneLine(e), e);
    }
  }

  private static String sorted() {
    return " ORDER BY ts_ns // " + BUCKET_NS + ", thread, ts_ns";
  }

  private static String rowGroups() {
    return ", ROW_GROUP_SIZE " + ROW_GROUP;
  }

  private static Analyzer.WaitSink both(Analyzer.WaitSink a, Analyzer.WaitSink b) {
    return w -> {
      a.wait(w);
      b.wait(w);
    };
  }

  /** The waits in the window, appended as numbers; names and call paths kept once each. */
  private static final class WaitRows implements Analyzer.WaitSink {
    private final Appender appender;
    private final long from;
    private final long to;
    private final BiPredicate<Integer, String> threads;
    private final Map<Integer, String> threadNames = new HashMap<>();
    private final Map<Integer, Boolean> shown = new HashMap<>();
    private final Map<String, Integer> names = new HashMap<>();
    private final Map<Integer, List<String>> paths = new HashMap<>();
    long written;

    WaitRows(Appender appender, long from, long to, BiPredicate<Integer, String> threads) {
      this.appender = appender;
      this.from = from;
      this.to = to;
      this.threads = threads;
    }

    @Override
    public void wait(CountedWait w) {
      if (w.end() < from || w.start() >= to) { // kept when it overlaps the window
        return;
      }
      int thread = w.thread();
      if (!shown.computeIfAbsent(thread, i -> threads.test(w.stream(), w.threadName()))) {
        return;
      }
      threadNames.putIfAbsent(thread, w.threadName());
      if (w.blocker() >= 0) {
        threadNames.putIfAbsent(w.blocker(), w.blockerName());
      }
      paths.computeIfAbsent(w.node(), n -> w.callpath());
      try {
        Appender a = appender;
        a.beginRow();
        a.append(thread);
        a.append(w.start());
        a.append(w.end());
        a.append(w.ns());
        a.append(name(w.kind()));
        a.append(w.construct() == null ? -1 : name(w.construct()));
        a.append(name(w.property()));
        a.append(w.node());
        a.append(w.object());
        a.append(w.blocker());
        a.endRow();
        written++;
      } catch (SQLException e) {
        throw new UncheckedIOException(
            new StoreException("cannot append a wait interval: " + Sql.oneLine(e), e));
      }
    }

    private int name(String s) {
      Integer i = names.get(s);
      if (i == null) {
        i = names.size();
        names.put(s, i);
      }
      return i;
    }

    /** The tables the wait rows refer to: thread names, strings and call paths. */
    void writeDimensions(Connection c) throws SQLException, StoreException {
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TABLE threads (i INTEGER, name VARCHAR)");
        st.execute("CREATE TABLE names (i INTEGER, s VARCHAR)");
        st.execute("CREATE TABLE paths (node INTEGER, key BIGINT, text VARCHAR)");
      }
      try (Appender a = Appender.open(c, "threads")) {
        for (Map.Entry<Integer, String> e : threadNames.entrySet()) {
          a.beginRow();
          a.append((int) e.getKey());
          a.append(e.getValue());
          a.endRow();
        }
      }
      try (Appender a = Appender.open(c, "names")) {
        for (Map.Entry<String, Integer> e : names.entrySet()) {
          a.beginRow();
          a.append((int) e.getValue());
          a.append(e.getKey());
          a.endRow();
        }
      }
      try (Appender a = Appender.open(c, "paths")) {
        for (Map.Entry<Integer, List<String>> e : paths.entrySet()) {
          a.beginRow();
          a.append((int) e.getKey());
          a.append(CallPathKey.of(e.getValue()));
          a.append(CallPathKey.text(e.getValue()));
          a.endRow();
        }
      }
    }
  }

  /** Appends the events in the window to a table {@code e}; returns how many. */
  private static long events(
      Connection c,
      Statement st,
      Path trace,
      Definitions defs,
      long from,
      long to,
      BiPredicate<Integer, String> threads)
      throws SQLException, StoreException {
    st.execute(
        "CREATE TABLE e (stream INTEGER, ts BIGINT, kind INTEGER, f0 BIGINT, f1 BIGINT,"
            + " f2 BIGINT, f3 BIGINT)");
    st.execute("CREATE TABLE streams (stream INTEGER, name VARCHAR)");
    st.execute("CREATE TABLE kinds (code INTEGER, name VARCHAR)");
    Map<Integer, Boolean> shown = new HashMap<>();
    try (Appender a = Appender.open(c, "streams")) {
      for (ThreadDef t : defs.threads()) {
        shown.put(t.stream(), threads.test(t.stream(), t.name()));
        a.beginRow();
        a.append(t.stream());
        a.append(t.name());
        a.endRow();
      }
    }
    try (Appender a = Appender.open(c, "kinds")) {
      for (EventKind k : EventKind.values()) {
        a.beginRow();
        a.append(k.code());
        a.append(k.id());
        a.endRow();
      }
    }
    long n = 0;
    try (Trace t = Trace.open(trace);
        Appender a = Appender.open(c, "e")) {
      EventCursor e = t.events();
      while (e.next()) {
        long ts = e.time();
        if (ts < from || ts >= to || !shown.getOrDefault(e.stream(), Boolean.TRUE)) {
          continue;
        }
        EventKind k = e.kind();
        int fields = k.fieldCount();
        a.beginRow();
        a.append(e.stream());
        a.append(ts);
        a.append(k.code());
        for (int i = 0; i < EventKind.MAX_FIELDS; i++) {
          if (i < fields) {
            a.append(e.field(i));
          } else {
            a.appendNull();
          }
        }
        a.endRow();
        n++;
      }
    }
    return n;
  }
}
