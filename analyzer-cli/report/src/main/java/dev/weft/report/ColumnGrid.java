package dev.weft.report;

/**
 * The summarised timeline while it is being built: for every thread, the time each {@link
 * IntervalKind} occupied in each of a fixed number of equal time columns.
 *
 * <p>Events arrive in time order, but the trace's length is not known until the last one. The grid
 * therefore starts from an estimated column width and, whenever an event falls beyond its last
 * column, doubles the width and merges neighbouring columns pairwise. Memory is threads × columns ×
 * kinds floats, whatever the trace length.
 */
final class ColumnGrid {
  static final int KINDS = IntervalKind.ACTIVITIES;

  private final int columns;
  private final long origin;
  private final float[][] cells;
  private long width;
  private int used;

  /**
   * @param tracks number of threads
   * @param columns columns per thread (even)
   * @param origin time of the first column's start
   * @param width initial column width in ns (at least 1)
   */
  ColumnGrid(int tracks, int columns, long origin, long width) {
    this.columns = columns;
    this.origin = origin;
    this.width = Math.max(1, width);
    this.cells = new float[tracks][];
  }

  long origin() {
    return origin;
  }

  /** Column width in ns. */
  long width() {
    return width;
  }

  /** Columns that hold time so far (from the first). */
  int used() {
    return used;
  }

  /** Widens the columns until {@code t} falls inside the grid. */
  void ensure(long t) {
    long span = t - origin;
    while (span >= width * columns) {
      doubleWidth();
    }
  }

  /** Adds {@code [from, to)} spent in {@code kind} to a track's columns; the grid must cover it. */
  void add(int track, int kind, long from, long to) {
    if (to <= from) {
      return;
    }
    float[] c = cells[track];
    if (c == null) {
      c = cells[track] = new float[columns * KINDS];
    }
    long a = from - origin;
    long b = to - origin;
    int c0 = (int) (a / width);
    int c1 = (int) ((b - 1) / width);
    if (c0 == c1) {
      c[c0 * KINDS + kind] += (float) (b - a);
    } else {
      c[c0 * KINDS + kind] += (float) ((c0 + 1) * width - a);
      for (int col = c0 + 1; col < c1; col++) {
        c[col * KINDS + kind] += (float) width;
      }
      c[c1 * KINDS + kind] += (float) (b - (long) c1 * width);
    }
    if (c1 + 1 > used) {
      used = c1 + 1;
    }
  }

  /** Time of {@code kind} in a column of a track, in ns. */
  float time(int track, int column, int kind) {
    float[] c = cells[track];
    return c == null ? 0 : c[column * KINDS + kind];
  }

  /**
   * A track's columns as text: one symbol per column, run-length encoded (a symbol followed by a
   * decimal repeat count when it repeats). {@code .} is a column with no activity; otherwise the
   * symbol is {@code SYMBOLS[kind * 4 + level - 1]}, where the level 1..4 is the dominant kind's
   * share of the column rounded up to quarters.
   */
  String encode(int track, int upTo) {
    StringBuilder out = new StringBuilder();
    char run = 0;
    int count = 0;
    for (int col = 0; col < upTo; col++) {
      char s = symbol(track, col);
      if (s == run) {
        count++;
        continue;
      }
      flush(out, run, count);
      run = s;
      count = 1;
    }
    flush(out, run, count);
    return out.toString();
  }

  /** Symbols of the encoding: kind-major, then level (1 to 4). */
  static final String SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn";

  private char symbol(int track, int col) {
    float[] c = cells[track];
    if (c == null) {
      return '.';
    }
    int best = -1;
    float bestTime = 0;
    for (int k = 0; k < KINDS; k++) {
      float v = c[col * KINDS + k];
      if (v > bestTime) {
        bestTime = v;
        best = k;
      }
    }
    if (best < 0) {
      return '.';
    }
    int level = (int) Math.ceil(4.0 * Math.min(1.0, bestTime / (double) width));
    level = Math.max(1, Math.min(4, level));
    return SYMBOLS.charAt(best * 4 + level - 1);
  }

  private static void flush(StringBuilder out, char run, int count) {
    if (count == 0) {
      return;
    }
    out.append(run);
    if (count > 1) {
      out.append(count);
    }
  }

  private void doubleWidth() {
    int half = columns / 2;
    int live = Math.min(used, columns);
    for (float[] c : cells) {
      if (c == null) {
        continue;
      }
      for (int col = 0; col < half && 2 * col < live; col++) {
        int to = col * KINDS;
        int a = 2 * col * KINDS;
        int b = a + KINDS;
        for (int k = 0; k < KINDS; k++) {
          c[to + k] = c[a + k] + c[b + k];
        }
      }
      java.util.Arrays.fill(c, Math.min(half, (live + 1) / 2) * KINDS, live * KINDS, 0f);
    }
    used = (used + 1) / 2;
    width *= 2;
  }
}
