package dev.weft.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The longest stretches of one thread's activity, kept while a timeline is summarised so that
 * zooming in still shows real intervals. A stretch is a time during which the thread's innermost
 * open interval did not change (so the stretches of a thread never overlap); the longest {@code
 * capacity} are kept, in a min-heap by duration, so offering one costs a comparison unless it is
 * longer than the shortest kept.
 */
final class LongestStretches {
  private final int capacity;
  private long[] start;
  private long[] end;
  private int[] kind;
  private int[] label;
  private int size;

  LongestStretches(int capacity) {
    this.capacity = capacity;
    // Grown as needed: a large budget over few threads costs only what is offered.
    int initial = Math.min(capacity, 16);
    start = new long[initial];
    end = new long[initial];
    kind = new int[initial];
    label = new int[initial];
  }

  /** Offers the stretch {@code [from, to)} of activity {@code k} with label id {@code l}. */
  void offer(long from, long to, int k, int l) {
    long d = to - from;
    if (d <= 0 || capacity == 0) {
      return;
    }
    if (size < capacity) {
      if (size == start.length) {
        int n = (int) Math.min(capacity, 2L * size);
        start = java.util.Arrays.copyOf(start, n);
        end = java.util.Arrays.copyOf(end, n);
        kind = java.util.Arrays.copyOf(kind, n);
        label = java.util.Arrays.copyOf(label, n);
      }
      set(size, from, to, k, l);
      up(size++);
    } else if (d > duration(0)) {
      set(0, from, to, k, l);
      down(0);
    }
  }

  int size() {
    return size;
  }

  /** Label ids in use, for pruning the label table. */
  void labels(java.util.function.IntConsumer each) {
    for (int i = 0; i < size; i++) {
      each.accept(label[i]);
    }
  }

  /**
   * The kept stretches as {start, end, code, label} with times relative to {@code origin}, by
   * start; {@code relabel} maps a label id to the one written.
   */
  List<long[]> sorted(long origin, java.util.function.IntUnaryOperator relabel) {
    List<long[]> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      out.add(
          new long[] {
            start[i] - origin,
            end[i] - origin,
            kind[i],
            label[i] < 0 ? -1 : relabel.applyAsInt(label[i])
          });
    }
    out.sort((a, b) -> Long.compare(a[0], b[0]));
    return out;
  }

  private long duration(int i) {
    return end[i] - start[i];
  }

  private void set(int i, long from, long to, int k, int l) {
    start[i] = from;
    end[i] = to;
    kind[i] = k;
    label[i] = l;
  }

  private void up(int i) {
    while (i > 0) {
      int parent = (i - 1) / 2;
      if (duration(parent) <= duration(i)) {
        return;
      }
      swap(i, parent);
      i = parent;
    }
  }

  private void down(int i) {
    while (true) {
      int l = 2 * i + 1;
      int smallest = i;
      if (l < size && duration(l) < duration(smallest)) {
        smallest = l;
      }
      if (l + 1 < size && duration(l + 1) < duration(smallest)) {
        smallest = l + 1;
      }
      if (smallest == i) {
        return;
      }
      swap(i, smallest);
      i = smallest;
    }
  }

  private void swap(int a, int b) {
    long s = start[a];
    long e = end[a];
    int k = kind[a];
    int l = label[a];
    set(a, start[b], end[b], kind[b], label[b]);
    set(b, s, e, k, l);
  }
}
