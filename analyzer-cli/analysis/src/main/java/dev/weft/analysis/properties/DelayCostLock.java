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
    info = "Waiting for a lock's holder, charged to that holder",
    description =
        """
        For every contended acquisition: its waiting_for_holder part (see [[lock_contention]]), \
        charged to the thread whose release the acquisition followed (the last exclusive \
        releaser for a shared acquisition), at the call path it was in when it released: its \
        critical section. A wait whose holder's release is missing is not charged.\
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
    boolean shared = (a.flags() & LockFlags.SHARED) != 0;
    int cause = shared ? a.lastExclusiveReleaser() : a.lastReleaser();
    long release = shared ? a.lastExclusiveRelease() : a.lastRelease();
    if (wait <= 0 || cause < 0 || cause == a.thread() || release <= a.start()) {
      return;
    }
    add(a.releaserNode(), cause, wait);
  }
}
