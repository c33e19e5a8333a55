package dev.weft.analysis;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
  }
}
