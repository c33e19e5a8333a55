package dev.weft.analysis;

/**
 * The ids (task ids, Java ids of joined threads) that open join waits wait for, each with the
 * number of joins waiting for it. An ending matters to a join only when the join is already waiting
 * for it: a join that starts after its target ended does not wait. So what is kept per ending is
 * kept only for awaited ids, and its size is that of the open joins, not of the run.
 */
final class AwaitedIds {
  private final LongIntMap counts = new LongIntMap(64);

  /** A join began waiting for {@code id} ({@code Long.MIN_VALUE}: unknown, not kept). */
  void add(long id) {
    if (id == Long.MIN_VALUE) {
      return;
    }
    int n = counts.get(id);
    counts.put(id, n < 0 ? 1 : n + 1);
  }

  /** A join that waited for {@code id} ended. */
  void remove(long id) {
    int n = counts.get(id);
    if (n > 1) {
      counts.put(id, n - 1);
    } else if (n == 1) {
      counts.remove(id);
    }
  }

  /** Whether an open join waits for {@code id}. */
  boolean contains(long id) {
    return id != Long.MIN_VALUE && counts.get(id) > 0;
  }
}
