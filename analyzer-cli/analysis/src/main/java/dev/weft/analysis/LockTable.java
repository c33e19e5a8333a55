package dev.weft.analysis;

import java.util.Arrays;

/**
 * Live locks: held, or requested by a waiting thread. A lock's state is dropped when it is free and
 * nobody waits for it (a later request cannot depend on earlier releases), so memory follows the
 * number of locks in use, not the number of acquisitions.
 */
final class LockTable {
  static final long NEVER = Long.MIN_VALUE;

  private final LongIntMap slots = new LongIntMap(64);
  private int size;
  private int free = -1;
  int[] nextFree = new int[16];
  long[] id = new long[16];
  int[] holder = new int[16];
  int[] depth = new int[16];
  int[] shared = new int[16];
  int[] waiters = new int[16];
  long[] lastRelease = new long[16];
  int[] lastReleaser = new int[16];
  int[] releaseNode = new int[16];
  long[] lastExclusiveRelease = new long[16];
  int[] lastExclusiveReleaser = new int[16];

  int get(long lock) {
    return slots.get(lock);
  }

  int getOrAdd(long lock) {
    int i = slots.get(lock);
    if (i >= 0) {
      return i;
    }
    if (free >= 0) {
      i = free;
      free = nextFree[i];
    } else {
      if (size == id.length) {
        int cap = size * 2;
        nextFree = Arrays.copyOf(nextFree, cap);
        id = Arrays.copyOf(id, cap);
        holder = Arrays.copyOf(holder, cap);
        depth = Arrays.copyOf(depth, cap);
        shared = Arrays.copyOf(shared, cap);
        waiters = Arrays.copyOf(waiters, cap);
        lastRelease = Arrays.copyOf(lastRelease, cap);
        lastReleaser = Arrays.copyOf(lastReleaser, cap);
        releaseNode = Arrays.copyOf(releaseNode, cap);
        lastExclusiveRelease = Arrays.copyOf(lastExclusiveRelease, cap);
        lastExclusiveReleaser = Arrays.copyOf(lastExclusiveReleaser, cap);
      }
      i = size++;
    }
    id[i] = lock;
    holder[i] = -1;
    depth[i] = 0;
    shared[i] = 0;
    waiters[i] = 0;
    lastRelease[i] = NEVER;
    lastReleaser[i] = -1;
    releaseNode[i] = 0;
    lastExclusiveRelease[i] = NEVER;
    lastExclusiveReleaser[i] = -1;
    slots.put(lock, i);
    return i;
  }

  /** Drops the lock's state when it is free and nobody waits for it. */
  void releaseIfIdle(int i) {
    if (holder[i] < 0 && shared[i] <= 0 && waiters[i] <= 0) {
      slots.remove(id[i]);
      nextFree[i] = free;
      free = i;
    }
  }

  int live() {
    return slots.size();
  }
}
