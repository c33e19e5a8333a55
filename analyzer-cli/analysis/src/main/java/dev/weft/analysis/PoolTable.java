package dev.weft.analysis;

import dev.weft.trace.Definitions;
import java.util.Arrays;
import java.util.Map;

/**
 * Per-pool replay state: open regions, live tasks, tasks due later, and running totals of the time
 * the pool had work in flight and of the time it had none but waited for a task to come due, from
 * which any worker's idle stretch learns its overlap with each in O(1).
 */
final class PoolTable {
  private final LongIntMap slots = new LongIntMap(16);
  int size;
  int[] id = new int[4];
  String[] name = new String[4];
  int[] open = new int[4];
  int[] live = new int[4];
  boolean[] inFlight = new boolean[4];
  long[] inFlightTotal = new long[4];

  /** Tasks scheduled with a delay that have not begun (created at a delayed_task region). */
  int[] delayed = new int[4];

  /** Whether the pool has no work in flight but a task due later: it waits for a timer. */
  boolean[] timer = new boolean[4];

  long[] timerTotal = new long[4];
  long[] lastChange = new long[4];
  int[][] workers = new int[4][];
  int[] workerCount = new int[4];

  /** Pools' shown names by id ({@link PoolNames}). */
  private final Map<Integer, String> names;

  PoolTable(Definitions defs) {
    this.names = PoolNames.of(defs);
  }

  /** The slot of pool {@code poolId}, created on first use; -1 for pool 0 (none). */
  int slot(int poolId) {
    if (poolId == 0) {
      return -1;
    }
    int s = slots.get(poolId);
    if (s >= 0) {
      return s;
    }
    if (size == id.length) {
      int cap = size * 2;
      id = Arrays.copyOf(id, cap);
      name = Arrays.copyOf(name, cap);
      open = Arrays.copyOf(open, cap);
      live = Arrays.copyOf(live, cap);
      inFlight = Arrays.copyOf(inFlight, cap);
      inFlightTotal = Arrays.copyOf(inFlightTotal, cap);
      delayed = Arrays.copyOf(delayed, cap);
      timer = Arrays.copyOf(timer, cap);
      timerTotal = Arrays.copyOf(timerTotal, cap);
      lastChange = Arrays.copyOf(lastChange, cap);
      workers = Arrays.copyOf(workers, cap);
      workerCount = Arrays.copyOf(workerCount, cap);
    }
    s = size++;
    id[s] = poolId;
    name[s] = names.getOrDefault(poolId, "pool " + poolId);
    workers[s] = new int[4];
    lastChange[s] = Long.MIN_VALUE; // trace times may be negative (System.nanoTime)
    slots.put(poolId, s);
    return s;
  }

  void addWorker(int p, int thread) {
    if (workerCount[p] == workers[p].length) {
      workers[p] = Arrays.copyOf(workers[p], workerCount[p] * 2);
    }
    workers[p][workerCount[p]++] = thread;
  }

  /**
   * Total time pool {@code p} had work in flight up to {@code t} (t not before the last change).
   */
  long inFlightUpTo(int p, long t) {
    return inFlight[p] ? inFlightTotal[p] + Math.max(0, t - lastChange[p]) : inFlightTotal[p];
  }

  /**
   * Total time pool {@code p} had no work in flight but a task due later, up to {@code t} (t not
   * before the last change).
   */
  long timerUpTo(int p, long t) {
    return timer[p] ? timerTotal[p] + Math.max(0, t - lastChange[p]) : timerTotal[p];
  }

  /**
   * Adjusts open regions and live tasks of {@code p} at {@code t}. A time before the pool's last
   * change (a thread's frames closed at its own last event when the run ends) counts as that
   * change's time, so the totals never run backwards.
   */
  void change(int p, long t, int openDelta, int liveDelta) {
    if (p < 0) {
      return;
    }
    t = Math.max(t, lastChange[p]);
    open[p] = Math.max(0, open[p] + openDelta);
    live[p] = Math.max(0, live[p] + liveDelta);
    settle(p, t);
  }

  /** Adjusts the tasks of {@code p} due later at {@code t}, as {@link #change}. */
  void changeDelayed(int p, long t, int delta) {
    if (p < 0) {
      return;
    }
    t = Math.max(t, lastChange[p]);
    delayed[p] = Math.max(0, delayed[p] + delta);
    settle(p, t);
  }

  private void settle(int p, long t) {
    boolean busy = open[p] > 0 || live[p] > 0;
    boolean waitsForTimer = !busy && delayed[p] > 0;
    if (busy != inFlight[p] || waitsForTimer != timer[p]) {
      if (inFlight[p]) {
        inFlightTotal[p] += t - lastChange[p];
      }
      if (timer[p]) {
        timerTotal[p] += t - lastChange[p];
      }
      lastChange[p] = t;
      inFlight[p] = busy;
      timer[p] = waitsForTimer;
    }
  }
}
