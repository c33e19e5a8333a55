package dev.weft.cli;

import dev.weft.export.ChromeFilter;
import dev.weft.store.TraceExport;
import dev.weft.store.parquet.Codec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * {@code weft export TRACE --format parquet -o DIR}: the trace's wait intervals (and with {@code
 * --events} its events) appended to the store in DIR, with the run's row and cells.
 */
final class ParquetExport {
  private ParquetExport() {}

  static int run(
      Path trace,
      Path dir,
      ChromeFilter window,
      boolean events,
      boolean uncompressed,
      PrintWriter err)
      throws IOException {
    long start = System.nanoTime();
    TraceExport.Result r =
        TraceExport.export(
            trace,
            dir,
            new TraceExport.Options(
                window.fromNanos(),
                window.toNanos(),
                window::showsThread,
                events,
                Map.of(),
                uncompressed ? Codec.UNCOMPRESSED : TraceExport.DEFAULT_CODEC));
    double s = (System.nanoTime() - start) / 1e9;
    long rows = r.waitRows() + r.eventRows();
    err.println(
        String.format(
            Locale.ROOT,
            "weft: stored run %s in %s: %d wait intervals%s in %.1f s (%.0f rows/s); query it with"
                + " weft query %s \"SELECT kind, sum(wait_ns) FROM wait_intervals GROUP BY ALL\"",
            r.run().runId(),
            dir,
            r.waitRows(),
            events ? ", " + r.eventRows() + " events" : "",
            s,
            rows / Math.max(s, 1e-9),
            dir));
    err.flush();
    return ExitCodes.OK;
  }
}
