package dev.weft.analysis;

/**
 * A stretch of one thread's time that properties under {@code time} divide among themselves: each
 * claims a part, and the engine gives what is left to {@code execution}. Claims never exceed what
 * is left, so the time tree stays a partition.
 */
public class ThreadTime {
  private SeverityCube cube;
  int thread;
  int node;
  long start;
  long end;
  long total;
  long unclaimed;

  ThreadTime() {}

  final void reset(SeverityCube cube, int thread, int node, long start, long end, long total) {
    this.cube = cube;
    this.thread = thread;
    this.node = node;
    this.start = start;
    this.end = end;
    this.total = total;
    this.unclaimed = total;
  }

  /** The thread (index into the analysis' thread list). */
  public final int thread() {
    return thread;
  }

  /** The call-path node the time belongs to. */
  public final int node() {
    return node;
  }

  /**
   * When the stretch began (trace clock, ns). For execution handed over by {@code onRemainder},
   * which gathers many stretches of one call path, start and end are only indicative.
   */
  public final long start() {
    return start;
  }

  /** When it ended. */
  public final long end() {
    return end;
  }

  /** Thread time in the stretch, in ns (nested activity that is not part of it excluded). */
  public final long total() {
    return total;
  }

  /** What no property has claimed yet. */
  public final long unclaimed() {
    return unclaimed;
  }

  /** Claims up to {@code ns} of this stretch for {@code p} at the stretch's call path. */
  public final long claim(Property p, long ns) {
    return claim(p, node, ns);
  }

  /** Claims up to {@code ns} for {@code p}, attributed to call-path {@code atNode}. */
  public final long claim(Property p, int atNode, long ns) {
    long n = Math.min(Math.max(0, ns), unclaimed);
    if (n > 0) {
      unclaimed -= n;
      cube.add(p.index(), atNode, thread, n);
    }
    return n;
  }
}
