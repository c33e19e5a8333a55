package dev.weft.agent.record;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Ids for the tasks and pools that events refer to, and a lock-free record of which ids have
 * already been defined in the trace (locks, barriers and other objects get dense ids from {@link
 * ObjectIds}).
 *
 * <p>An object's id is its identity hash code (stable for the object's life, no allocation, no map
 * lookup). Two live objects can share one (about one pair in 2^31); the analyzer then sees them as
 * one object, which can only merge, never invent, waits.
 */
final class IdentityIds {
  private static final int PROBES = 16;

  private final AtomicLongArray seen;
  private final int mask;

  /**
   * @param capacity how many ids can be remembered, a power of two
   */
  IdentityIds(int capacity) {
    this.seen = new AtomicLongArray(capacity);
    this.mask = capacity - 1;
  }

  /** The id of {@code o}; 0 for null. */
  static long of(Object o) {
    return o == null ? 0 : (System.identityHashCode(o) & 0xFFFFFFFFL) + 1;
  }

  /**
   * Marks {@code id} as defined; true exactly once per id (the caller then writes its definition).
   * When the table is full the answer is false: the object keeps its id but gets no definition.
   */
  boolean firstSight(long id) {
    int h = (int) (id * 0x9E3779B97F4A7C15L >>> 40) & mask;
    for (int i = 0; i < PROBES; i++) {
      int slot = (h + i) & mask;
      long v = seen.get(slot);
      if (v == id) {
        return false;
      }
      if (v == 0 && seen.compareAndSet(slot, 0, id)) {
        return true;
      }
      if (seen.get(slot) == id) {
        return false;
      }
    }
    return false;
  }
}
