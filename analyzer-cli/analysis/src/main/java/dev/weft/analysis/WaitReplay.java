package dev.weft.analysis;

import static dev.weft.analysis.CallPathTree.ROOT;
import static dev.weft.analysis.ThreadState.F_JOIN;
import static dev.weft.analysis.ThreadState.F_SPIN;
import static dev.weft.analysis.ThreadState.F_WAIT;

import dev.weft.trace.WaitKind;
import java.util.HashMap;
import java.util.Map;

/**
 * The replay of waits (WAIT_ENTER..EXIT: sleep, object wait, condition await, park, yield), the
 * notifications that end them, and busy-wait loops (SPIN_ENTER..EXIT). An object wait or condition
 * await gives up the monitor or lock it waits on ({@link LockReplay} keeps who holds what) and
 * takes it back at its end; a wait that names its object (WAIT_ENTER_ON: a consumer's take from a
 * queue) is ended by a NOTIFY of its kind naming that object (a producer's hand-over). Emits {@link
 * WaitSpan} to {@code onWait} and {@code onSpin}.
 */
final class WaitReplay {
  private final Replay r;
  private final ThreadReplay frames;
  private final Occurrences out;
  private final WaitSpan waitSpan = new WaitSpan();

  /** Notifications kept at most: past this, they are forgotten (a wait then finds none). */
  private static final int MAX_NOTIFIED = 65_536;

  /**
   * The latest notification of each lock or monitor while notifiable waits were open: {time,
   * thread, call path}. (The critical path keeps the notifier's chain beside it.)
   */
  private final Map<Long, long[]> notifications = new HashMap<>();

  /** Object waits and condition awaits open now: only they can be ended by a notification. */
  private int openNotifiable;

  /** Waits on a named object (WAIT_ENTER_ON) open now: a NOTIFY of their kind may end them. */
  private int openOnObject;

  WaitReplay(Replay replay) {
    this.r = replay;
    this.frames = replay.frames;
    this.out = replay.occurrences;
  }

  /** Waits that a NOTIFY on the lock or monitor they gave up ends. */
  private static boolean notifiable(int kind) {
    return kind == WaitKind.OBJECT_WAIT || kind == WaitKind.CONDITION_AWAIT;
  }

  /**
   * Added to the wait kind kept for a wait made directly inside another construct's wait: the wait
   * the program asked for is the outer one, and the inner one is how a library implements it
   * (Guava's {@code Future.get} parks, Netty's waits on its promise's monitor, a program's own
   * {@code Lock} waits in its synchronizer), so its time is the outer wait's ({@link
   * ThreadReplay#charge}). An object wait or condition await still gives up and re-takes its lock.
   * No recorded wait kind (a 32-bit field) reads as such a value ({@link #partOfOuter}).
   */
  private static final long PART_OF_OUTER_WAIT = Long.MIN_VALUE;

  /**
   * Added to the wait kind kept for an idle wait (next_task, timer_due) made right after a recorded
   * release: an {@code Object.wait} of a library's pool or scheduler thread waiting for its next
   * task (Quartz), which re-enters its monitor at its end as any {@code Object.wait} does. Above
   * the 32 bits of a kind, so it leaves the kind and {@link #partOfOuter} as they are.
   */
  private static final long GAVE_UP_MONITOR = 1L << 40;

  /** Whether a wait frame's kept kind says it is part of the wait around it. */
  static boolean partOfOuter(long keptKind) {
    return keptKind < Integer.MIN_VALUE;
  }

  /**
   * The key a notification of {@code obj} for waits of {@code kind} is kept under: a lock's id for
   * object waits and condition awaits (a condition's NOTIFY names its lock), else the object's id
   * and the kind, so that a queue and a monitor never share one.
   */
  private static long notifyKey(long obj, long kind) {
    return notifiable((int) kind) ? obj : obj ^ (kind << 56) ^ Long.MIN_VALUE;
  }

  /**
   * A wait begins; {@code on} is the object it waits on (WAIT_ENTER_ON), 0 when it names none. An
   * object wait or condition await never names one: it waits on the lock it gives up.
   */
  void enter(ThreadState th, long t, int region, int kind, long on) {
    boolean partOfOuter = th.depth > 0 && th.kind[th.depth - 1] >= F_JOIN;
    long waitsOn = notifiable(kind) ? 0 : on;
    int i = frames.push(th, F_WAIT, r.tree.child(th.currentNode(), region), region, t, waitsOn, -1);
    th.aux[i] = partOfOuter ? PART_OF_OUTER_WAIT + (kind & 0xFFFFFFFFL) : kind;
    if ((kind == WaitKind.NEXT_TASK || kind == WaitKind.TIMER_DUE)
        && th.releaseEvent == th.events - 1) {
      th.aux[i] += GAVE_UP_MONITOR;
    }
    if (waitsOn != 0 && !partOfOuter) {
      openOnObject++;
    }
    if (notifiable(kind)) {
      openNotifiable++;
    }
    if (notifiable(kind) && th.releaseEvent == th.events - 1) {
      // The recorder wrote the wait's release (LOCK_RELEASED just before WAIT_ENTER): that lock is
      // the one given up, in full however deep it was held; its AFTER_WAIT acquisition re-takes it.
      r.locks.giveUpForWait(th, t, th.releasedLock, th.releasedDepth, true);
    } else if (notifiable(kind)) {
      // No release recorded: the wait gives up the monitor (or lock) it waits on, the innermost
      // one held exclusively, and gets it back at its end.
      int h = th.innermostExclusive();
      if (h >= 0) {
        r.locks.giveUpForWait(th, t, th.held[h], -1, false);
      }
    }
  }

  /** A NOTIFY of {@code waitKind} waiters on {@code obj}. */
  void notify(ThreadState th, long t, int region, long obj, long waitKind) {
    boolean awaited =
        notifiable((int) waitKind) ? openNotifiable > 0 : openOnObject > 0 && obj != 0;
    if (awaited) {
      if (notifications.size() > MAX_NOTIFIED) {
        notifications.clear();
        r.critical.notificationsCleared();
      }
      long key = notifyKey(obj, waitKind);
      // A monitor's notify is named by the synchronized block around it; a hand-over to a queue
      // usually has nothing recorded around it, so its own call site names the producer's code.
      int node =
          notifiable((int) waitKind) ? th.currentNode() : r.tree.child(th.currentNode(), region);
      notifications.put(key, new long[] {t, th.index, node});
      r.critical.notified(th.index, key);
    }
  }

  /**
   * The latest notification of {@code obj} by a thread other than {@code th} between {@code start}
   * and {@code t}: {time, thread, call path}, or null.
   */
  private long[] notification(int th, long obj, long start, long t) {
    long[] when = notifications.get(obj);
    return when == null || when[1] == th || when[0] < start || when[0] > t ? null : when;
  }

  void finishWait(ThreadState th, int i, long t) {
    if (partOfOuter(th.aux[i]) && i > 0) {
      finishPartOfOuter(th, i, (int) (th.aux[i] - PART_OF_OUTER_WAIT));
      return;
    }
    WaitSpan w = waitSpan;
    w.reset(r.cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    w.waitKind = (int) th.aux[i];
    long waitsOn = th.obj[i];
    long[] notification =
        notifiable(w.waitKind) && th.waitReleasePending
            ? notification(th.index, th.waitReleasedLock, th.start[i], t)
            : waitsOn != 0
                ? notification(th.index, notifyKey(waitsOn, w.waitKind), th.start[i], t)
                : null;
    w.notifier = notification == null ? -1 : (int) notification[1];
    w.notifierNode = notification == null ? ROOT : (int) notification[2];
    w.notifyTime = notification == null ? Long.MIN_VALUE : notification[0];
    if (w.waitKind == WaitKind.OBJECT_WAIT || (th.aux[i] & GAVE_UP_MONITOR) != 0) {
      th.monitorWaits++; // re-entering the monitor inside Object.wait may block
    }
    out.waitSpan(w);
    if (r.waits != null) {
      String family =
          WaitKind.network(w.waitKind)
              ? "network"
              : w.waitKind == WaitKind.NEXT_TASK || w.waitKind == WaitKind.TIMER_DUE
                  ? "idle"
                  : w.waitKind == WaitKind.THREAD_START ? "thread" : "condition";
      r.waits.end(family, WaitKind.name(w.waitKind), th.index, th.start[i], t, 0, -1);
    }
    if (notifiable(w.waitKind)) {
      openNotifiable = Math.max(0, openNotifiable - 1);
    }
    if (waitsOn != 0) {
      openOnObject = Math.max(0, openOnObject - 1);
    }
    if (notifiable(w.waitKind) && th.waitReleasePending) {
      long notifyTime = notification == null ? Long.MIN_VALUE : notification[0];
      r.critical.notifiedWaitEnded(th.index, th.waitReleasedLock, notifyTime, th.node[i], t);
    } else if (waitsOn != 0 && !WaitKind.idle(w.waitKind)) {
      long notifyTime = notification == null ? Long.MIN_VALUE : notification[0];
      r.critical.notifiedWaitEnded(
          th.index, notifyKey(waitsOn, w.waitKind), notifyTime, th.node[i], t);
    } else if (w.waitKind == WaitKind.TIMER_DUE) {
      r.critical.timerWaited(th.index, th.node[i], t);
    } else if (WaitKind.idle(w.waitKind)) {
      r.critical.idled(th.index, th.node[i], t);
    } else {
      r.critical.waited(th.index, th.node[i], t);
    }
    frames.rest(th, w, th.stat[i]);
    if (th.waitReleasePending && !th.waitReleaseRecorded) {
      // Object.wait returns holding the monitor again (a recorded release is re-taken by the
      // recorded AFTER_WAIT acquisition, after any contention for it).
      r.locks.retakeAfterWait(th);
    }
  }

  /** A wait inside another's: its time went to the outer wait; a lock it gave up is taken back. */
  private void finishPartOfOuter(ThreadState th, int i, int kind) {
    th.accum[i - 1] += th.accum[i]; // nothing, unless a frame above it closed late
    if (!notifiable(kind)) {
      return;
    }
    openNotifiable = Math.max(0, openNotifiable - 1);
    if (kind == WaitKind.OBJECT_WAIT) {
      th.monitorWaits++; // re-entering the monitor inside Object.wait may block
    }
    if (th.waitReleasePending && !th.waitReleaseRecorded) {
      r.locks.retakeAfterWait(th);
    }
  }

  void spinEnter(ThreadState th, long t, int region) {
    frames.push(th, F_SPIN, r.tree.child(th.currentNode(), region), region, t, region, -1);
  }

  void finishSpin(ThreadState th, int i, long t) {
    WaitSpan w = waitSpan;
    w.reset(r.cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    w.waitKind = 0;
    w.notifier = -1;
    out.spin(w);
    if (r.waits != null) {
      r.waits.end("spin", "spin", th.index, th.start[i], t, 0, -1);
    }
    r.critical.waited(th.index, th.node[i], t);
    frames.rest(th, w, th.stat[i]);
  }
}
