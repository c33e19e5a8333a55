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

  /**
   * Whether the latest release was a semaphore's permit given by a thread that held none: a signal
   * (a semaphore used to wake a thread up), not a permit given back.
   */
  boolean[] lastReleaseSignal = new boolean[16];

  // The releases while someone waits (time, thread, call path), oldest first: each ends a piece
  // of the waiters' waits. Emptied when nobody waits any more.
  long[][] releaseTimes = new long[16][];
  int[][] releaseThreads = new int[16][];
  int[][] releaseNodes = new int[16][];
  int[] releases = new int[16];

  /** The lock object's kind code from the definitions ({@link Replay#objectKindCode}), or -1. */
  int[] objectKind = new int[16];

  /** The most releases kept per lock while threads wait for it; older ones are dropped. */
  static final int RELEASES_KEPT = 256;

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
        lastReleaseSignal = Arrays.copyOf(lastReleaseSignal, cap);
        releaseTimes = Arrays.copyOf(releaseTimes, cap);
        releaseThreads = Arrays.copyOf(releaseThreads, cap);
        releaseNodes = Arrays.copyOf(releaseNodes, cap);
        releases = Arrays.copyOf(releases, cap);
        objectKind = Arrays.copyOf(objectKind, cap);
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
    lastReleaseSignal[i] = false;
    releases[i] = 0;
    objectKind[i] = -1;
    slots.put(lock, i);
    return i;
  }

  /** Keeps a release of lock slot {@code i} that ends a piece of its waiters' waits. */
  void addRelease(int i, long t, int thread, int node) {
    if (releaseTimes[i] == null) {
      releaseTimes[i] = new long[8];
      releaseThreads[i] = new int[8];
      releaseNodes[i] = new int[8];
    }
    int n = releases[i];
    if (n == RELEASES_KEPT) {
      // Drop the older half: only waits that began before them lose pieces.
      int half = n / 2;
      System.arraycopy(releaseTimes[i], half, releaseTimes[i], 0, n - half);
      System.arraycopy(releaseThreads[i], half, releaseThreads[i], 0, n - half);
      System.arraycopy(releaseNodes[i], half, releaseNodes[i], 0, n - half);
      n -= half;
    } else if (n == releaseTimes[i].length) {
      releaseTimes[i] = Arrays.copyOf(releaseTimes[i], n * 2);
      releaseThreads[i] = Arrays.copyOf(releaseThreads[i], n * 2);
      releaseNodes[i] = Arrays.copyOf(releaseNodes[i], n * 2);
    }
    releaseTimes[i][n] = t;
    releaseThreads[i][n] = thread;
    releaseNodes[i][n] = node;
    releases[i] = n + 1;
  }

  /** A waiter of lock slot {@code i} stopped waiting; with none left, the releases are dropped. */
  void waiterDone(int i) {
    if (--waiters[i] <= 0) {
      releases[i] = 0;
    }
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
