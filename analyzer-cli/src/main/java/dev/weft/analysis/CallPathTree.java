package dev.weft.analysis;

import dev.weft.trace.Definitions;
import dev.weft.trace.RegionDef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The call-path tree: nodes are (parent, region) pairs, node 0 being the root (a thread outside any
 * recorded region). Its size is bounded by the program's structure, not by trace length.
 */
final class CallPathTree {
  /** The root: time a thread spends outside any recorded region. */
  static final int ROOT = 0;

  /** Pseudo-region of a task whose creation precedes the trace. */
  static final int UNKNOWN_TASK = -1;

  private int[] parent = new int[256];
  private int[] region = new int[256];
  // One-entry cache per node of its most recently used child: loops call the same region again.
  private int[] lastChildRegion = new int[256];
  private int[] lastChild = new int[256];
  private int size = 1;
  private final LongIntMap children = new LongIntMap(256);

  CallPathTree() {
    parent[ROOT] = -1;
    region[ROOT] = Integer.MIN_VALUE;
  }

  /** The node for {@code regionId} called under {@code parentNode}, created on first use. */
  int child(int parentNode, int regionId) {
    int cached = lastChild[parentNode];
    if (cached > 0 && lastChildRegion[parentNode] == regionId) {
      return cached;
    }
    int n = lookup(parentNode, regionId);
    lastChildRegion[parentNode] = regionId;
    lastChild[parentNode] = n;
    return n;
  }

  private int lookup(int parentNode, int regionId) {
    long key = ((long) parentNode << 32) | (regionId & 0xFFFFFFFFL);
    int n = children.get(key);
    if (n >= 0) {
      return n;
    }
    if (size == parent.length) {
      parent = Arrays.copyOf(parent, size * 2);
      region = Arrays.copyOf(region, size * 2);
      lastChildRegion = Arrays.copyOf(lastChildRegion, size * 2);
      lastChild = Arrays.copyOf(lastChild, size * 2);
    }
    n = size++;
    parent[n] = parentNode;
    region[n] = regionId;
    children.put(key, n);
    return n;
  }

  int size() {
    return size;
  }

  int parent(int node) {
    return parent[node];
  }

  int region(int node) {
    return region[node];
  }

  /** One node's label: {@code "name @ File.java:12"}. */
  static String label(Definitions defs, int regionId) {
    if (regionId == UNKNOWN_TASK) {
      return "(task created before the trace)";
    }
    RegionDef r = defs.region(regionId);
    if (r == null) {
      return "region " + regionId;
    }
    String where = r.location();
    return where.isEmpty() ? r.name() : r.name() + " @ " + where;
  }

  /** The labels from the root's child down to {@code node}; empty for the root. */
  List<String> path(Definitions defs, int node) {
    List<String> p = new ArrayList<>();
    for (int n = node; n > ROOT; n = parent[n]) {
      p.add(label(defs, region[n]));
    }
    java.util.Collections.reverse(p);
    return p;
  }
}
