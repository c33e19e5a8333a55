package dev.weft.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * How big is the HTML report of a large trace, how long does it take to write, and how fast does it
 * open in headless Chromium? Run by {@code analyzer-cli/report-bench.sh}; one line per case:
 *
 * <ul>
 *   <li>{@code detailed}: a trace just under the 50 000-interval limit (the largest page drawn
 *       interval by interval, with its arrows);
 *   <li>{@code N events}: fork-join traces of N events (summarised: 9 threads);
 *   <li>{@code wide}: 1 000 threads, where the column budget shrinks the columns per thread.
 * </ul>
 *
 * Open time is the median of three loads: from the navigation request until the page says it has
 * drawn everything ({@code #app[data-ready=1]}), measured from Java; the page's own {@code
 * performance.now()} at that point is printed too. Exits 1 if a page is over 5 MiB or opens in 3 s
 * or more.
 */
public final class ReportBench {
  private static final long MAX_BYTES = 5L * 1024 * 1024;
  private static final long MAX_OPEN_MS = 3000;

  private ReportBench() {}

  /** Arguments: event counts of the fork-join cases (default 1000000 10000000). */
  public static void main(String[] args) throws Exception {
    List<Long> sizes = new ArrayList<>();
    for (String a : args) {
      sizes.add(Long.parseLong(a.replace("_", "")));
    }
    if (sizes.isEmpty()) {
      sizes = List.of(1_000_000L, 10_000_000L);
    }
    Path work = Files.createTempDirectory("weft-report-bench-");
    boolean ok = true;
    System.out.printf(
        Locale.ROOT,
        "%-22s %12s %10s %9s %11s %11s %10s %9s%n",
        "case",
        "events",
        "intervals",
        "mode",
        "page bytes",
        "write ms",
        "open ms",
        "page ms");
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      int workers = 8;
      long detailedEvents =
          (long)
                  (TimelineLimits.defaults().maxIntervals()
                      / SyntheticTrace.intervalsPerRound(workers))
              * SyntheticTrace.eventsPerRound(workers);
      ok &= run(browser, work, "detailed (at limit)", detailedEvents, 6, 2);
      for (long n : sizes) {
        ok &= run(browser, work, String.format(Locale.ROOT, "%,d events", n), n, 6, 2);
      }
      ok &= run(browser, work, "wide (1000 threads)", 2_000_000, 900, 99);
    } finally {
      deleteTree(work);
    }
    System.out.println(ok ? "all pages within 5 MiB and 3 s" : "LIMIT EXCEEDED");
    System.exit(ok ? 0 : 1);
  }

  private static boolean run(
      HeadlessChromium browser, Path work, String name, long events, int fj, int ex)
      throws IOException, InterruptedException {
    Path trace = work.resolve("trace");
    Path page = work.resolve("report.html");
    long written = SyntheticTrace.write(trace, events, fj, ex, 1);
    long t0 = System.nanoTime();
    try (OutputStream out = Files.newOutputStream(page)) {
      HtmlReport.write(Fixtures.analysis(), trace, out);
    }
    long writeMs = (System.nanoTime() - t0) / 1_000_000;
    long bytes = Files.size(page);
    long[] open = new long[3];
    double pageMs = 0;
    for (int i = 0; i < open.length; i++) {
      Duration d = browser.open(page);
      open[i] = d.toMillis();
      pageMs = browser.eval("+document.getElementById('app').dataset.renderMs").asDouble();
    }
    Arrays.sort(open);
    String mode = browser.eval("document.getElementById('timeline').dataset.mode").asText();
    long intervals =
        browser
            .eval("JSON.parse(document.getElementById('weft-data').textContent).timeline.intervals")
            .asLong();
    List<String> errors = browser.errors();
    System.out.printf(
        Locale.ROOT,
        "%-22s %,12d %,10d %9s %,11d %11d %10d %9.0f%s%n",
        name,
        written,
        intervals,
        mode,
        bytes,
        writeMs,
        open[1],
        pageMs,
        errors.isEmpty() ? "" : "  JS errors: " + errors);
    deleteTree(trace);
    Files.delete(page);
    return bytes <= MAX_BYTES && open[1] < MAX_OPEN_MS && errors.isEmpty();
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
