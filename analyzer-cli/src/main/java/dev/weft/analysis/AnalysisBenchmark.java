package dev.weft.analysis;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Times the analysis of one trace: wall and CPU time of {@link Analyzer#analyze}, events per second
 * of each. Run it under {@code /usr/bin/time -v} for the peak RSS (see analyze-bench.sh).
 *
 * <pre>java -cp weft.jar dev.weft.analysis.AnalysisBenchmark TRACE</pre>
 */
public final class AnalysisBenchmark {
  private AnalysisBenchmark() {}

  public static void main(String[] args) {
    if (args.length != 1) {
      System.err.println("usage: AnalysisBenchmark TRACE");
      System.exit(2);
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
