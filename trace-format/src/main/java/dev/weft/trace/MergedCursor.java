package dev.weft.trace;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/**
 * All streams of a trace as one time-ordered sequence: a k-way merge of the per-thread cursors by
 * (time, stream id), so the order is deterministic. Memory is one cursor buffer per stream being
 * read (see {@link Leaf}).
 *
 * <p>The merge is a loser tree (a tournament tree). Each stream is a leaf; each inner node keeps
 * the key of the loser of the match played there, and the overall winner is the next event. When
 * the winner moves on, only the matches on its leaf-to-root path are replayed: log2(k) comparisons
 * of keys held in two arrays, where a binary heap's sift-down makes up to two per level and asks
 * the cursors for their times. A thread's events come in runs in real traces (12 to 105 events on
 * average before another thread's turn in the third-party benchmarks' traces; 1.1 in the synthetic
 * benchmark trace), so a winner that won its replay without losing a match keeps the smallest loser
 * key on its path: while its next event comes before that, nothing on the tree changes and the
 * event is one comparison.
 *
 * <p>{@link #stream()} is the stream of the thread an event belongs to: a supplement's events
 * ({@link ThreadDef#SUPPLEMENT}) are its owner's, merged in by time like any other stream's.
 */
final class MergedCursor implements EventCursor {
  /**
   * A stream to merge: its cursor, or how to open it and a time its events cannot come before (its
   * THREAD definition's time: a stream's times only grow from there). Such a leaf plays with that
   * time as its key until it wins a match; only then is its file opened and its first event read.
   * Streams of threads that lived at different times (a program that starts a thread per task) are
   * thus open only while their turn lasts, and each is let go of ({@link StreamCursor#release})
   * after its last event.
   */
  record Leaf(int stream, long from, Supplier<StreamCursor> opener) {
    static Leaf of(StreamCursor c) {
      return new Leaf(c.stream(), Long.MIN_VALUE, () -> c);
    }
  }

  /** The cursors by ascending stream id; a cursor's index is its leaf; null until opened. */
  private final StreamCursor[] cursors;

  /** By leaf: how to open a cursor not opened yet, else null. */
  private final Supplier<StreamCursor>[] openers;

  /** By leaf: the earliest time of a cursor not opened yet. */
  private final long[] from;

  /** By leaf: the stream id {@link #stream()} reports for that cursor's events. */
  private final int[] owners;

  /** Leaves: the number of cursors rounded up to a power of two (unused leaves never win). */
  private final int leaves;

  /**
   * The loser of the match at inner node {@code n} (1 ≤ n < leaves), as its key: the time of its
   * current event and its rank. A leaf's rank is its index while it has events and {@code leaves +
   * index} once it has none (its time is then {@link Long#MAX_VALUE}), so (time, rank) orders
   * events by time, then stream id, and puts finished leaves after everything.
   */
  private final long[] loserTime;

  private final int[] loserRank;

  /** The winner's rank (its leaf while it has events); -1 before the first event. */
  private int winner = -1;

  private StreamCursor current;
  private int currentOwner;

  /**
   * The smallest key among the losers on the winner's path, kept when the winner won its last
   * replay without losing a match; time {@link Long#MIN_VALUE} and rank -1 (no key is smaller)
   * otherwise.
   */
  private long runnerUpTime = Long.MIN_VALUE;

  private int runnerUpRank = -1;

  MergedCursor(List<StreamCursor> streams) {
    this(streams, IntUnaryOperator.identity());
  }

  /** {@code owner} maps a stream id to the stream of the thread its events belong to. */
  MergedCursor(List<StreamCursor> streams, IntUnaryOperator owner) {
    this(streams.stream().map(Leaf::of).toArray(Leaf[]::new), owner);
  }

  /** Merges {@code streams}, opening each when its turn comes (see {@link Leaf}). */
  static MergedCursor ofLeaves(List<Leaf> streams, IntUnaryOperator owner) {
    return new MergedCursor(streams.toArray(new Leaf[0]), owner);
  }

  @SuppressWarnings("unchecked")
  private MergedCursor(Leaf[] sorted, IntUnaryOperator owner) {
    Arrays.sort(sorted, Comparator.comparingInt(Leaf::stream));
    this.cursors = new StreamCursor[sorted.length];
    this.openers = new Supplier[sorted.length];
    this.from = new long[sorted.length];
    this.owners = new int[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      openers[i] = sorted[i].opener();
      from[i] = sorted[i].from();
      owners[i] = owner.applyAsInt(sorted[i].stream());
    }
    this.leaves = Integer.highestOneBit(Math.max(1, sorted.length * 2 - 1));
    this.loserTime = new long[leaves];
    this.loserRank = new int[leaves];
  }

  @Override
  public boolean next() {
    StreamCursor c = current;
    if (c == null) {
      return winner < 0 && start();
    }
    int leaf = winner;
    if (c.next()) {
      long wt = c.time();
      if (wt < runnerUpTime || (wt == runnerUpTime && leaf < runnerUpRank)) {
        return true; // it wins every match on its path again: the tree stays as it is
      }
      return settle(replay(leaf, wt, leaf));
    }
    c.release();
    return settle(replay(leaf, Long.MAX_VALUE, leaves + leaf));
  }

  /**
   * Leaf {@code leaf}'s key became ({@code wt}, {@code wr}): replays the matches from it up and
   * returns the new overall winner's rank.
   */
  private int replay(int leaf, long wt, int wr) {
    // Replay the matches from the leaf up: the winner of each goes on, its loser stays.
    long[] times = loserTime;
    int[] ranks = loserRank;
    long smallestTime = Long.MAX_VALUE;
    int smallestRank = Integer.MAX_VALUE;
    for (int n = (leaves + leaf) >>> 1; n > 0; n >>>= 1) {
      long lt = times[n];
      int lr = ranks[n];
      if (lt < wt || (lt == wt && lr < wr)) {
        times[n] = wt;
        ranks[n] = wr;
        wt = lt;
        wr = lr;
      } else if (lt < smallestTime || (lt == smallestTime && lr < smallestRank)) {
        smallestTime = lt;
        smallestRank = lr;
      }
    }
    // Only a leaf that lost no match has all of its path's losers among those compared above.
    if (wr == leaf) {
      runnerUpTime = smallestTime;
      runnerUpRank = smallestRank;
    } else {
      runnerUpTime = Long.MIN_VALUE;
      runnerUpRank = -1;
    }
    return wr;
  }

  /** Reads every cursor's first event and plays the whole tournament. */
  private boolean start() {
    // Winners of the matches at each node: leaves at leaves + i, inner nodes above.
    long[] wt = new long[2 * leaves];
    int[] wr = new int[2 * leaves];
    for (int i = 0; i < leaves; i++) {
      if (i < cursors.length && from[i] != Long.MIN_VALUE) {
        wt[leaves + i] = from[i]; // not opened yet: it plays with its earliest time
        wr[leaves + i] = i;
      } else if (i < cursors.length && open(i).next()) {
        wt[leaves + i] = cursors[i].time();
        wr[leaves + i] = i;
      } else {
        if (i < cursors.length) {
          cursors[i].release();
        }
        wt[leaves + i] = Long.MAX_VALUE;
        wr[leaves + i] = leaves + i;
      }
    }
    for (int n = leaves - 1; n > 0; n--) {
      int a = 2 * n;
      int b = a + 1;
      boolean aFirst = wt[a] < wt[b] || (wt[a] == wt[b] && wr[a] < wr[b]);
      int win = aFirst ? a : b;
      int lose = aFirst ? b : a;
      wt[n] = wt[win];
      wr[n] = wr[win];
      loserTime[n] = wt[lose];
      loserRank[n] = wr[lose];
    }
    return settle(wr[1]); // the root, or the only leaf
  }

  private boolean settle(int rank) {
    // A leaf not opened yet that wins: its events may come now. Open it, read its first event
    // (not before its earliest time) and play its matches again.
    while (rank < leaves && cursors[rank] == null) {
      StreamCursor c = open(rank);
      if (c.next()) {
        rank = replay(rank, c.time(), rank);
      } else {
        c.release();
        rank = replay(rank, Long.MAX_VALUE, leaves + rank);
      }
    }
    winner = rank;
    if (rank >= leaves) {
      current = null;
      return false;
    }
    current = cursors[rank];
    currentOwner = owners[rank];
    return true;
  }

  private StreamCursor open(int leaf) {
    StreamCursor c = openers[leaf].get();
    cursors[leaf] = c;
    openers[leaf] = null;
    return c;
  }

  @Override
  public EventKind kind() {
    return current.kind();
  }

  @Override
  public long time() {
    return current.time();
  }

  @Override
  public int stream() {
    return currentOwner;
  }

  @Override
  public long field(int index) {
    return current.field(index);
  }
}
