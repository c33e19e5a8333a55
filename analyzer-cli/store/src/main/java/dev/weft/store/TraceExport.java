package dev.weft.store;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.analysis.CountedWait;
import dev.weft.store.parquet.Codec;
import dev.weft.store.parquet.Column;
import dev.weft.store.parquet.Dictionary;
import dev.weft.store.parquet.RowBlock;
import dev.weft.store.parquet.RowOrder;
import dev.weft.store.parquet.TableWriter;
import dev.weft.trace.ClockDef;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;

/**
 * {@code weft export TRACE --format parquet -o DIR}: a trace's waits (and, when asked, its raw
 * events) as tables of a store, beside the run's row and cells. The waits come from the analysis
 * ({@link Analyzer.Options#withWaits}), so that they sum to its figures. Rows go straight into the
 * column buffers of a {@link TableWriter} (no database on this path); each row group of {@value
 * #ROW_GROUP} rows is sorted by a one-second time bucket, thread and time, so that a reader skips
 * the row groups outside a time range.
 */
public final class TraceExport {
  /** Rows per Parquet row group of the exported tables. */
  static final int ROW_GROUP = 524_288;

  /** The time bucket the rows of a row group are sorted by first, in ns. */
  static final long BUCKET_NS = 1_000_000_000L;

  /** The compression of the exported tables unless asked otherwise (see STORE.md). */
  public static final Codec DEFAULT_CODEC = Codec.GZIP;

  /**
   * What to export.
   *
   * @param fromNs start of the window, ns after the trace's first event
   * @param toNs end of the window, ns after the trace's first event (Long.MAX_VALUE: the end)
   * @param threads which threads (stream id, name) to export
   * @param events also export the raw events
   * @param codec how the pages of the exported tables are compressed
   */
  public record Options(
      long fromNs,
      long toNs,
      BiPredicate<Integer, String> threads,
      boolean events,
      Map<String, String> labels,
      Codec codec) {
    /** With the default compression. */
    public Options(
        long fromNs,
        long toNs,
        BiPredicate<Integer, String> threads,
        boolean events,
        Map<String, String> labels) {
      this(fromNs, toNs, threads, events, labels, DEFAULT_CODEC);
    }
  }

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
    } catch (UncheckedIOException e) {
      throw new StoreException(trace + ": cannot read: " + e.getCause().getMessage(), e);
    }
    long from = first + options.fromNs();
    long to = options.toNs() >= Long.MAX_VALUE - first ? Long.MAX_VALUE : first + options.toNs();
    ClockDef clock = defs.clock();
    long toEpoch = clock == null ? 0 : clock.epochNanos() - clock.nanoBase();
    String runId = UUID.randomUUID().toString();
    Path waitsTmp = temporary(dir, StoreSchema.WAIT_INTERVALS, runId);
    // The events are read on a thread of their own while the analysis replays the trace: with the
    // encoding threads of both tables, the export keeps two cores busy.
    AtomicBoolean cancelled = new AtomicBoolean();
    FutureTask<EventRows> eventPass =
        options.events()
            ? new FutureTask<>(
                () -> events(trace, defs, dir, runId, from, to, toEpoch, options, cancelled))
            : null;
    if (eventPass != null) {
      Thread t = new Thread(eventPass, "weft-export-events");
      t.setDaemon(true);
      t.start();
    }
    try (WaitRows rows =
        new WaitRows(waitsTmp, runId, from, to, toEpoch, options.threads(), options.codec())) {
      StoredRun.CellCollector cells = new StoredRun.CellCollector();
      AnalysisResult result;
      try {
        result =
            Analyzer.analyze(
                trace, cells.options(Analyzer.Options.defaults()).withWaits(both(cells, rows)));
      } catch (UncheckedIOException e) {
        if (e.getCause() instanceof StoreException s) {
          throw s;
        }
        throw e;
      }
      StoredRun analysed = StoredRun.of(result, cells, defs, options.labels());
      StoredRun run =
          new StoredRun(
              runId,
              analysed.startedAtNs(),
              analysed.durationNs(),
              analysed.timeNs(),
              analysed.host(),
              analysed.jvm(),
              analysed.mainClass(),
              analysed.status(),
              analysed.labels(),
              analysed.cells());
      long storedAt = nowNs();
      List<Path> files = new ArrayList<>();
      Path waits = StoreWriter.file(dir, StoreSchema.WAIT_INTERVALS, run, storedAt);
      rows.table.finish(waits);
      files.add(waits);
      long eventRows = 0;
      if (eventPass != null) {
        Path events = StoreWriter.file(dir, StoreSchema.EVENTS, run, storedAt);
        EventRows e = await(eventPass);
        e.table().finish(events);
        eventRows = e.rows();
        files.add(events);
      }
      files.addAll(StoreWriter.append(dir, run));
      return new Result(run, result, rows.written, eventRows, files);
    } catch (IOException e) {
      if (e instanceof StoreException s) {
        throw s;
      }
      throw new StoreException(dir + ": cannot export: " + e.getMessage(), e);
    } finally {
      if (eventPass != null) {
        cancelled.set(true);
        try {
          await(eventPass).table().close(); // deletes the file unless it was finished
        } catch (IOException | RuntimeException ignored) {
          // the export failed already; the events pass failed too or left nothing
        }
      }
    }
  }

  private static EventRows await(FutureTask<EventRows> pass) throws IOException {
    try {
      return pass.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while exporting the events", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      throw new StoreException("cannot export the events: " + e.getCause(), e.getCause());
    }
  }

  /** The events pass's file, complete but for its footer and name, and how many rows it has. */
  private record EventRows(TableWriter table, long rows) {}

  /**
   * A hidden name in the table's directory (the date partition is known once the analysis is done),
   * renamed into the partition when complete.
   */
  private static Path temporary(Path dir, String table, String runId) {
    return dir.resolve(table)
        .resolve(".run-" + runId + ".parquet." + ProcessHandle.current().pid() + ".tmp");
  }

  private static Map<String, String> metadata(String table) {
    return Map.of(
        StoreSchema.VERSION_KEY,
        Integer.toString(StoreSchema.VERSION),
        StoreSchema.TABLE_KEY,
        table);
  }

  private static Analyzer.WaitSink both(Analyzer.WaitSink a, Analyzer.WaitSink b) {
    return w -> {
      a.wait(w);
      b.wait(w);
    };
  }

  private static long nowNs() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  /** The waits in the window, as rows of {@code wait_intervals} (STORE.md, in this order). */
  private static final class WaitRows implements Analyzer.WaitSink, AutoCloseable {
    private static final int RUN_ID = 0;
    private static final int THREAD = 1;
    private static final int TS = 2;
    private static final int DUR = 3;
    private static final int WAIT = 4;
    private static final int KIND = 5;
    private static final int CONSTRUCT = 6;
    private static final int PROPERTY = 7;
    private static final int CALLPATH_KEY = 8;
    private static final int CALLPATH = 9;
    private static final int OBJECT = 10;
    private static final int BLOCKER = 11;

    final TableWriter table;
    private final long from;
    private final long to;
    private final long toEpoch;
    private final BiPredicate<Integer, String> threads;
    private final int runId;
    private final Dictionary threadNames = Dictionary.ofStrings();
    private final Dictionary strings = Dictionary.ofStrings();
    private final Dictionary callpaths = Dictionary.ofStrings();
    private final Dictionary callpathKeys = Dictionary.ofLongs();

    /** By thread index: 0 not seen yet, -1 not exported, else 1 + its name's id. */
    private int[] threadIds = new int[64];

    /** By call-path node: 0 not seen yet, else 1 + the id of its text (and of its key). */
    private int[] nodeIds = new int[1024];

    long written;

    WaitRows(
        Path tmp,
        String runId,
        long from,
        long to,
        long toEpoch,
        BiPredicate<Integer, String> threads,
        Codec codec)
        throws IOException {
      this.from = from;
      this.to = to;
      this.toEpoch = toEpoch;
      this.threads = threads;
      Dictionary runIds = Dictionary.ofStrings();
      this.runId = runIds.id(runId);
      this.table =
          TableWriter.create(
              tmp,
              List.of(
                  Column.string("run_id", false, runIds),
                  Column.string("thread", false, threadNames),
                  Column.int64("ts_ns", false),
                  Column.int64("dur_ns", false),
                  Column.int64("wait_ns", false),
                  Column.string("kind", false, strings),
                  Column.string("construct", true, strings),
                  Column.string("property", false, strings),
                  Column.int64Dict("callpath_key", callpathKeys),
                  Column.string("callpath", false, callpaths),
                  Column.int64("object_id", true),
                  Column.string("blocker_thread", true, threadNames)),
              metadata(StoreSchema.WAIT_INTERVALS),
              codec,
              RowOrder.byBucketThreadTime(TS, BUCKET_NS, THREAD),
              ROW_GROUP);
    }

    @Override
    public void wait(CountedWait w) {
      if (w.end() < from || w.start() >= to) { // kept when it overlaps the window
        return;
      }
      int thread = threadId(w);
      if (thread < 0) {
        return;
      }
      int node = nodeId(w);
      try {
        RowBlock b = table.block();
        int i = b.add();
        b.ints[RUN_ID][i] = runId;
        b.ints[THREAD][i] = thread;
        b.longs[TS][i] = w.start() + toEpoch;
        b.longs[DUR][i] = w.end() - w.start();
        b.longs[WAIT][i] = w.ns();
        b.ints[KIND][i] = strings.id(w.kind());
        b.ints[CONSTRUCT][i] = w.construct() == null ? -1 : strings.id(w.construct());
        b.ints[PROPERTY][i] = strings.id(w.property());
        b.ints[CALLPATH_KEY][i] = node;
        b.ints[CALLPATH][i] = node;
        if (w.object() == 0) {
          b.setNull(OBJECT, i);
        } else {
          b.longs[OBJECT][i] = w.object();
        }
        b.ints[BLOCKER][i] = w.blocker() < 0 ? -1 : threadNames.id(w.blockerName());
        written++;
      } catch (IOException e) {
        throw new UncheckedIOException(
            new StoreException("cannot write a wait interval: " + e.getMessage(), e));
      }
    }

    /** The waiting thread's name id, or -1 when the thread is not exported. */
    private int threadId(CountedWait w) {
      int t = w.thread();
      if (t >= threadIds.length) {
        threadIds = Arrays.copyOf(threadIds, Math.max(t + 1, threadIds.length * 2));
      }
      if (threadIds[t] == 0) {
        threadIds[t] =
            threads.test(w.stream(), w.threadName()) ? 1 + threadNames.id(w.threadName()) : -1;
      }
      return threadIds[t] < 0 ? -1 : threadIds[t] - 1;
    }

    /** The id of the wait's call path in both call-path dictionaries (added together). */
    private int nodeId(CountedWait w) {
      int n = w.node();
      if (n >= nodeIds.length) {
        nodeIds = Arrays.copyOf(nodeIds, Math.max(n + 1, nodeIds.length * 2));
      }
      if (nodeIds[n] == 0) {
        List<String> frames = w.callpath();
        int id = callpaths.size();
        callpaths.add(CallPathKey.text(frames));
        callpathKeys.add(CallPathKey.of(frames));
        nodeIds[n] = 1 + id;
      }
      return nodeIds[n] - 1;
    }

    @Override
    public void close() throws IOException {
      table.close();
    }
  }

  /** Writes the events in the window to a temporary file of {@code dir}'s events table. */
  private static EventRows events(
      Path trace,
      Definitions defs,
      Path dir,
      String runId,
      long from,
      long to,
      long toEpoch,
      Options options,
      AtomicBoolean cancelled)
      throws IOException {
    final int runIdCol = 0;
    final int threadCol = 1;
    final int streamCol = 2;
    final int tsCol = 3;
    final int kindCol = 4;
    final int field0 = 5;
    Dictionary runIds = Dictionary.ofStrings();
    Dictionary threadNames = Dictionary.ofStrings();
    Dictionary kinds = Dictionary.ofStrings();
    int run = runIds.id(runId);
    // By stream id: 1 + the thread name's id; 0 for streams not exported (or not defined).
    Map<Integer, Integer> streams = new HashMap<>();
    int maxStream = 0;
    for (ThreadDef t : defs.threads()) {
      maxStream = Math.max(maxStream, t.stream());
      if (options.threads().test(t.stream(), t.name())) {
        streams.put(t.stream(), 1 + threadNames.id(t.name()));
      }
    }
    int[] threadOf = new int[maxStream + 1];
    streams.forEach((s, id) -> threadOf[s] = id);
    int[] kindOf =
        new int[1 + Arrays.stream(EventKind.values()).mapToInt(EventKind::code).max().orElse(0)];
    for (EventKind k : EventKind.values()) {
      kindOf[k.code()] = kinds.id(k.id());
    }
    List<Column> columns = new ArrayList<>();
    columns.add(Column.string("run_id", false, runIds));
    columns.add(Column.string("thread", false, threadNames));
    columns.add(Column.int32("stream"));
    columns.add(Column.int64("ts_ns", false));
    columns.add(Column.string("kind", false, kinds));
    for (int f = 0; f < EventKind.MAX_FIELDS; f++) {
      columns.add(Column.int64("f" + f, true));
    }
    long n = 0;
    TableWriter table =
        TableWriter.create(
            temporary(dir, StoreSchema.EVENTS, runId),
            columns,
            metadata(StoreSchema.EVENTS),
            options.codec(),
            RowOrder.byBucketThreadTime(tsCol, BUCKET_NS, threadCol),
            ROW_GROUP);
    boolean read = false;
    try (Trace t = Trace.open(trace)) {
      EventCursor e = t.events();
      while (e.next() && ((n & 0xFFFF) != 0 || !cancelled.get())) {
        long ts = e.time();
        int stream = e.stream();
        if (ts < from || ts >= to || stream < 0 || stream > maxStream || threadOf[stream] == 0) {
          continue;
        }
        EventKind k = e.kind();
        int fields = k.fieldCount();
        RowBlock b = table.block();
        int i = b.add();
        b.ints[runIdCol][i] = run;
        b.ints[threadCol][i] = threadOf[stream] - 1;
        b.ints[streamCol][i] = stream;
        b.longs[tsCol][i] = ts + toEpoch;
        b.ints[kindCol][i] = kindOf[k.code()];
        for (int f = 0; f < EventKind.MAX_FIELDS; f++) {
          if (f < fields) {
            b.longs[field0 + f][i] = e.field(f);
          } else {
            b.setNull(field0 + f, i);
          }
        }
        n++;
      }
      read = true;
    } catch (UncheckedIOException e) {
      throw new StoreException(trace + ": cannot read: " + e.getCause().getMessage(), e);
    } finally {
      if (!read) {
        table.close();
      }
    }
    return new EventRows(table, n);
  }
}
