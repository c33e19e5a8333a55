package dev.weft.agent.record;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Dense ids for the objects that lock, barrier and notify events name (1, 2, 3, ... in order of
 * first sight), shared by all threads, without locks and without allocation.
 *
 * <p>An object is known by its identity hash code, and this table maps each hash code seen to a
 * small number. The id says exactly what the hash code said (two live objects that share a hash
 * code share an id, about one pair in 2^31, which can only merge, never invent, waits; a dead
 * object's hash code may come back with a new object, whose state starts afresh), but it is written
 * into the trace in one or two bytes instead of five: the trace writer's fast path takes numbers
 * below 2^28, and byte-by-byte encoding of a 31-bit hash code cost 20–40 ns per lock event.
 *
 * <p>When the table cannot take another hash code (more than about {@code capacity / 2} objects, or
 * a long run of occupied slots), an object's id is its hash code plus {@link #UNTABLED} (above
 * every dense id, so the two kinds never meet); such objects get no definition in the trace.
 */
final class ObjectIds {
  /** Added to the hash code of an object the table has no room for. */
  static final long UNTABLED = 1L << 32;

  /** Marks the answer of {@link #lookup} for an object seen for the first time. */
  static final long FIRST_SIGHT = 1L << 62;

  private static final int PROBES = 32;

  /** Slots: (hash code + 1) in the high half, the dense id in the low half; 0 is empty. */
  private final AtomicLongArray slots;

  private final int mask;
  private final AtomicInteger lastId = new AtomicInteger();

  /**
   * @param capacity slots in the table, a power of two
   */
  ObjectIds(int capacity) {
    this.slots = new AtomicLongArray(capacity);
    this.mask = capacity - 1;
  }

  /**
   * The id of {@code o} (not null), with {@link #FIRST_SIGHT} set the one time it is handed out
   * first (the caller then defines the object in the trace).
   */
  long lookup(Object o) {
    long key = IdentityIds.of(o); // the hash code + 1: never 0, the empty slot
    int h = (int) (key * 0x9E37_79B9_7F4A_7C15L >>> 40);
    for (int i = 0; i < PROBES; i++) {
      int slot = (h + i) & mask;
      long v = slots.get(slot);
      if (v == 0) {
        int id = lastId.incrementAndGet();
        if (id > 0 && slots.compareAndSet(slot, 0, key << 32 | id)) {
          return id | FIRST_SIGHT;
        }
        v = slots.get(slot); // another thread took the slot: maybe for the same hash code
      }
      if (v >>> 32 == key) {
        return v & 0xFFFF_FFFFL;
      }
    }
    return key + UNTABLED;
  }

  /** The id of {@code o} without the first-sight mark. */
  static long id(long lookup) {
    return lookup & ~FIRST_SIGHT;
  }
}
