package dev.weft.analysis;

import java.util.Arrays;
import java.util.IdentityHashMap;
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

  /**
   * Per pool seen, by identity (a replay passes each pool's one name string): its histogram and its
   * (pool, call path) histograms by node. Found without allocating or hashing a {@link Key}: this
   * runs for every task.
   */
  private final Map<String, PoolGroups> groups = new IdentityHashMap<>();

  private PoolGroups lastGroups;

  private static final class PoolGroups {
    final String pool;
    final LatencyHistogram histogram;
    final LongIntMap nodes = new LongIntMap(16);
    LatencyHistogram[] byNode = new LatencyHistogram[16];
    int size;

    PoolGroups(String pool, LatencyHistogram histogram) {
      this.pool = pool;
      this.histogram = histogram;
    }
  }

  /** Adds one task's latency. */
  public void add(String pool, int node, long ns) {
    all.add(ns);
    PoolGroups g = lastGroups;
    if (g == null || g.pool != pool) {
      g = groups.get(pool);
      if (g == null) {
        g = new PoolGroups(pool, byPool.computeIfAbsent(pool, p -> new LatencyHistogram()));
        groups.put(pool, g);
      }
      lastGroups = g;
    }
    g.histogram.add(ns);
    int i = g.nodes.get(node);
    if (i < 0) {
      i = g.size++;
      if (i == g.byNode.length) {
        g.byNode = Arrays.copyOf(g.byNode, i * 2);
      }
      g.byNode[i] = byCallpath.computeIfAbsent(new Key(pool, node), k -> new LatencyHistogram());
      g.nodes.put(node, i);
    }
    g.byNode[i].add(ns);
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
