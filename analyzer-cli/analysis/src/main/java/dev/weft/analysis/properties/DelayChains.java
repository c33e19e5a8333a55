package dev.weft.analysis.properties;

import java.util.Arrays;

/**
 * Splits each wait charged to a causing thread into its short-term part (the causer's own time) and
 * its long-term parts (the stretches in which the causer was itself waiting for another thread),
 * for {@link DelayCost}'s children.
 *
 * <p>Every thread keeps a history of its recent explained waits, each stretch already resolved to
 * the thread and call path at the root of its chain. The replay runs forward in time and reports a
 * wait when it ends; a causer's own waits in the interval it is charged for ended before it
 * released the waiter (it ran to release it), so they are in its history by then. A stretch of the
 * causer's history inside the interval goes, long-term, to that stretch's root; the rest stays the
 * causer's short-term cost. The waiter's history then gets the interval, stretch by stretch, with
 * the root of each: so a chain of any length is resolved by one lookup.
 *
 * <p>Memory: at most {@link #KEPT} stretches per thread (adjacent stretches with the same root are
 * one). The oldest half is dropped when a thread's history is full; an interval that reaches into
 * dropped history is charged short-term for that part, and counted for a note.
 */
final class DelayChains {
  /** Kinds of the waits explained, for the long-term cost's causes. */
  static final int BARRIER = 0;

  static final int LOCK = 1;
  static final int CONDITION = 2;
  static final int JOIN = 3;
  static final String[] KIND_NAMES = {"barrier_ns", "lock_ns", "condition_ns", "join_ns"};

  /** Stretches kept per thread. */
  static final int KEPT = 1024;

  /** Receives the long-term parts. */
  interface LongTerm {
    /** {@code ns} of a {@code kind} wait charged to root thread {@code thread} at {@code node}. */
    void charge(int node, int thread, long ns, int kind);
  }

  private final LongTerm longTerm;
  private final int kept;
  private History[] histories = new History[0];
  private long unresolvedNs;
  private long unresolvedWaits;

  DelayChains(LongTerm longTerm) {
    this(longTerm, KEPT);
  }

  /** With {@code kept} stretches per thread (at least 2), for tests of the eviction. */
  DelayChains(LongTerm longTerm, int kept) {
    this.longTerm = longTerm;
    this.kept = Math.max(2, kept);
  }

  /**
   * Thread {@code waiter} waited from {@code from} to {@code to} for {@code causer}, which released
   * it from call path {@code causerNode}. Records the wait in the waiter's history, passes the
   * long-term parts on and returns the short-term part, the causer's own.
   */
  long charge(int kind, int waiter, int causer, int causerNode, long from, long to) {
    if (to <= from) {
      return 0;
    }
    History mine = history(waiter);
    History theirs = causer < histories.length ? histories[causer] : null;
    long own = 0;
    long at = from;
    if (theirs != null) {
      if (from < theirs.droppedTo) {
        unresolvedWaits++;
        unresolvedNs += Math.min(to, theirs.droppedTo) - from;
      }
      for (int i = theirs.firstEndingAfter(from); i < theirs.size && theirs.from[i] < to; i++) {
        long a = Math.max(at, theirs.from[i]);
        long b = Math.min(to, theirs.to[i]);
        if (b <= a) {
          continue;
        }
        if (a > at) {
          own += a - at;
          mine.append(at, a, causer, causerNode);
        }
        longTerm.charge(theirs.node[i], theirs.thread[i], b - a, kind);
        mine.append(a, b, theirs.thread[i], theirs.node[i]);
        at = b;
      }
    }
    if (to > at) {
      own += to - at;
      mine.append(at, to, causer, causerNode);
    }
    return own;
  }

  /** Waits whose interval reached into history already dropped, and the time of that reach. */
  long unresolvedWaits() {
    return unresolvedWaits;
  }

  long unresolvedNs() {
    return unresolvedNs;
  }

  private History history(int thread) {
    if (thread >= histories.length) {
      histories = Arrays.copyOf(histories, Math.max(thread + 1, histories.length * 2));
    }
    History h = histories[thread];
    if (h == null) {
      h = new History(kept);
      histories[thread] = h;
    }
    return h;
  }

  /** One thread's explained waits, in time order, not overlapping, each with its root cause. */
  private static final class History {
    private final int kept;
    long[] from = new long[8];
    long[] to = new long[8];
    int[] thread = new int[8];
    int[] node = new int[8];
    int size;

    /** End of the newest stretch dropped; Long.MIN_VALUE when none was. */
    long droppedTo = Long.MIN_VALUE;

    History(int kept) {
      this.kept = kept;
    }

    /**
     * The first stretch that ends after {@code t} (size when none does). A wait is charged soon
     * after its causer's own waits: the answer is nearly always among the newest stretches, so the
     * search steps back from the newest, doubling the step, and bisects only the last step.
     */
    int firstEndingAfter(long t) {
      // Ends only grow: to[hi] ends after t (hi = size: none known), to[lo - 1] does not (lo = 0).
      int hi = size;
      int lo = 0;
      for (int step = 1; hi - step >= 0; step <<= 1) {
        if (to[hi - step] <= t) {
          lo = hi - step + 1;
          break;
        }
        hi -= step;
      }
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (to[mid] <= t) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    /**
     * Appends {@code a..b} with its root. A stretch overlapping the newest one (a join's wait
     * around waits of tasks the joiner ran in it) keeps only its part after it.
     */
    void append(long a, long b, int rootThread, int rootNode) {
      if (size > 0) {
        a = Math.max(a, to[size - 1]);
        if (b <= a) {
          return;
        }
        int last = size - 1;
        if (to[last] == a && thread[last] == rootThread && node[last] == rootNode) {
          to[last] = b;
          return;
        }
      }
      if (size == kept) {
        int drop = kept / 2;
        droppedTo = to[drop - 1];
        size -= drop;
        System.arraycopy(from, drop, from, 0, size);
        System.arraycopy(to, drop, to, 0, size);
        System.arraycopy(thread, drop, thread, 0, size);
        System.arraycopy(node, drop, node, 0, size);
      } else if (size == from.length) {
        int n = Math.min(kept, size * 2);
        from = Arrays.copyOf(from, n);
        to = Arrays.copyOf(to, n);
        thread = Arrays.copyOf(thread, n);
        node = Arrays.copyOf(node, n);
      }
      from[size] = a;
      to[size] = b;
      thread[size] = rootThread;
      node[size] = rootNode;
      size++;
    }
  }
}
