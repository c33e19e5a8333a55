package dev.weft.report;

/**
 * How much timeline detail a report may hold. Immutable; {@code withX} returns a changed copy.
 *
 * <p>A trace with at most {@link #maxIntervals()} intervals and at most as many fork→begin arrows
 * is drawn interval by interval ("detailed"). A larger one is summarised: each thread's track is
 * cut into {@link #columns()} equal time columns and each column keeps only its dominant kind and
 * that kind's share of the column ("summarised"). With many threads the column count shrinks so
 * that threads × columns stays within {@link #maxCells()}, which bounds both the analyzer's memory
 * and the page size.
 */
public final class TimelineLimits {
  private static final TimelineLimits DEFAULTS = new TimelineLimits(50_000, 4096, 2_097_152);

  private final int maxIntervals;
  private final int columns;
  private final long maxCells;

  private TimelineLimits(int maxIntervals, int columns, long maxCells) {
    this.maxIntervals = maxIntervals;
    this.columns = columns;
    this.maxCells = maxCells;
  }

  /** 50 000 intervals; 4096 columns per thread; at most 2 097 152 columns over all threads. */
  public static TimelineLimits defaults() {
    return DEFAULTS;
  }

  /** Largest number of intervals (and, separately, of arrows) drawn one by one. */
  public TimelineLimits withMaxIntervals(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("maxIntervals must be >= 0");
    }
    return new TimelineLimits(n, columns, maxCells);
  }

  /** Columns per thread in a summarised timeline: an even number, at least 16. */
  public TimelineLimits withColumns(int n) {
    if (n < 16 || (n & 1) != 0) {
      throw new IllegalArgumentException("columns must be even and >= 16");
    }
    return new TimelineLimits(maxIntervals, n, maxCells);
  }

  /** Largest threads × columns of a summarised timeline (at least 16 columns per thread remain). */
  public TimelineLimits withMaxCells(long n) {
    if (n < 16) {
      throw new IllegalArgumentException("maxCells must be >= 16");
    }
    return new TimelineLimits(maxIntervals, columns, n);
  }

  public int maxIntervals() {
    return maxIntervals;
  }

  public int columns() {
    return columns;
  }

  public long maxCells() {
    return maxCells;
  }

  /**
   * Columns per thread for a trace with {@code threads} threads: even, between 16 and columns().
   */
  int columnsFor(int threads) {
    long perThread = threads <= 0 ? columns : maxCells / threads;
    long c = Math.max(16, Math.min(columns, perThread));
    return (int) (c & ~1L);
  }
}
