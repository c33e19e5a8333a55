package dev.weft.analysis;

import java.util.Arrays;

/**
 * Live tasks (created or begun, not yet ended), by task id. One id can have two: a run, and a
 * creation waiting for the next run of the same object (a {@code CountedCompleter} that forks
 * itself while it runs, as the JDK's parallel streams do); the id then maps to the creation, and
 * the run's frame keeps its own slot.
 */
final class TaskTable {
  private final LongIntMap slots = new LongIntMap(64);
  private int size;
  private int free = -1;
  int[] nextFree = new int[16];
  long[] id = new long[16];
  int[] node = new int[16];

  /** The creator's call path at the creation: where pool queue wait is reported. */
  int[] createdAt = new int[16];

  int[] pool = new int[16];
  int[] creator = new int[16];
  int[] inst = new int[16];
  long[] created = new long[16];
  boolean[] begun = new boolean[16];

  /**
   * Whether the task was given to run later (created at a {@code delayed_task} region): it is not
   * work in flight, nor waiting in the queue, until it begins.
   */
  boolean[] delayed = new boolean[16];

  /** Whether the task began without a recorded TASK_CREATE. */
  boolean[] noCreate = new boolean[16];

  /** Whether the slot holds a live task, mapped by its id or detached from it by a new creation. */
  private boolean[] inUse = new boolean[16];

  int get(long task) {
    return slots.get(task);
  }

  /** True when slot {@code i} holds live task {@code task}. */
  boolean live(int i, long task) {
    return i >= 0 && i < size && id[i] == task && inUse[i];
  }

  int live() {
    return slots.size();
  }

  int add(long task, int n, int at, int poolSlot, int creatorThread, int instance, long t) {
    int i;
    if (free >= 0) {
      i = free;
      free = nextFree[i];
    } else {
      if (size == id.length) {
        int cap = size * 2;
        nextFree = Arrays.copyOf(nextFree, cap);
        id = Arrays.copyOf(id, cap);
        node = Arrays.copyOf(node, cap);
        createdAt = Arrays.copyOf(createdAt, cap);
        pool = Arrays.copyOf(pool, cap);
        creator = Arrays.copyOf(creator, cap);
        inst = Arrays.copyOf(inst, cap);
        created = Arrays.copyOf(created, cap);
        begun = Arrays.copyOf(begun, cap);
        delayed = Arrays.copyOf(delayed, cap);
        noCreate = Arrays.copyOf(noCreate, cap);
        inUse = Arrays.copyOf(inUse, cap);
      }
      i = size++;
    }
    id[i] = task;
    node[i] = n;
    createdAt[i] = at;
    pool[i] = poolSlot;
    creator[i] = creatorThread;
    inst[i] = instance;
    created[i] = t;
    begun[i] = false;
    delayed[i] = false;
    noCreate[i] = false;
    inUse[i] = true;
    slots.put(task, i);
    return i;
  }

  /**
   * Leaves slot {@code i} live but no longer found by its id: the id's next creation takes it while
   * this run goes on.
   */
  void detach(int i) {
    slots.remove(id[i]);
  }

  void remove(int i) {
    if (slots.get(id[i]) == i) {
      slots.remove(id[i]);
    }
    inUse[i] = false;
    nextFree[i] = free;
    free = i;
  }

  /** Calls {@code action} with every live task slot. */
  void forEachLive(java.util.function.IntConsumer action) {
    slots.forEach((k, v) -> action.accept(v));
  }
}
