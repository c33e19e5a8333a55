package thirdparty;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Ground truth that neither tracing tool produces: the JVM's own per-thread counters (ThreadMXBean
 * with contention monitoring: time BLOCKED on monitors, time WAITING/TIMED_WAITING in park and
 * Object.wait) and the driver's own System.nanoTime measurements around third-party calls.
 * Printed as one JSON line, the last line of stdout.
 */
final class Truth {
  private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
  private static final Map<String, AtomicLong> TIMERS = new ConcurrentHashMap<>();
  private static final long START = System.nanoTime();

  static void start() {
    if (MX.isThreadContentionMonitoringSupported()) {
      MX.setThreadContentionMonitoringEnabled(true);
    }
  }

  private static final Map<String, long[]> DONE = new ConcurrentHashMap<>();

  /** Called by a worker as its last action: keeps its counters after it has ended. */
  static void threadDone() {
    ThreadInfo ti = MX.getThreadInfo(Thread.currentThread().getId());
    DONE.put(ti.getThreadName(),
        new long[] {ti.getBlockedTime(), ti.getBlockedCount(), ti.getWaitedTime(), ti.getWaitedCount()});
  }

  static void add(String name, long ns) {
    TIMERS.computeIfAbsent(name, k -> new AtomicLong()).addAndGet(ns);
  }

  /** Blocked/waited ms summed over live threads whose name starts with each prefix. */
  static void print(String workload, String... prefixes) {
    long wallNs = System.nanoTime() - START;
    Map<String, long[]> groups = new LinkedHashMap<>();
    for (String p : prefixes) groups.put(p, new long[4]);
    Map<String, long[]> all = new LinkedHashMap<>(DONE);
    for (ThreadInfo ti : MX.getThreadInfo(MX.getAllThreadIds())) {
      if (ti == null || all.containsKey(ti.getThreadName())) continue;
      all.put(ti.getThreadName(),
          new long[] {ti.getBlockedTime(), ti.getBlockedCount(), ti.getWaitedTime(), ti.getWaitedCount()});
    }
    for (Map.Entry<String, long[]> th : all.entrySet()) {
      for (String p : prefixes) {
        if (th.getKey().startsWith(p)) {
          long[] g = groups.get(p);
          for (int i = 0; i < 4; i++) g[i] += th.getValue()[i];
          break;
        }
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "{\"workload\":\"%s\",\"wall_ms\":%.1f", workload, wallNs / 1e6));
    sb.append(",\"threads\":{");
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, long[]> e : groups.entrySet()) {
      long[] g = e.getValue();
      parts.add(String.format(Locale.ROOT,
          "\"%s\":{\"blocked_ms\":%d,\"blocked_count\":%d,\"waited_ms\":%d,\"waited_count\":%d}",
          e.getKey(), g[0], g[1], g[2], g[3]));
    }
    sb.append(String.join(",", parts)).append("},\"timers_ms\":{");
    parts.clear();
    TIMERS.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
        parts.add(String.format(Locale.ROOT, "\"%s\":%.1f", e.getKey(), e.getValue().get() / 1e6)));
    sb.append(String.join(",", parts)).append("}}");
    System.out.println(sb);
  }

  private Truth() {}
}
