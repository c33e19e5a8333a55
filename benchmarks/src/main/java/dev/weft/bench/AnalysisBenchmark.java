package dev.weft.bench;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.trace.EventCursor;
import dev.weft.trace.ReadAheadCursor;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Times the analysis of one trace: wall and CPU time of {@link Analyzer#analyze}, events per second
 * of each. Run it under {@code /usr/bin/time -v} for the peak RSS (see analyze-bench.sh). With
 * {@code --read-only} it times reading the trace alone (every event of the merged cursor, no
 * analysis), the floor under the analysis. {@code --threads N} analyses with {@link
 * Analyzer.Options#withThreads} N (1: read and replay on one thread; 2: read ahead on another; 0,
 * the default: the analyzer decides); the process's CPU time (every thread: the analysis, the
 * reader, the JIT compilers and the garbage collector) is printed beside the analysing thread's.
 *
 * <pre>java -cp benchmarks.jar dev.weft.bench.AnalysisBenchmark [--read-only | --threads N] TRACE
 * </pre>
 */
public final class AnalysisBenchmark {
  private AnalysisBenchmark() {}

  public static void main(String[] args) {
    boolean readOnly = args.length == 2 && args[0].equals("--read-only");
    boolean withThreads = args.length == 3 && args[0].equals("--threads");
    if (args.length != 1 && !readOnly && !withThreads) {
      System.err.println("usage: AnalysisBenchmark [--read-only | --threads N] TRACE");
      System.exit(2);
    }
    if (readOnly) {
      read(Path.of(args[1]));
      return;
    }
    int threads = withThreads ? Integer.parseInt(args[1]) : 0;
    Path trace = Path.of(args[args.length - 1]);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long cpu0 = mx.getCurrentThreadCpuTime();
    long process0 = processCpu();
    Map<String, Long> kinds0 = cpuByThreadKind();
    AnalyzerThreads analyzerThreads = AnalyzerThreads.watch(mx);
    long wall0 = System.nanoTime();
    AnalysisResult r = Analyzer.analyze(trace, Analyzer.Options.defaults().withThreads(threads));
    double wall = (System.nanoTime() - wall0) / 1e9;
    double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
    double process = (processCpu() - process0) / 1e9;
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
    System.out.printf(
        Locale.ROOT,
        "threads %s: process CPU %.2f s (all threads: analysis, reader, JIT, GC), %.1f M events"
            + " per process CPU-second%n",
        threads == 0 ? "auto" : String.valueOf(threads),
        process,
        events / process / 1e6);
    System.out.println(threadKinds(kinds0, process) + analyzerThreads.stop());
    System.out.println(memory());
  }

  /**
   * The process's CPU time during the analysis split by kind of thread, read from {@code
   * /proc/self/task} (Linux): the JIT compilers, the garbage collector, the analysing thread, and
   * the threads that ended meanwhile (the analyzer's reader and critical-path threads), the rest.
   */
  private static String threadKinds(Map<String, Long> before, double processSeconds) {
    Map<String, Long> after = cpuByThreadKind();
    if (after.isEmpty()) {
      return "CPU by thread kind: not available (no /proc/self/task)";
    }
    StringBuilder b = new StringBuilder("CPU by thread kind, s:");
    double live = 0;
    for (String kind : List.of("JIT", "GC", "main", "other")) {
      double s = (after.getOrDefault(kind, 0L) - before.getOrDefault(kind, 0L)) / 1e9;
      live += s;
      b.append(String.format(Locale.ROOT, " %s %.2f;", kind, s));
    }
    b.append(
        String.format(
            Locale.ROOT, " ended threads (reader, critical path) %.2f", processSeconds - live));
    return b.toString();
  }

  /**
   * The CPU time of the analyzer's own threads ({@code weft-trace-reader}, {@code
   * weft-critical-path}), which end before the analysis returns: read every 20 ms while they run,
   * so the figure may miss up to their last 20 ms.
   */
  private static final class AnalyzerThreads {
    private final Map<String, Long> cpu = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean stopped;
    private Thread watcher;

    static AnalyzerThreads watch(ThreadMXBean mx) {
      AnalyzerThreads w = new AnalyzerThreads();
      w.watcher =
          new Thread(
              () -> {
                while (!w.stopped) {
                  Thread[] all = new Thread[Thread.activeCount() + 8];
                  int n = Thread.enumerate(all);
                  for (int i = 0; i < n; i++) {
                    if (all[i].getName().startsWith("weft-")) {
                      long ns = mx.getThreadCpuTime(all[i].getId());
                      if (ns > 0) {
                        w.cpu.merge(all[i].getName() + "#" + all[i].getId(), ns, Math::max);
                      }
                    }
                  }
                  try {
                    Thread.sleep(20);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "bench-thread-watcher");
      w.watcher.setDaemon(true);
      w.watcher.start();
      return w;
    }

    /** "; reader 1.23, critical path 2.34" (s), or "" when neither ran. */
    String stop() {
      stopped = true;
      try {
        watcher.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      double reader = 0;
      double critical = 0;
      for (Map.Entry<String, Long> e : cpu.entrySet()) {
        if (e.getKey().startsWith("weft-trace-reader")) {
          reader += e.getValue() / 1e9;
        } else if (e.getKey().startsWith("weft-critical-path")) {
          critical += e.getValue() / 1e9;
        }
      }
      return reader + critical == 0
          ? ""
          : String.format(Locale.ROOT, " (reader %.2f, critical path %.2f)", reader, critical);
    }
  }

  /** CPU ns of the live threads by kind ({@code JIT}, {@code GC}, {@code main}, {@code other}). */
  private static Map<String, Long> cpuByThreadKind() {
    Map<String, Long> kinds = new HashMap<>();
    long tick = 1_000_000_000L / 100; // USER_HZ on Linux
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path task : tasks) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
          continue; // the thread ended meanwhile
        }
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String name = stat.substring(open + 1, close);
        String[] f = stat.substring(close + 2).split(" ");
        long ns = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * tick; // utime + stime
        String kind =
            name.contains("Compiler")
                ? "JIT"
                : name.startsWith("GC ") || name.startsWith("G1 ")
                    ? "GC"
                    : name.equals("main") || name.equals("java") ? "main" : "other";
        kinds.merge(kind, ns, Long::sum);
      }
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return kinds;
  }

  /** CPU time of the whole process so far, in ns (-1 when the JVM cannot tell). */
  private static long processCpu() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1;
  }

  /**
   * Reads every event of the trace in merged order and prints events/s of CPU; then again through a
   * {@link ReadAheadCursor}, whose reading runs on another thread: what is left on the consuming
   * thread (taking batches, the accessors) is the floor under a replay that reads ahead.
   */
  private static void read(Path dir) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (boolean ahead : new boolean[] {false, true}) {
      long cpu0 = mx.getCurrentThreadCpuTime();
      long wall0 = System.nanoTime();
      long events = 0;
      long checksum = 0; // uses what a reader would, so that no read is optimised away
      try (Trace trace = Trace.open(dir);
          ReadAheadCursor readAhead = ahead ? new ReadAheadCursor(trace.events()) : null) {
        EventCursor c = ahead ? readAhead : trace.events();
        while (c.next()) {
          events++;
          checksum +=
              c.time()
                  + c.stream()
                  + c.kind().code()
                  + (c.kind().fieldCount() > 0 ? c.field(0) : 0);
        }
      }
      double wall = (System.nanoTime() - wall0) / 1e9;
      double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "read %,d events (%s, no analysis) in %.2f s CPU: %.1f M events/s CPU, %.1f M/s wall"
              + " (checksum %x)%n",
          events,
          ahead ? "read ahead, this thread's CPU" : "merged",
          cpu,
          events / cpu / 1e6,
          events / wall / 1e6,
          checksum & 0xF);
    }
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
