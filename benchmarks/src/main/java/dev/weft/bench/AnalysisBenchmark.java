package dev.weft.bench;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.trace.EventCursor;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Times the analysis of one trace: wall and CPU time of {@link Analyzer#analyze}, events per second
 * of each. Run it under {@code /usr/bin/time -v} for the peak RSS (see analyze-bench.sh). With
 * {@code --read-only} it times reading the trace alone (every event of the merged cursor, no
 * analysis), the floor under the analysis.
 *
 * <pre>java -cp benchmarks.jar dev.weft.bench.AnalysisBenchmark [--read-only] TRACE</pre>
 */
public final class AnalysisBenchmark {
  private AnalysisBenchmark() {}

  public static void main(String[] args) {
    boolean readOnly = args.length == 2 && args[0].equals("--read-only");
    if (args.length != 1 && !readOnly) {
      System.err.println("usage: AnalysisBenchmark [--read-only] TRACE");
      System.exit(2);
    }
    if (readOnly) {
      read(Path.of(args[1]));
      return;
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long cpu0 = mx.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    AnalysisResult r = Analyzer.analyze(Path.of(args[0]));
    double wall = (System.nanoTime() - wall0) / 1e9;
    double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
    long events = r.trace().events();
    System.out.printf(
        Locale.ROOT,
        "analysed %,d events (%d threads) in %.2f s wall, %.2f s CPU: %.1f M events/s wall,"
            + " %.1f M events/s CPU; barrier_wait %.2f%%, lock_contention %.2f%%%n",
        events,
        r.trace().threads(),
        wall,
        cpu,
        events / wall / 1e6,
        events / cpu / 1e6,
        r.property("barrier_wait").percent(),
        r.property("lock_contention").percent());
    System.out.println(memory());
  }

  /** Reads every event of the trace in merged order and prints events/s of CPU. */
  private static void read(Path dir) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long cpu0 = mx.getCurrentThreadCpuTime();
    long events = 0;
    long checksum = 0; // uses what a reader would, so that no read is optimised away
    try (Trace trace = Trace.open(dir)) {
      EventCursor c = trace.events();
      while (c.next()) {
        events++;
        checksum += c.time() + c.stream() + c.kind().code() + c.field(0);
      }
    }
    double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "read %,d events (merged, no analysis) in %.2f s CPU: %.1f M events/s CPU (checksum %x)%n",
        events,
        cpu,
        events / cpu / 1e6,
        checksum & 0xF);
  }

  /**
   * The process's memory at the end (Linux): anonymous memory (heap and the analyzer's state) apart
   * from file pages (the trace's mapped blocks, which the reader leaves to the garbage collector).
   */
  private static String memory() {
    StringBuilder b = new StringBuilder("memory at end:");
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("RssAnon") || line.startsWith("RssFile") || line.startsWith("VmHWM")) {
          b.append(' ').append(line.replaceAll("\\s+", " "));
        }
      }
    } catch (IOException e) {
      b.append(" (no /proc/self/status)");
    }
    Runtime rt = Runtime.getRuntime();
    b.append(
        String.format(
            Locale.ROOT, " heap-used: %d MiB", (rt.totalMemory() - rt.freeMemory()) >> 20));
    return b.toString();
  }
}
