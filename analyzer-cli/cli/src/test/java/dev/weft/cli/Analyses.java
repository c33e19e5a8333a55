package dev.weft.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Hand-written {@code weft-analysis/1} files for diff and check tests. */
final class Analyses {
  static final long TIME_NS = 4_000_000_000L; // 4 threads x 1 s

  private Analyses() {}

  /** Property id -> parent, in the analyzer's order. */
  static final Map<String, String> TREE = new LinkedHashMap<>();

  static {
    TREE.put("time", null);
    TREE.put("execution", "time");
    TREE.put("idle_threads", "time");
    TREE.put("limited_parallelism", "idle_threads");
    TREE.put("thread_management", "time");
    TREE.put("join_wait", "time");
    TREE.put("barrier_wait", "time");
    TREE.put("lock_contention", "time");
    TREE.put("monitor_contention", "lock_contention");
    TREE.put("lock_api_contention", "lock_contention");
    TREE.put("spin_wait", "time");
    TREE.put("pool_queue_wait", null);
    TREE.put("work_imbalance", null);
  }

  /** The baseline's shares of time, in percent. */
  static Map<String, Double> baseline() {
    Map<String, Double> p = new LinkedHashMap<>();
    p.put("time", 100.0);
    p.put("execution", 70.0);
    p.put("idle_threads", 10.0);
    p.put("limited_parallelism", 4.0);
    p.put("thread_management", 1.0);
    p.put("join_wait", 5.0);
    p.put("barrier_wait", 8.0);
    p.put("lock_contention", 6.0);
    p.put("monitor_contention", 4.0);
    p.put("lock_api_contention", 2.0);
    p.put("spin_wait", 0.2);
    p.put("pool_queue_wait", 3.0);
    p.put("work_imbalance", 7.0);
    return p;
  }

  /**
   * Writes an analysis with these shares; each property's severity is split over two workers 3:1,
   * and the region "solve" loses {@code lostNs}.
   */
  static Path write(Path file, Map<String, Double> percents, long lostNs) throws IOException {
    ObjectMapper m = new ObjectMapper();
    ObjectNode root = m.createObjectNode();
    root.put("format", "weft-analysis/1");
    ObjectNode trace = root.putObject("trace");
    trace.put("path", "/traces/" + file.getFileName());
    trace.put("duration_ns", 1_000_000_000L);
    trace.put("threads", 4);
    trace.put("events", 123456);
    trace.put("dropped", 0);
    root.put("time_ns", TIME_NS);
    ArrayNode props = root.putArray("properties");
    for (Map.Entry<String, String> e : TREE.entrySet()) {
      Double pct = percents.get(e.getKey());
      if (pct == null) {
        continue;
      }
      long ns = Math.round(TIME_NS * pct / 100);
      ObjectNode p = props.addObject();
      p.put("id", e.getKey());
      if (e.getValue() == null) {
        p.putNull("parent");
      } else {
        p.put("parent", e.getValue());
      }
      p.put("name", e.getKey().replace('_', ' '));
      p.put("severity_ns", ns);
      p.put("percent", pct);
      ArrayNode byThread = p.putArray("by_thread");
      byThread.addObject().put("thread", "worker-1").put("severity_ns", ns * 3 / 4);
      byThread.addObject().put("thread", "worker-2").put("severity_ns", ns - ns * 3 / 4);
      ArrayNode byPath = p.putArray("by_callpath");
      ObjectNode cp = byPath.addObject();
      cp.putArray("path").add("main").add("solve @ Solver.java:42");
      cp.put("severity_ns", ns);
    }
    ArrayNode regions = root.putArray("regions");
    ObjectNode r = regions.addObject();
    r.put("name", "solve");
    r.put("location", "Solver.java:42");
    r.put("instances", 10);
    r.putObject("busy_ns_by_thread").put("worker-1", 600_000_000L).put("worker-2", 400_000_000L);
    r.put("imbalance", lostNs / 1e9);
    r.put("lost_ns", lostNs);
    ObjectNode quiet = regions.addObject();
    quiet.put("name", "setup");
    quiet.put("location", "Solver.java:10");
    quiet.put("instances", 1);
    quiet.putObject("busy_ns_by_thread").put("main", 1000L);
    quiet.put("imbalance", 0.0);
    quiet.put("lost_ns", 0);
    Files.writeString(file, m.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    return file;
  }
}
