package dev.weft.analysis;

/**
 * The busy time per thread of one parallel region (all instances of a FORK call site) or one
 * barrier call site, for imbalance analysis, and the time each thread lost to imbalance summed over
 * the instances (each measured against its own team). Arrays are indexed by thread; only members
 * count.
 */
public final class RegionBusy {
  final boolean barrier;
  final int regionId;
  final int node;
  long instances;
  final long[] busy;
  final boolean[] member;
  final long[] lost;

  /** Barriers only: each thread's execution total at its previous departure. */
  long[] snapshot;

  RegionBusy(boolean barrier, int regionId, int node, int threads) {
    this.barrier = barrier;
    this.regionId = regionId;
    this.node = node;
    this.busy = new long[threads];
    this.member = new boolean[threads];
    this.lost = new long[threads];
  }

  /**
   * Settles one instance: {@code busy[k]} is the work of thread {@code members[k]} in it. Each
   * member loses the busiest member's work minus its own.
   */
  void settleInstance(int[] members, long[] busy, int count) {
    long max = 0;
    for (int k = 0; k < count; k++) {
      max = Math.max(max, busy[k]);
    }
    for (int k = 0; k < count; k++) {
      lost[members[k]] += max - busy[k];
    }
  }

  /** True for a barrier-synchronised region, false for a fork-join parallel region. */
  public boolean barrier() {
    return barrier;
  }

  /** The call path of the region (the first FORK, or the barrier's first arrival). */
  public int node() {
    return node;
  }

  /** FORK count, or barrier generations seen. */
  public long instances() {
    return instances;
  }

  /** Busy ns of thread {@code i}. */
  public long busy(int i) {
    return busy[i];
  }

  /**
   * Ns thread {@code i} lost to imbalance: over the instances it was a member of, the busiest
   * member's busy time minus its own.
   */
  public long lost(int i) {
    return lost[i];
  }

  /** Whether thread {@code i} is a member of the region's team. */
  public boolean member(int i) {
    return member[i];
  }

  public int threads() {
    return busy.length;
  }
}
