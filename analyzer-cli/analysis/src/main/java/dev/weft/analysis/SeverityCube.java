package dev.weft.analysis;

import java.util.Arrays;

/**
 * Severities by (property, call path, thread), in nanoseconds: an open-addressing map from a packed
 * key to a sum. Its size is bounded by properties × call paths × threads, never by trace length.
 */
final class SeverityCube {
  private static final long FREE = -1L;

  private long[] keys;
  private long[] sums;
  private int mask;
  private int size;

  /** Told every addition when waits are handed out ({@link Analyzer.Options#withWaits}). */
  WaitLog log;

  SeverityCube() {
    keys = new long[1024];
    sums = new long[1024];
    Arrays.fill(keys, FREE);
    mask = keys.length - 1;
  }

  static long key(int property, int node, int thread) {
    return ((long) property << 56) | ((long) thread << 32) | (node & 0xFFFFFFFFL);
  }

  static int property(long key) {
    return (int) (key >>> 56);
  }

  static int thread(long key) {
    return (int) ((key >>> 32) & 0xFFFFFF);
  }

  static int node(long key) {
    return (int) key;
  }

  void add(int property, int node, int thread, long ns) {
    if (ns == 0) {
      return;
    }
    if (log != null) {
      log.added(property, node, ns);
    }
    long key = key(property, node, thread);
    long[] k = keys;
    int m = mask;
    for (int i = LongIntMap.slot(key, m); ; i = (i + 1) & m) {
      long x = k[i];
      if (x == key) {
        sums[i] += ns;
        return;
      }
      if (x == FREE) {
        k[i] = key;
        sums[i] = ns;
        if (++size * 2 > m) {
          grow();
        }
        return;
      }
    }
  }

  interface Cell {
    void accept(int property, int node, int thread, long ns);
  }

  void forEach(Cell action) {
    for (int i = 0; i < keys.length; i++) {
      long k = keys[i];
      if (k != FREE && sums[i] != 0) {
        action.accept(property(k), node(k), thread(k), sums[i]);
      }
    }
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldSums = sums;
    keys = new long[oldKeys.length * 2];
    sums = new long[oldKeys.length * 2];
    Arrays.fill(keys, FREE);
    mask = keys.length - 1;
    size = 0;
    WaitLog told = log;
    log = null; // moving sums is not adding them
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != FREE) {
        add(property(oldKeys[i]), node(oldKeys[i]), thread(oldKeys[i]), oldSums[i]);
      }
    }
    log = told;
  }
}
