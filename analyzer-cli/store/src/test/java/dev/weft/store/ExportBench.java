package dev.weft.store;

import dev.weft.analysis.Analyzer;
import dev.weft.analysis.SyntheticTrace;
import dev.weft.store.parquet.Codec;
import dev.weft.store.parquet.Column;
import dev.weft.store.parquet.Dictionary;
import dev.weft.store.parquet.RowBlock;
import dev.weft.store.parquet.RowOrder;
import dev.weft.store.parquet.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Prints the export rates of {@code weft export --format parquet}, per codec: the Parquet writer
 * alone (rows shaped like {@code events}, made up in a loop), the analysis alone, {@code
 * wait_intervals} (analysis included) and with the raw events, in rows per second of wall time and
 * bytes per row. {@code java -cp … dev.weft.store.ExportBench [EVENTS] [THREADS] [CODECS] [PASSES]}
 * (see export-bench.sh); not a test.
 */
public final class ExportBench {
  private ExportBench() {}

  public static void main(String[] args) throws Exception {
    long events = args.length > 0 ? Long.parseLong(args[0]) : 40_000_000L;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    List<Codec> codecs = new ArrayList<>();
    for (String c : (args.length > 2 ? args[2] : "UNCOMPRESSED,GZIP").split(",")) {
      codecs.add(Codec.valueOf(c.trim().toUpperCase(java.util.Locale.ROOT)));
    }
    int passes = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    Path work = Files.createTempDirectory("weft-export-bench");
    Path trace = work.resolve("trace");
    long written = SyntheticTrace.write(trace, threads, events, new int[] {4, 1, 1, 1});
    System.out.printf("trace: %d events, %d threads%n", written, threads);
    Analyzer.analyze(trace); // warm-up: the timed analysis and exports then run compiled code
    for (Codec codec : codecs) {
      for (int pass = 0; pass < passes; pass++) {
        writerAlone(work.resolve("alone"), Math.min(written, 10_000_000L), threads, codec);
        long t0 = System.nanoTime();
        long cpu0 = cpuNs();
        Analyzer.analyze(trace);
        double analysis = (System.nanoTime() - t0) / 1e9;
        double analysisCpu = (cpuNs() - cpu0) / 1e9;
        Path waitsDir = work.resolve("waits-" + codec + pass);
        Timed w = export(trace, waitsDir, false, codec);
        Path eventsDir = work.resolve("events-" + codec + pass);
        Timed e = export(trace, eventsDir, true, codec);
        System.out.printf(
            "%s: analysis alone %.1f s (%.1f CPU-s); wait_intervals: %d rows in %.2f s (%.1f"
                + " CPU-s; %.2f M rows/s end to end, %s beyond the analysis, %.1f bytes/row);"
                + " with --events: %d events in %.1f s (%.1f CPU-s; %.2f M rows/s end to end, %s"
                + " beyond the wait export, %.1f bytes/row)%n",
            codec,
            analysis,
            analysisCpu,
            w.result.waitRows(),
            w.wall,
            w.cpu,
            w.result.waitRows() / w.wall / 1e6,
            beyond(w.result.waitRows(), w.cpu - analysisCpu),
            (double) size(w.result.files().get(0)) / Math.max(1, w.result.waitRows()),
            e.result.eventRows(),
            e.wall,
            e.cpu,
            (e.result.waitRows() + e.result.eventRows()) / e.wall / 1e6,
            beyond(e.result.eventRows(), e.cpu - w.cpu),
            (double) size(e.result.files().get(1)) / Math.max(1, e.result.eventRows()));
        delete(waitsDir);
        delete(eventsDir);
      }
    }
    delete(work);
  }

  /** An export's result with its wall and CPU seconds. */
  private record Timed(TraceExport.Result result, double wall, double cpu) {}

  /** One timed {@code weft export}: the wait intervals, and with {@code events} every event. */
  private static Timed export(Path trace, Path dir, boolean events, Codec codec) throws Exception {
    long t0 = System.nanoTime();
    long cpu0 = cpuNs();
    TraceExport.Result r =
        TraceExport.export(
            trace,
            dir,
            new TraceExport.Options(0, Long.MAX_VALUE, (s, n) -> true, events, Map.of(), codec));
    return new Timed(r, (System.nanoTime() - t0) / 1e9, (cpuNs() - cpu0) / 1e9);
  }

  /**
   * Rows per CPU-second of the extra work, or "n/a" when the extra CPU time is within the noise of
   * the two runs it is the difference of.
   */
  private static String beyond(long rows, double extraCpuSeconds) {
    return extraCpuSeconds < 0.05
        ? "n/a"
        : String.format(
            java.util.Locale.ROOT, "%.2f M rows per CPU-s", rows / extraCpuSeconds / 1e6);
  }

  /** Rows shaped like events (thread, stream, time, kind, four fields) made in a loop. */
  private static void writerAlone(Path dir, long rows, int threads, Codec codec)
      throws IOException {
    Dictionary runIds = Dictionary.ofStrings();
    Dictionary names = Dictionary.ofStrings();
    Dictionary kinds = Dictionary.ofStrings();
    int run = runIds.id("00000000-0000-0000-0000-000000000000");
    for (int t = 0; t < threads; t++) {
      names.id("worker-" + t);
    }
    for (int k = 0; k < 12; k++) {
      kinds.id("kind_" + k);
    }
    List<Column> columns = new ArrayList<>();
    columns.add(Column.string("run_id", false, runIds));
    columns.add(Column.string("thread", false, names));
    columns.add(Column.int32("stream"));
    columns.add(Column.int64("ts_ns", false));
    columns.add(Column.string("kind", false, kinds));
    for (int f = 0; f < 4; f++) {
      columns.add(Column.int64("f" + f, true));
    }
    Path target = dir.resolve("alone.parquet");
    long t0 = System.nanoTime();
    long cpu0 = cpuNs();
    try (TableWriter w =
        TableWriter.create(
            dir.resolve(".alone.tmp"),
            columns,
            Map.of(),
            codec,
            RowOrder.byBucketThreadTime(3, TraceExport.BUCKET_NS, 1),
            TraceExport.ROW_GROUP)) {
      long ts = 1_700_000_000_000_000_000L;
      for (long r = 0; r < rows; r++) {
        RowBlock b = w.block();
        int i = b.add();
        int thread = (int) (r % threads);
        ts += 37 + (r & 63);
        b.ints[0][i] = run;
        b.ints[1][i] = thread;
        b.ints[2][i] = thread;
        b.longs[3][i] = ts;
        b.ints[4][i] = (int) ((r >>> 3) % 12);
        b.longs[5][i] = r >>> 4; // a region or object id
        b.longs[6][i] = r & 7;
        b.setNull(7, i);
        b.setNull(8, i);
      }
      w.finish(target);
    }
    double s = (System.nanoTime() - t0) / 1e9;
    double cpu = (cpuNs() - cpu0) / 1e9;
    System.out.printf(
        "%s: writer alone: %d rows in %.2f s, %.2f CPU-s: %.2f M rows/s, %.2f M rows per"
            + " CPU-second, %.1f bytes/row%n",
        codec, rows, s, cpu, rows / s / 1e6, rows / cpu / 1e6, (double) size(target) / rows);
    delete(dir);
  }

  /** CPU time of the whole process (every thread, the JIT and GC included). */
  private static long cpuNs() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static long size(Path f) throws IOException {
    return Files.size(f);
  }

  private static void delete(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (var files = Files.walk(p)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
