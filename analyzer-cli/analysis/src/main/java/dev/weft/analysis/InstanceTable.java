package dev.weft.analysis;

import java.util.Arrays;

/**
 * Live parallel-region instances (FORK to JOIN, and as long as tasks created in them live). A slot
 * is reused once the region has joined and none of its tasks is left.
 */
final class InstanceTable {
  private final int threads;
  int size;
  private int free = -1;
  int[] stat = new int[8];
  int[] node = new int[8];
  int[] master = new int[8];
  int[] pool = new int[8];
  int[] liveTasks = new int[8];
  int[] refs = new int[8];
  int[] nextFree = new int[8];
  boolean[] open = new boolean[8];
  long[] fork = new long[8];
  long[] lastTaskEnd = new long[8];
  long[][] started = new long[8][];

  /** Each thread's busy time in the instance's region at the FORK (per-instance imbalance). */
  long[][] busyAtFork = new long[8][];

  InstanceTable(int threads) {
    this.threads = threads;
  }

  int open(int regionStat, int forkNode, int masterThread, int poolSlot, long t) {
    int i;
    if (free >= 0) {
      i = free;
      free = nextFree[i];
      Arrays.fill(started[i], 0L);
    } else {
      if (size == stat.length) {
        int cap = size * 2;
        stat = Arrays.copyOf(stat, cap);
        node = Arrays.copyOf(node, cap);
        master = Arrays.copyOf(master, cap);
        pool = Arrays.copyOf(pool, cap);
        liveTasks = Arrays.copyOf(liveTasks, cap);
        refs = Arrays.copyOf(refs, cap);
        nextFree = Arrays.copyOf(nextFree, cap);
        open = Arrays.copyOf(open, cap);
        fork = Arrays.copyOf(fork, cap);
        lastTaskEnd = Arrays.copyOf(lastTaskEnd, cap);
        started = Arrays.copyOf(started, cap);
        busyAtFork = Arrays.copyOf(busyAtFork, cap);
      }
      i = size++;
      started[i] = new long[(threads >>> 6) + 1];
      busyAtFork[i] = new long[threads];
    }
    stat[i] = regionStat;
    node[i] = forkNode;
    master[i] = masterThread;
    pool[i] = poolSlot;
    liveTasks[i] = 0;
    refs[i] = 1;
    open[i] = true;
    fork[i] = t;
    lastTaskEnd[i] = Long.MIN_VALUE;
    return i;
  }

  boolean started(int i, int thread) {
    return (started[i][thread >>> 6] & (1L << thread)) != 0;
  }

  void markStarted(int i, int thread) {
    started[i][thread >>> 6] |= 1L << thread;
  }

  void retain(int i) {
    refs[i]++;
  }

  /** Drops one reference (the open region, or a live task); frees the slot at zero. */
  void release(int i) {
    if (--refs[i] == 0) {
      nextFree[i] = free;
      free = i;
    }
  }
}
