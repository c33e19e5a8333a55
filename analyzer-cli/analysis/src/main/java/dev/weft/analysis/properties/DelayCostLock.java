package dev.weft.analysis.properties;

import dev.weft.analysis.LockAcquisition;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.trace.LockFlags;

/** Lock waits charged to the holder that released the lock. */
@PropertyInfo(
    id = "delay_cost_lock",
    parent = "delay_cost",
    name = "Lock delay cost",
    info = "Waiting for a lock's holder, charged to that holder (short-term)",
    description =
        """
        For every contended acquisition: its waiting_for_holder part (see [[lock_contention]]), \
        from the request to the last release before the acquisition, split at the releases in \
        between: each piece is charged to the thread whose release ended it, at the call path it \
        was in when it released (its critical section). In a convoy, a waiter behind three \
        holders charges each of them the part of its wait that their hold (and their own \
        hand-over) took, so every holder is charged the waits its holds caused. A shared (read) \
        acquisition waits only for exclusive holders and is charged to the last exclusive \
        releaser. Stretches of a piece in which the holder was itself waiting for another thread \
        go to [[delay_cost_long_term]]; with them, the pieces of one wait sum to its \
        waiting_for_holder part. A wait whose \
        holder's release is missing is not charged.\
        """,
    diagnosis =
        """
        The critical sections at the top make others wait: shorten them, move work out of them, \
        or split the lock.\
        """)
public final class DelayCostLock extends Property {
  @Override
  public void onLockAcquisition(LockAcquisition a) {
    long wait = a.waitingForHolder();
    if (wait <= 0) {
      return;
    }
    if ((a.flags() & LockFlags.SHARED) == 0 && chargeReleases(a, wait)) {
      return;
    }
    boolean shared = (a.flags() & LockFlags.SHARED) != 0;
    int cause = shared ? a.lastExclusiveReleaser() : a.lastReleaser();
    long release = shared ? a.lastExclusiveRelease() : a.lastRelease();
    if (cause < 0 || cause == a.thread() || release <= a.start()) {
      return;
    }
    add(
        a.releaserNode(),
        cause,
        shortTerm(a, cause, a.releaserNode(), a.start(), a.start() + wait));
  }

  /**
   * Charges the pieces of the wait (request + {@code wait}) between the releases after the request;
   * false when no release falls in it.
   */
  private boolean chargeReleases(LockAcquisition a, long wait) {
    long from = a.start();
    long end = a.start() + wait;
    boolean charged = false;
    for (int k = 0; k < a.releases(); k++) {
      long t = a.releaseTime(k);
      if (t <= from) {
        continue;
      }
      if (t > end) {
        break;
      }
      if (a.releaseThread(k) != a.thread()) {
        int node = a.releaseNode(k);
        add(node, a.releaseThread(k), shortTerm(a, a.releaseThread(k), node, from, t));
        charged = true;
      }
      from = t;
    }
    return charged;
  }

  private long shortTerm(LockAcquisition a, int holder, int node, long from, long to) {
    return DelayCost.shortTerm(this, DelayChains.LOCK, a.thread(), holder, node, from, to);
  }
}
