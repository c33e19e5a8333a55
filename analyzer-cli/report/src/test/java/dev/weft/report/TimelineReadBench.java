package dev.weft.report;

import dev.weft.trace.Trace;
import dev.weft.trace.TraceVerifier;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * How fast do the readers of event pairs read a trace: {@code weft verify}'s verifier and the HTML
 * report's timeline, each timed {@code N} times in one JVM after a warm-up, the median printed in
 * events per second. Compare medians of runs on the same trace.
 *
 * <pre>java -cp ... dev.weft.report.TimelineReadBench TRACE [N]</pre>
 */
public final class TimelineReadBench {
  private TimelineReadBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    long events;
    try (Trace t = Trace.open(dir)) {
      events = TraceVerifier.verify(t).events();
    }
    double[] verify = new double[runs];
    double[] timeline = new double[runs];
    for (int i = 0; i < runs; i++) {
      try (Trace t = Trace.open(dir)) {
        long start = System.nanoTime();
        TraceVerifier.verify(t);
        verify[i] = events / ((System.nanoTime() - start) / 1e9);
      }
      try (Trace t = Trace.open(dir)) {
        long start = System.nanoTime();
        TimelineReader.read(t, TimelineLimits.defaults());
        timeline[i] = events / ((System.nanoTime() - start) / 1e9);
      }
    }
    Arrays.sort(verify);
    Arrays.sort(timeline);
    System.out.printf(
        Locale.ROOT,
        "%d events: verify %.1f M events/s, timeline %.1f M events/s (medians of %d)%n",
        events,
        verify[runs / 2] / 1e6,
        timeline[runs / 2] / 1e6,
        runs);
  }
}
