package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The CPU time of this JVM's live threads, read from {@code /proc/self/task/*&#47;stat} (Linux),
 * for the benchmark programs that split a run's CPU by thread kind
 * (benchmarks/first-run-overhead.sh, benchmarks/weave-cost.sh). Threads that have ended are no
 * longer listed.
 */
public final class ThreadCpu {
  /** The kernel counts thread CPU in ticks of 1/USER_HZ s; USER_HZ is 100 on Linux. */
  private static final long NS_PER_TICK = 10_000_000L;

  private ThreadCpu() {}

  /** Whether the thread named so is one of the JIT's compiler threads. */
  public static boolean isJit(String threadName) {
    return threadName.startsWith("C1 Comp") || threadName.startsWith("C2 Comp");
  }

  /** User + system CPU ns of the live threads, summed by {@code kind} of their names. */
  public static Map<String, Long> byKind(Function<String, String> kind) throws IOException {
    Map<String, Long> kinds = new TreeMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException gone) {
          continue; // the thread ended while listed
        }
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ns = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NS_PER_TICK; // utime, stime
        kinds.merge(kind.apply(name), ns, Long::sum);
      }
    }
    return kinds;
  }

  /** User + system CPU ns of the JIT's compiler threads. */
  public static long jit() throws IOException {
    return byKind(n -> isJit(n) ? "jit" : "other").getOrDefault("jit", 0L);
  }
}
