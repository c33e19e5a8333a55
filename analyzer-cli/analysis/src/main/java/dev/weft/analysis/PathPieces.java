package dev.weft.analysis;

import java.util.Arrays;

/**
 * The timed pieces of a critical-path chain, oldest first: thread and call path (one {@link
 * CriticalPath#key}), kind, start and end. Adjacent pieces of one thread, call path and kind are
 * one piece: no two neighbours are ever joinable, which lets {@link #append} copy whole. Their
 * number is bounded by {@link #coarsen}; what that leaves out is counted, never silently dropped.
 */
final class PathPieces {
  long[] keys;
  byte[] kinds;
  long[] starts;
  long[] ends;
  int size;

  PathPieces() {
    this(8);
  }

  /** Empty, with room for {@code capacity} pieces. */
  PathPieces(int capacity) {
    keys = new long[capacity];
    kinds = new byte[capacity];
    starts = new long[capacity];
    ends = new long[capacity];
  }

  /** Oldest pieces left out by {@link #coarsen}, and their time. */
  long truncated;

  long truncatedNs;

  void add(long key, byte kind, long start, long end) {
    if (size > 0 && keys[size - 1] == key && kinds[size - 1] == kind && ends[size - 1] == start) {
      ends[size - 1] = end;
      return;
    }
    ensureRoom(size + 1);
    keys[size] = key;
    kinds[size] = kind;
    starts[size] = start;
    ends[size] = end;
    size++;
  }

  /** Grows the arrays (at least doubling) to hold {@code needed} pieces. */
  private void ensureRoom(int needed) {
    if (needed > keys.length) {
      int cap = Math.max(needed, keys.length * 2);
      keys = Arrays.copyOf(keys, cap);
      kinds = Arrays.copyOf(kinds, cap);
      starts = Arrays.copyOf(starts, cap);
      ends = Arrays.copyOf(ends, cap);
    }
  }

  /** Pieces appended with a loop rather than {@code System.arraycopy}. */
  private static final int SHORT_COPY = 8;

  void append(PathPieces other) {
    truncated += other.truncated;
    truncatedNs += other.truncatedNs;
    int n = other.size;
    if (n == 0) {
      return;
    }
    ensureRoom(size + n);
    // Within other, adjacent pieces were joined as they were added: only its first piece can join
    // this one's last; the rest is copied whole (folds append thousands of pieces at a time).
    add(other.keys[0], other.kinds[0], other.starts[0], other.ends[0]);
    if (n <= SHORT_COPY) {
      // A segment of a hand-over chain holds a few pieces: four arraycopy calls cost more than
      // the copy (a fold appends hundreds of such segments).
      for (int j = 1, at = size; j < n; j++, at++) {
        keys[at] = other.keys[j];
        kinds[at] = other.kinds[j];
        starts[at] = other.starts[j];
        ends[at] = other.ends[j];
      }
    } else {
      System.arraycopy(other.keys, 1, keys, size, n - 1);
      System.arraycopy(other.kinds, 1, kinds, size, n - 1);
      System.arraycopy(other.starts, 1, starts, size, n - 1);
      System.arraycopy(other.ends, 1, ends, size, n - 1);
    }
    size += n - 1;
  }

  void clear() {
    size = 0;
    truncated = 0;
    truncatedNs = 0;
  }

  private PathPieces(long[] keys, byte[] kinds, long[] starts, long[] ends, int size) {
    this.keys = keys;
    this.kinds = kinds;
    this.starts = starts;
    this.ends = ends;
    this.size = size;
  }

  PathPieces copy() {
    PathPieces c =
        new PathPieces(
            Arrays.copyOf(keys, size),
            Arrays.copyOf(kinds, size),
            Arrays.copyOf(starts, size),
            Arrays.copyOf(ends, size),
            size);
    c.truncated = truncated;
    c.truncatedNs = truncatedNs;
    return c;
  }

  /**
   * Brings the pieces down to at most {@code cap}. Adjacent pieces of one thread are merged into
   * one at their nearest common call path (of the kind with the most time) while the merged piece
   * is no longer than a resolution, which starts at the pieces' span over {@code cap} and doubles
   * until they fit. Pieces of different threads are never merged: if hand-overs alone are more than
   * {@code cap}, the oldest pieces are left out and counted in {@link #truncated}.
   */
  void coarsen(int cap, CallPathTree.Ancestry tree) {
    if (size <= cap) {
      return;
    }
    int runs = threadRuns();
    if (runs >= cap) {
      // Only one piece per thread run can remain: the resolution would double until each run is
      // one piece, and the oldest runs beyond cap would then be left out. Leave them out first and
      // merge each remaining run whole, in one pass (chains of many hand-overs reached this on
      // almost every fold, after three to five passes over all their pieces).
      leaveOutOldestRuns(runs - cap);
      mergeShorterThan(Long.MAX_VALUE, tree);
      return;
    }
    long span = ends[size - 1] - starts[0];
    long resolution = Math.max(1, span / cap);
    while (size > cap) {
      int before = size;
      mergeShorterThan(resolution, tree);
      if (size == before && resolution > span) {
        break;
      }
      // A pass below the shortest merge left merges nothing: skip those the doubling would make
      // (a chain of many hand-overs used to double a dozen times, scanning every piece each time,
      // before it fell back on leaving out the oldest pieces). The result is the same.
      long shortest = shortestMerge();
      if (shortest == Long.MAX_VALUE) {
        break; // no two adjacent pieces of one thread: nothing can merge at any resolution
      }
      do {
        resolution = resolution > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : resolution * 2;
      } while (resolution < shortest);
    }
    if (size > cap) {
      int drop = size - cap;
      for (int i = 0; i < drop; i++) {
        truncatedNs += ends[i] - starts[i];
      }
      truncated += drop;
      System.arraycopy(keys, drop, keys, 0, cap);
      System.arraycopy(kinds, drop, kinds, 0, cap);
      System.arraycopy(starts, drop, starts, 0, cap);
      System.arraycopy(ends, drop, ends, 0, cap);
      size = cap;
    }
  }

  /** The number of maximal runs of adjacent pieces of one thread. */
  private int threadRuns() {
    int runs = size == 0 ? 0 : 1;
    for (int i = 1; i < size; i++) {
      if (CriticalPath.thread(keys[i - 1]) != CriticalPath.thread(keys[i])) {
        runs++;
      }
    }
    return runs;
  }

  /** Leaves out the oldest {@code drop} thread runs, counting each as one piece left out. */
  private void leaveOutOldestRuns(int drop) {
    if (drop <= 0) {
      return;
    }
    int from = 0;
    for (int run = 0; run < drop; run++) {
      int first = from;
      do {
        from++;
      } while (from < size && CriticalPath.thread(keys[from]) == CriticalPath.thread(keys[first]));
      truncatedNs += ends[from - 1] - starts[first];
    }
    truncated += drop;
    int keep = size - from;
    System.arraycopy(keys, from, keys, 0, keep);
    System.arraycopy(kinds, from, kinds, 0, keep);
    System.arraycopy(starts, from, starts, 0, keep);
    System.arraycopy(ends, from, ends, 0, keep);
    size = keep;
  }

  /** The shortest piece two adjacent pieces of one thread would merge into, or Long.MAX_VALUE. */
  private long shortestMerge() {
    long shortest = Long.MAX_VALUE;
    for (int i = 1; i < size; i++) {
      if (CriticalPath.thread(keys[i - 1]) == CriticalPath.thread(keys[i])) {
        shortest = Math.min(shortest, ends[i] - starts[i - 1]);
      }
    }
    return shortest;
  }

  /**
   * Whether piece {@code b} goes on piece {@code a} unchanged: one piece, as {@link #add} joins.
   */
  private boolean joins(int a, int b) {
    return keys[a] == keys[b] && kinds[a] == kinds[b] && ends[a] == starts[b];
  }

  /**
   * One pass: adjacent pieces of one thread merge while the merged piece is no longer than {@code
   * resolution}. A merged piece takes the kind that has the most time among the pieces it was made
   * of (the earliest of equals), so the result does not depend on how many passes made it.
   */
  private void mergeShorterThan(long resolution, CallPathTree.Ancestry tree) {
    long[] perKind = new long[3];
    int out = 0;
    for (int i = 0; i < size; i++) {
      long length = ends[i] - starts[i];
      if (out > 0
          && CriticalPath.thread(keys[out - 1]) == CriticalPath.thread(keys[i])
          && (ends[i] - starts[out - 1] <= resolution || joins(out - 1, i))) {
        int o = out - 1;
        perKind[kinds[i]] += length;
        if (perKind[kinds[i]] > perKind[kinds[o]]) {
          kinds[o] = kinds[i];
        }
        int node = tree.commonAncestor(CriticalPath.node(keys[o]), CriticalPath.node(keys[i]));
        keys[o] = CriticalPath.key(CriticalPath.thread(keys[i]), node);
        ends[o] = ends[i];
        continue;
      }
      perKind[0] = 0;
      perKind[1] = 0;
      perKind[2] = 0;
      perKind[kinds[i]] = length;
      keys[out] = keys[i];
      kinds[out] = kinds[i];
      starts[out] = starts[i];
      ends[out] = ends[i];
      out++;
    }
    size = out;
  }
}
