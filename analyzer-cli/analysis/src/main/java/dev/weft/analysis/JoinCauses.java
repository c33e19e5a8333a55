package dev.weft.analysis;

import java.util.Arrays;

/**
 * Who ended what a join waited for, for join delay costs: each task or thread that ended while a
 * join waited for it, with the thread that ran it, its call path and the time; the last ending (for
 * joins whose target is unknown); and each open join's target (the task id, or the Java id of a
 * joined thread).
 */
final class JoinCauses {
  /**
   * Endings of what open joins wait for ({@link AwaitedIds}): the slot of each id's ending in the
   * arrays below, unboxed (a map of boxed ids was a twentieth of the replay thread).
   */
  private final LongIntMap ended = new LongIntMap(64);

  private long[] endTime = new long[16];
  private int[] endThread = new int[16];
  private int[] endNode = new int[16];
  private int[] freeSlots = new int[16];
  private int free;
  private int slots;

  private final AwaitedIds awaited = new AwaitedIds();
  // The last ending, as three fields: it changes at every task's end, and is rarely asked for.
  private long lastEndTime = Long.MIN_VALUE;
  private int lastEndThread = -1;
  private int lastEndNode;
  private long[][] targets = new long[0][];
  private int openJoins;

  /** Thread {@code th} began a join wait in frame {@code frame} for {@code target}. */
  void entered(int th, int frame, long target) {
    openJoins++;
    if (targets.length <= th) {
      targets = Arrays.copyOf(targets, th + 1);
    }
    long[] a = targets[th];
    if (a == null || a.length <= frame) {
      a = Arrays.copyOf(a == null ? new long[0] : a, Math.max(frame + 1, 16));
      targets[th] = a;
    }
    a[frame] = target;
    awaited.add(target);
  }

  /** Whether the recording has ended: frames closed from now on were cut by its end. */
  private boolean recordingEnded;

  /**
   * From here on the frames still open are closed by the recording's end, not by their events: a
   * task closed so ended nothing (it was running, {@link #runningAtEnd}), and is never the last
   * ending that joins with an unknown target fall back to.
   */
  void recordingEnded() {
    recordingEnded = true;
  }

  /**
   * Thread {@code th} ended task (or thread) {@code id} at {@code t}, at call path {@code node}.
   */
  void ended(int th, int node, long id, long t) {
    if (recordingEnded) {
      runningAtEnd(th, node, id, t);
      return;
    }
    if (openJoins == 0) {
      return;
    }
    lastEndTime = t;
    lastEndThread = th;
    lastEndNode = node;
    if (awaited.contains(id)) {
      putEnding(id, th, node, t);
    }
  }

  /**
   * Id {@code id} ended (or was running) at {@code t} on thread {@code th}, call path {@code node}.
   */
  private void putEnding(long id, int th, int node, long t) {
    int slot = ended.get(id);
    if (slot < 0) {
      slot = newSlot();
      ended.put(id, slot);
    }
    endTime[slot] = t;
    endThread[slot] = th;
    endNode[slot] = node;
  }

  /**
   * Thread {@code th} was still running task (or thread) {@code id} at call path {@code node} when
   * the recording ended at {@code t}: a join still open then waited for it up to there. Recorded as
   * that id's ending, unless it has one; never as the last ending, which joins with an unknown
   * target fall back to (any thread alive at the end would do, not the one they waited for).
   */
  void runningAtEnd(int th, int node, long id, long t) {
    if (openJoins > 0 && awaited.contains(id) && ended.get(id) < 0) {
      putEnding(id, th, node, t);
    }
  }

  private int newSlot() {
    if (free > 0) {
      return freeSlots[--free];
    }
    if (slots == endTime.length) {
      int cap = slots * 2;
      endTime = Arrays.copyOf(endTime, cap);
      endThread = Arrays.copyOf(endThread, cap);
      endNode = Arrays.copyOf(endNode, cap);
      freeSlots = Arrays.copyOf(freeSlots, cap);
    }
    return slots++;
  }

  /**
   * The ending the join of thread {@code th} in frame {@code frame} (from {@code start} to {@code
   * t}) waited for: {time, thread, call path}, or null when another thread ended nothing it could
   * have waited for.
   */
  long[] joined(int th, int frame, long start, long t) {
    openJoins = Math.max(0, openJoins - 1);
    long target =
        th < targets.length && targets[th] != null && frame < targets[th].length
            ? targets[th][frame]
            : Long.MIN_VALUE;
    awaited.remove(target);
    long[] e = null;
    int slot = ended.remove(target);
    if (slot >= 0) {
      e = new long[] {endTime[slot], endThread[slot], endNode[slot]};
      freeSlots[free++] = slot;
    }
    if (e == null && lastEndThread >= 0 && lastEndTime >= start && lastEndTime <= t) {
      e = new long[] {lastEndTime, lastEndThread, lastEndNode};
    }
    return e == null || e[1] == th || e[0] < start || e[0] > t ? null : e;
  }
}
