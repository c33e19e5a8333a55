package dev.weft.analysis;

import java.util.Arrays;

/**
 * Open-addressing hash map from {@code long} to non-negative {@code int} (linear probing, deletion
 * by backward shift): no boxing on the per-event path. {@link #get} returns -1 for a missing key.
 */
final class LongIntMap {
  private static final long FREE = Long.MIN_VALUE;

  private long[] keys;
  private int[] values;
  private int mask;
  private int size;
  private boolean hasFreeKey;
  private int freeKeyValue;

  LongIntMap(int expected) {
    int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
    keys = new long[cap];
    values = new int[cap];
    Arrays.fill(keys, FREE);
    mask = cap - 1;
  }

  int size() {
    return size + (hasFreeKey ? 1 : 0);
  }

  static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 29)) & mask;
  }

  /** The value for {@code key}, or -1. */
  int get(long key) {
    if (key == FREE) {
      return hasFreeKey ? freeKeyValue : -1;
    }
    long[] k = keys;
    int m = mask;
    for (int i = slot(key, m); ; i = (i + 1) & m) {
      long x = k[i];
      if (x == key) {
        return values[i];
      }
      if (x == FREE) {
        return -1;
      }
    }
  }

  void put(long key, int value) {
    if (key == FREE) {
      hasFreeKey = true;
      freeKeyValue = value;
      return;
    }
    long[] k = keys;
    int m = mask;
    for (int i = slot(key, m); ; i = (i + 1) & m) {
      long x = k[i];
      if (x == key) {
        values[i] = value;
        return;
      }
      if (x == FREE) {
        k[i] = key;
        values[i] = value;
        if (++size * 2 > m) {
          grow();
        }
        return;
      }
    }
  }

  /** Removes {@code key}; returns its value or -1. */
  int remove(long key) {
    if (key == FREE) {
      if (!hasFreeKey) {
        return -1;
      }
      hasFreeKey = false;
      return freeKeyValue;
    }
    long[] k = keys;
    int m = mask;
    int i = slot(key, m);
    for (; ; i = (i + 1) & m) {
      long x = k[i];
      if (x == key) {
        break;
      }
      if (x == FREE) {
        return -1;
      }
    }
    int removed = values[i];
    // Backward-shift deletion keeps probe sequences unbroken without tombstones.
    int gap = i;
    for (int j = (gap + 1) & m; k[j] != FREE; j = (j + 1) & m) {
      int home = slot(k[j], m);
      if (((j - home) & m) >= ((j - gap) & m)) {
        k[gap] = k[j];
        values[gap] = values[j];
        gap = j;
      }
    }
    k[gap] = FREE;
    size--;
    return removed;
  }

  /** Calls {@code action} for every entry. */
  void forEach(Entry action) {
    if (hasFreeKey) {
      action.accept(FREE, freeKeyValue);
    }
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != FREE) {
        action.accept(keys[i], values[i]);
      }
    }
  }

  interface Entry {
    void accept(long key, int value);
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    int cap = oldKeys.length * 2;
    keys = new long[cap];
    values = new int[cap];
    Arrays.fill(keys, FREE);
    mask = cap - 1;
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != FREE) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }
}
