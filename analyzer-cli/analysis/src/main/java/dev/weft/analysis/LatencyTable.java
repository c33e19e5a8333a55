package dev.weft.analysis;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Task latencies grouped for a report: all tasks, per pool and per (pool, creation call path). A
 * property in task time (not thread time) fills one; {@link Results} turns its call-path nodes into
 * labels.
 */
public final class LatencyTable {
  /** A (pool, call path node) group. */
  public record Key(String pool, int node) {}

  private final LatencyHistogram all = new LatencyHistogram();
  private final Map<String, LatencyHistogram> byPool = new LinkedHashMap<>();
  private final Map<Key, LatencyHistogram> byCallpath = new LinkedHashMap<>();

  /** Adds one task's latency. */
  public void add(String pool, int node, long ns) {
    all.add(ns);
    byPool.computeIfAbsent(pool, p -> new LatencyHistogram()).add(ns);
    byCallpath.computeIfAbsent(new Key(pool, node), k -> new LatencyHistogram()).add(ns);
  }

  public LatencyHistogram all() {
    return all;
  }

  public Map<String, LatencyHistogram> byPool() {
    return byPool;
  }

  public Map<Key, LatencyHistogram> byCallpath() {
    return byCallpath;
  }
}
