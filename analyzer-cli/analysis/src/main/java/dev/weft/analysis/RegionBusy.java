package dev.weft.analysis;

/**
 * The busy time per thread of one parallel region (all instances of a FORK call site) or one
 * barrier, for imbalance analysis. Arrays are indexed by thread; only members count.
 */
public final class RegionBusy {
  final boolean barrier;
  final int regionId;
  final int node;
  long instances;
  final long[] busy;
  final boolean[] member;

  /** Barriers only: each thread's execution total at its previous departure. */
  long[] snapshot;

  RegionBusy(boolean barrier, int regionId, int node, int threads) {
    this.barrier = barrier;
    this.regionId = regionId;
    this.node = node;
    this.busy = new long[threads];
    this.member = new boolean[threads];
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

  /** Whether thread {@code i} is a member of the region's team. */
  public boolean member(int i) {
    return member[i];
  }

  public int threads() {
    return busy.length;
  }
}
