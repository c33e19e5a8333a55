package dev.weft.analysis;

import dev.weft.trace.Definitions;
import dev.weft.trace.RegionDef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The call-path tree: nodes are (parent, region) pairs, node 0 being the root (a thread outside any
 * recorded region). Its size is bounded by the program's structure, not by trace length, and its
 * depth by {@link #MAX_DEPTH}: frames nested deeper than that (deep recursion, or a damaged stream
 * that never exits) share one {@linkplain #folded() folded} node, so that every output of a call
 * path (JSON, text, HTML) stays small and nothing downstream recurses deeper than that.
 */
public final class CallPathTree {
  /** The root: time a thread spends outside any recorded region. */
  static final int ROOT = 0;

  /** Deepest call path kept: the node at this depth holds everything nested below it. */
  public static final int MAX_DEPTH = 256;

  /** Label of the node that holds frames nested deeper than {@link #MAX_DEPTH}. */
  static final String FOLDED_LABEL = "(deeper call path folded)";

  /** Label of the pseudo-region of a task whose creation precedes the trace. */
  static final String UNKNOWN_TASK_LABEL = "(task created before the trace)";

  private static final byte REAL = 0;
  private static final byte UNKNOWN_TASK = 1;
  private static final byte FOLDED = 2;
  private static final byte TASK = 3;
  private static final byte RUNNING_VIRTUAL_THREADS = 4;
  private static final byte WORKER_START = 5;
  private static final byte WORKER_EXIT = 6;

  /** Label of the node where a carrier's time running virtual threads goes. */
  static final String RUNNING_VIRTUAL_THREADS_LABEL = "(running virtual threads)";

  /** Label of the node where a pool worker's start-up before its first task goes. */
  static final String WORKER_START_LABEL = "(pool worker starting)";

  /** Label of the node where a pool worker's way out after its last task goes. */
  static final String WORKER_EXIT_LABEL = "(pool worker ending)";

  private int[] parent = new int[256];
  private int[] region = new int[256];
  private byte[] pseudo = new byte[256];
  private int[] depth = new int[256];
  // One-entry cache per node of its most recently used child: loops call the same region again.
  private int[] lastChildRegion = new int[256];
  private int[] lastChild = new int[256];
  private int size = 1;
  private int folded;
  private final LongIntMap children = new LongIntMap(256);
  private final LongIntMap taskChildren = new LongIntMap(64);

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
    int n;
    if (depth[parentNode] >= MAX_DEPTH - 1) {
      n = pseudoChild(parentNode, FOLDED);
    } else {
      n = node(((long) parentNode << 32) | (regionId & 0xFFFFFFFFL), parentNode, regionId, REAL);
    }
    lastChildRegion[parentNode] = regionId;
    lastChild[parentNode] = n;
    return n;
  }

  /** The node of a task begun under {@code parentNode} whose creation was not recorded. */
  int unknownTask(int parentNode) {
    return depth[parentNode] >= MAX_DEPTH - 1
        ? pseudoChild(parentNode, FOLDED)
        : pseudoChild(parentNode, UNKNOWN_TASK);
  }

  /**
   * The frame of a task named by user code region {@code siteRegion} (see {@link TaskNames}),
   * created under {@code parentNode}: the frame of a task of the same name on the parent's path
   * when there is one, the nearest (a recursive task forking its subtasks stays in one frame,
   * however deep the recursion; a chain of tasks each submitting the next from its own run, as a
   * reactive pipeline hopping threads does, stays one frame and one submitting call however long
   * the chain).
   */
  int task(int parentNode, int siteRegion) {
    if (pseudo[parentNode] == FOLDED) {
      return parentNode;
    }
    for (int n = parentNode; n > ROOT; n = parent[n]) {
      if (pseudo[n] == TASK && region[n] == siteRegion) {
        return n;
      }
    }
    if (depth[parentNode] >= MAX_DEPTH - 1) {
      return pseudoChild(parentNode, FOLDED);
    }
    long key = ((long) parentNode << 32) | (siteRegion & 0xFFFFFFFFL);
    int n = taskChildren.get(key);
    if (n < 0) {
      n = node(Long.MIN_VALUE, parentNode, siteRegion, TASK);
      taskChildren.put(key, n);
    }
    return n;
  }

  /**
   * The node under the root where a carrier's time goes while it runs a virtual thread outside
   * frames of its own: not idle, and not the virtual thread's own time, which its logical thread
   * carries.
   */
  int runningVirtualThreads() {
    return pseudoChild(ROOT, RUNNING_VIRTUAL_THREADS);
  }

  /**
   * The node under the root where a pool worker's time from its start to its first task goes, when
   * it was not waiting for work then (see {@link ThreadReplay#endIdle}).
   */
  int workerStart() {
    return pseudoChild(ROOT, WORKER_START);
  }

  /** The node under the root where a pool worker's time from its last task to its end goes. */
  int workerExit() {
    return pseudoChild(ROOT, WORKER_EXIT);
  }

  /** The user code region naming a task frame, or Integer.MIN_VALUE for other nodes. */
  int taskSite(int node) {
    return pseudo[node] == TASK ? region[node] : Integer.MIN_VALUE;
  }

  private int pseudoChild(int parentNode, byte kind) {
    if (pseudo[parentNode] == FOLDED) {
      return parentNode; // everything below the folded node stays in it
    }
    // Pseudo keys are negative, real keys non-negative: the two never collide.
    int n = node(~(((long) parentNode << 32) | kind), parentNode, 0, kind);
    return n;
  }

  private int node(long key, int parentNode, int regionId, byte kind) {
    int n = kind == TASK ? -1 : children.get(key);
    if (n >= 0) {
      return n;
    }
    if (size == parent.length) {
      int cap = size * 2;
      parent = Arrays.copyOf(parent, cap);
      region = Arrays.copyOf(region, cap);
      pseudo = Arrays.copyOf(pseudo, cap);
      depth = Arrays.copyOf(depth, cap);
      lastChildRegion = Arrays.copyOf(lastChildRegion, cap);
      lastChild = Arrays.copyOf(lastChild, cap);
    }
    n = size++;
    parent[n] = parentNode;
    region[n] = regionId;
    pseudo[n] = kind;
    depth[n] = depth[parentNode] + 1;
    if (kind == FOLDED) {
      folded++;
    }
    if (kind != TASK) {
      children.put(key, n);
    }
    return n;
  }

  int size() {
    return size;
  }

  /**
   * The parents and depths of the nodes that exist now, for a reader on another thread. A node's
   * parent and depth never change once it exists, and growing the tree copies them into new arrays
   * and leaves the old ones alone: so the view stays right for these nodes while this tree grows,
   * once it has been handed over with a happens-before edge (a queue).
   */
  Ancestry ancestry() {
    return new Ancestry(parent, depth);
  }

  /** Parents and depths of call-path nodes: all the critical path's coarsening needs. */
  static final class Ancestry {
    private final int[] parent;
    private final int[] depth;

    private Ancestry(int[] parent, int[] depth) {
      this.parent = parent;
      this.depth = depth;
    }

    /** The deepest node that is {@code a} or an ancestor of it, and {@code b} or one of its. */
    int commonAncestor(int a, int b) {
      while (a != b) {
        if (depth[a] >= depth[b]) {
          a = parent[a];
        } else {
          b = parent[b];
        }
        if (a < 0 || b < 0) {
          return ROOT;
        }
      }
      return a;
    }
  }

  int parent(int node) {
    return parent[node];
  }

  /** Region id of a node (meaningless for the root and pseudo nodes). */
  int region(int node) {
    return region[node];
  }

  /** Depth of a node: 0 for the root, 1 for its children. */
  int depth(int node) {
    return depth[node];
  }

  /**
   * The region of a node made by {@link #child}, or Integer.MIN_VALUE for the root and pseudo
   * nodes.
   */
  int realRegion(int node) {
    return pseudo[node] == REAL ? region[node] : Integer.MIN_VALUE;
  }

  /** How many call paths were folded at {@link #MAX_DEPTH}. */
  int folded() {
    return folded;
  }

  /** One node's label: {@code "name @ File.java:12"}, or a pseudo node's label. */
  String label(Definitions defs, int node) {
    switch (pseudo[node]) {
      case UNKNOWN_TASK:
        return UNKNOWN_TASK_LABEL;
      case FOLDED:
        return FOLDED_LABEL;
      case RUNNING_VIRTUAL_THREADS:
        return RUNNING_VIRTUAL_THREADS_LABEL;
      case WORKER_START:
        return WORKER_START_LABEL;
      case WORKER_EXIT:
        return WORKER_EXIT_LABEL;
      case TASK:
        return TaskNames.taskName(defs.region(region[node]));
      default:
        return regionLabel(defs, region[node]);
    }
  }

  /** A region's label: {@code "name @ File.java:12"}. */
  static String regionLabel(Definitions defs, int regionId) {
    RegionDef r = defs.region(regionId);
    if (r == null) {
      return "region " + (regionId & 0xFFFFFFFFL);
    }
    String where = r.location();
    return where.isEmpty() ? r.name() : r.name() + " @ " + where;
  }

  /** The labels from the root's child down to {@code node}; empty for the root. */
  List<String> path(Definitions defs, int node) {
    List<String> p = new ArrayList<>(depth[node]);
    for (int n = node; n > ROOT; n = parent[n]) {
      p.add(label(defs, n));
    }
    Collections.reverse(p);
    return p;
  }
}
