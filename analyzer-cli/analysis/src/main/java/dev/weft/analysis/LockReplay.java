package dev.weft.analysis;

import static dev.weft.analysis.ThreadState.F_LOCK;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;

/**
 * The replay of locks and monitors: requests (LOCK_REQUEST..LOCK_ACQUIRED frames), who holds each
 * lock exclusively or shared across threads, releases (kept for the waiters that follow), and the
 * release and re-acquisition that an object wait or condition await implies ({@link WaitReplay}).
 * Emits {@link LockAcquisition} to {@code onLockAcquisition}.
 */
final class LockReplay {
  private final Replay r;
  private final ThreadReplay frames;
  private final Occurrences out;
  private final LockTable locks = new LockTable();
  private final LockAcquisition acquisition = new LockAcquisition();

  /**
   * The slot of the request just finished by its LOCK_ACQUIRED, kept for the {@link #take} that
   * follows at once (-1: none). Freeing it there, idle between the two, and adding it back in
   * {@code take} was two map updates per acquisition for the same slot.
   */
  private int keptSlot = -1;

  /** Frees the kept slot if it is idle: whatever comes next is not its take. */
  private void flushKept() {
    int l = keptSlot;
    if (l >= 0) {
      keptSlot = -1;
      locks.releaseIfIdle(l);
    }
  }

  LockReplay(Replay replay) {
    this.r = replay;
    this.frames = replay.frames;
    this.out = replay.occurrences;
  }

  void request(ThreadState th, long t, int region, long obj) {
    flushKept();
    int l = locks.getOrAdd(obj);
    locks.waiters[l]++;
    int holder = locks.holder[l];
    boolean exclusiveByOther = holder >= 0 && holder != th.index;
    boolean byOther = exclusiveByOther || locks.shared[l] - ownShared(th, obj) > 0;
    int i = frames.push(th, F_LOCK, r.tree.child(th.currentNode(), region), region, t, obj, -1);
    // The slot stays this lock's while the request waits (it counts as a waiter): finish finds it
    // here, without a lookup.
    th.aux[i] = (exclusiveByOther ? 1 : 0) | (byOther ? 2 : 0) | ((long) l << AUX_SLOT_SHIFT);
  }

  /** Where a request frame's {@code aux} keeps its lock slot, above its two flags. */
  private static final int AUX_SLOT_SHIFT = 8;

  /** Shared holds of {@code obj} by {@code th}. */
  private static int ownShared(ThreadState th, long obj) {
    int ownShared = 0;
    for (int k = 0; k < th.heldCount; k++) {
      if (th.held[k] == obj && th.heldShared[k]) {
        ownShared++;
      }
    }
    return ownShared;
  }

  /**
   * Ends the request in frame {@code i} at {@code t}: acquired (its LOCK_ACQUIRED, with {@code
   * flags}) or not (the thread ended, or the trace, while it waited).
   */
  void finish(ThreadState th, int i, long t, int flags, boolean acquired) {
    flushKept();
    long obj = th.obj[i];
    // The request's slot: it is this lock's while the request counts as a waiter (see request).
    int l = (int) (th.aux[i] >>> AUX_SLOT_SHIFT);
    LockAcquisition a = acquisition;
    a.reset(r.cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    a.object = obj;
    a.flags = flags;
    a.acquired = acquired;
    a.heldExclusivelyByOther = (th.aux[i] & 1) != 0;
    a.heldByOther = (th.aux[i] & 2) != 0;
    if ((flags & LockFlags.CONTENDED) != 0) {
      // The JVM saw this wait for another thread's hold, which the trace does not show.
      a.heldByOther = true;
      a.heldExclusivelyByOther = true;
    }
    a.lastRelease = locks.lastRelease[l];
    a.lastReleaser = locks.lastReleaser[l];
    a.releaserNode = locks.releaseNode[l];
    a.lastExclusiveRelease = locks.lastExclusiveRelease[l];
    a.lastExclusiveReleaser = locks.lastExclusiveReleaser[l];
    a.releases = locks.releases[l];
    a.releaseTimes = locks.releaseTimes[l];
    a.releaseThreads = locks.releaseThreads[l];
    a.releaseNodes = locks.releaseNodes[l];
    int objectKind = locks.objectKind[l];
    if (objectKind < 0) {
      objectKind = r.objectKindCode(obj);
      locks.objectKind[l] = objectKind;
    }
    ConstructKind kind = r.kindOf(objectKind, th.region[i]);
    a.kind = kind;
    a.signalled =
        kind == ConstructKind.SEMAPHORE
            && locks.lastReleaseSignal[l]
            && a.lastRelease > a.start()
            && a.lastReleaser != th.index;
    if (!acquired && kind != ConstructKind.SEMAPHORE && heldByOtherNow(th, l, obj)) {
      // Still waiting where its wait ends (the run ended, or the acquisition is missing) while
      // another thread holds the lock: it was waiting for that holder, whatever releases came in
      // between. (A holder whose stream ended before its release is still the holder: no release
      // is invented for it.)
      a.heldByOther = true;
      a.heldExclusivelyByOther |= locks.holder[l] >= 0 && locks.holder[l] != th.index;
      a.lastRelease = LockTable.NEVER;
      a.lastReleaser = -1;
      a.lastExclusiveRelease = LockTable.NEVER;
      a.lastExclusiveReleaser = -1;
    }
    a.monitor = kind == ConstructKind.MONITOR || kind == ConstructKind.SYNCHRONIZED_METHOD;
    if (!a.monitor) {
      th.parkableWaits++; // a contended java.util.concurrent lock parks
    }
    if (a.monitor
        && (flags & LockFlags.AFTER_WAIT) == 0
        && (!acquired || contendedInTrace(th, a) || t - th.start[i] >= JvmCrossCheck.MIN_WAIT_NS)) {
      th.monitorWaits++; // the re-entry after a wait is counted at the wait's exit
    }
    a.waitingForHolder = 0;
    a.handoff = 0;
    out.lockAcquisition(a);
    if (r.waits != null) {
      boolean shared = (flags & LockFlags.SHARED) != 0;
      long release = shared ? a.lastExclusiveRelease : a.lastRelease;
      int releaser = shared ? a.lastExclusiveReleaser : a.lastReleaser;
      int blocker = release > a.start() && releaser != th.index ? releaser : -1;
      String family = a.monitor ? "monitor" : "lock";
      r.waits.end(family, kind.id(), th.index, th.start[i], t, obj, blocker);
    }
    long waited = th.accum[i] - a.unclaimed();
    if (acquired && waited > 0) {
      r.critical.lockHandOver(th.index, th.node[i], l, a.lastReleaser, a.lastRelease, t);
    } else {
      r.critical.waited(th.index, th.node[i], t);
    }
    frames.rest(th, a, th.stat[i]);
    locks.waiterDone(l);
    if (acquired) {
      keptSlot = l;
    } else {
      locks.releaseIfIdle(l);
    }
  }

  /**
   * Whether the trace shows another thread in the way of this request: holding the lock when it was
   * requested, or releasing it while the request waited (it took the lock first). Only such a
   * request can have been a block of the JVM that lasted under {@link JvmCrossCheck#MIN_WAIT_NS}.
   */
  private static boolean contendedInTrace(ThreadState th, LockAcquisition a) {
    return a.heldByOther
        || (a.lastReleaser >= 0 && a.lastReleaser != th.index && a.lastRelease >= a.start());
  }

  /** Whether another thread holds lock slot {@code l} (in any mode) now. */
  private boolean heldByOtherNow(ThreadState th, int l, long obj) {
    int holder = locks.holder[l];
    if (holder >= 0 && holder != th.index) {
      return true;
    }
    return locks.shared[l] - ownShared(th, obj) > 0;
  }

  /** A LOCK_ACQUIRED (after its request, if any, was finished): who holds the lock now. */
  void take(ThreadState th, long obj, int flags) {
    if ((flags & (LockFlags.FAILED | LockFlags.ABORTED)) != 0) {
      flushKept();
      return;
    }
    int l = keptSlot;
    if (l >= 0 && locks.id[l] == obj) {
      keptSlot = -1;
    } else {
      flushKept();
      l = locks.getOrAdd(obj);
    }
    if ((flags & LockFlags.SHARED) != 0) {
      locks.shared[l]++;
      th.hold(obj, true);
    } else if ((flags & LockFlags.AFTER_WAIT) != 0
        && th.waitReleasePending
        && th.waitReleasedLock == obj) {
      retake(th, l);
    } else if ((flags & LockFlags.AFTER_WAIT) != 0
        && th.waitRetaken
        && th.waitRetakenLock == obj
        && locks.holder[l] == th.index) {
      th.waitRetaken = false; // already re-taken at the wait's end
    } else if (locks.holder[l] == th.index) {
      locks.depth[l]++;
    } else {
      int previous = locks.holder[l];
      if (previous >= 0) {
        // Another thread is recorded as holding it: its release is missing.
        r.counters.lockAcquiredWhileHeld++;
        r.threads[previous].unhold(obj, false);
      }
      locks.holder[l] = th.index;
      // A re-entrant first sight means the thread held it before the trace started.
      locks.depth[l] = (flags & LockFlags.REENTRANT) != 0 ? 2 : 1;
      th.hold(obj, false);
    }
  }

  private void retake(ThreadState th, int l) {
    int previous = locks.holder[l];
    if (previous >= 0 && previous != th.index) {
      r.counters.lockAcquiredWhileHeld++;
      r.threads[previous].unhold(locks.id[l], false);
    }
    if (previous != th.index) {
      th.hold(locks.id[l], false);
    }
    locks.holder[l] = th.index;
    locks.depth[l] = Math.max(1, th.waitReleasedDepth);
    th.waitReleasePending = false;
  }

  /** The end of an object wait or condition await whose release was not recorded: re-takes it. */
  void retakeAfterWait(ThreadState th) {
    flushKept();
    long lock = th.waitReleasedLock;
    retake(th, locks.getOrAdd(lock));
    th.waitRetaken = true;
    th.waitRetakenLock = lock;
  }

  /**
   * An object wait or condition await gives up {@code lock} in full: recorded (the LOCK_RELEASED
   * just before the wait, from {@code depth} deep) or implied (the innermost lock held exclusively,
   * given up only when this thread holds it).
   */
  void giveUpForWait(ThreadState th, long t, long lock, int depth, boolean recorded) {
    flushKept();
    int l = locks.get(lock);
    boolean holds = l >= 0 && locks.holder[l] == th.index;
    if (!recorded && !holds) {
      return;
    }
    th.waitReleasedLock = lock;
    th.waitReleasedDepth = recorded ? depth : locks.depth[l];
    th.waitReleasePending = true;
    th.waitReleaseRecorded = recorded;
    th.waitRetaken = false;
    if (holds) {
      // Held re-entrantly (a recorded release left it held): the wait gives it up entirely.
      releaseExclusive(l, th, t);
      noteRelease(l, th, t);
      locks.releaseIfIdle(l);
    }
  }

  /** A LOCK_RELEASED, whether or not this thread's stream shows it holding the lock. */
  void released(ThreadState th, long t, long obj) {
    flushKept();
    int l = locks.get(obj);
    if (l < 0) {
      // No state: nobody waits for it. It was held since before the trace (or is a semaphore).
      if (!isSemaphore(obj)) {
        r.counters.lockReleaseWithoutAcquire++;
      }
      return;
    }
    if (locks.holder[l] == th.index) {
      locks.lastReleaseSignal[l] = false;
      th.releaseEvent = th.events;
      th.releasedLock = obj;
      th.releasedDepth = locks.depth[l];
      if (--locks.depth[l] <= 0) {
        releaseExclusive(l, th, t);
      }
    } else if (th.unhold(obj, true)) {
      locks.shared[l]--;
      locks.lastRelease[l] = t;
      locks.lastReleaser[l] = th.index;
      locks.lastReleaseSignal[l] = false;
    } else {
      // Held since before the trace started, or a semaphore permit released by another thread.
      boolean semaphore = isSemaphore(obj);
      if (semaphore) {
        // A thread that held no permit gives one: a signal (a producer's, or a wake-up call), not
        // a permit given back. (A permit taken by a signalled thread is never given back.)
        locks.lastReleaseSignal[l] = true;
        if (locks.shared[l] > 0) {
          locks.shared[l]--;
        }
      } else {
        r.counters.lockReleaseWithoutAcquire++;
        locks.lastExclusiveRelease[l] = t;
        locks.lastExclusiveReleaser[l] = th.index;
      }
      locks.lastRelease[l] = t;
      locks.lastReleaser[l] = th.index;
    }
    noteRelease(l, th, t);
    locks.releaseIfIdle(l);
  }

  /** {@code th} gives lock slot {@code l}, held exclusively, back in full at {@code t}. */
  private void releaseExclusive(int l, ThreadState th, long t) {
    locks.holder[l] = -1;
    locks.depth[l] = 0;
    locks.lastExclusiveRelease[l] = t;
    locks.lastExclusiveReleaser[l] = th.index;
    locks.lastRelease[l] = t;
    locks.lastReleaser[l] = th.index;
    th.unhold(locks.id[l], false);
  }

  /** Keeps the releaser's chain for a thread waiting for lock slot {@code l}. */
  private void noteRelease(int l, ThreadState th, long t) {
    if (locks.lastRelease[l] == t && locks.lastReleaser[l] == th.index) {
      locks.releaseNode[l] = th.currentNode();
    }
    if (locks.waiters[l] > 0 && locks.lastRelease[l] == t && locks.lastReleaser[l] == th.index) {
      r.critical.lockReleased(l, th.index, t);
      locks.addRelease(l, t, th.index, locks.releaseNode[l]);
    }
  }

  private boolean isSemaphore(long obj) {
    return r.kindOf(obj, Integer.MIN_VALUE) == ConstructKind.SEMAPHORE;
  }
}
