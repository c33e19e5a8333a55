package dev.weft.store;

import dev.weft.analysis.Analyzer;
import dev.weft.analysis.SyntheticTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Prints the export rates of {@code weft export --format parquet}: the analysis alone, wait
 * intervals (analysis included) and with the raw events, in rows per second of wall time. {@code
 * java -cp … dev.weft.store.ExportBench [EVENTS] [THREADS]} (see export-bench.sh); not a test.
 */
public final class ExportBench {
  private ExportBench() {}

  public static void main(String[] args) throws Exception {
    long events = args.length > 0 ? Long.parseLong(args[0]) : 40_000_000L;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    Path work = Files.createTempDirectory("weft-export-bench");
    Path trace = work.resolve("trace");
    long written = SyntheticTrace.write(trace, threads, events, new int[] {4, 1, 1, 1});
    System.out.printf("trace: %d events, %d threads%n", written, threads);
    for (int i = 0; i < 2; i++) {
      long t0 = System.nanoTime();
      Analyzer.analyze(trace);
      double analysis = (System.nanoTime() - t0) / 1e9;
      t0 = System.nanoTime();
      TraceExport.Result w =
          TraceExport.export(
              trace,
              work.resolve("store-" + i),
              new TraceExport.Options(0, Long.MAX_VALUE, (s, n) -> true, false, Map.of()));
      double waits = (System.nanoTime() - t0) / 1e9;
      t0 = System.nanoTime();
      TraceExport.Result e =
          TraceExport.export(
              trace,
              work.resolve("events-" + i),
              new TraceExport.Options(0, Long.MAX_VALUE, (s, n) -> true, true, Map.of()));
      double all = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          "analysis alone %.1f s; wait_intervals: %d rows in %.1f s (%.2f M rows/s, %.2f M/s"
              + " beyond the analysis); with --events: %d rows in %.1f s (%.2f M rows/s)%n",
          analysis,
          w.waitRows(),
          waits,
          w.waitRows() / waits / 1e6,
          w.waitRows() / Math.max(1e-3, waits - analysis) / 1e6,
          e.waitRows() + e.eventRows(),
          all,
          (e.waitRows() + e.eventRows()) / all / 1e6);
    }
    try (var files = Files.walk(work)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
