package dev.weft.analysis.properties;

import dev.weft.analysis.LockAcquisition;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/** Lock contention on java.util.concurrent locks and semaphores. */
@PropertyInfo(
    id = "lock_api_contention",
    parent = "lock_contention",
    name = "Lock API contention",
    info = "Lock contention on java.util.concurrent locks, read/write locks and semaphores",
    description =
        """
        The part of [[lock_contention]] on everything that is not a monitor: ReentrantLock, \
        ReentrantReadWriteLock and StampedLock (read acquisitions wait only for writers), \
        Semaphore permits.\
        """,
    diagnosis =
        """
        A hot explicit lock. Shorten the critical section, use a read/write lock when most \
        accesses read, or split the lock. Compare [[monitor_contention]].\
        """)
public final class LockApiContention extends Property {
  private long waitingForHolder;
  private long handoff;

  @Override
  public void onLockAcquisition(LockAcquisition a) {
    if (!a.monitor()) {
      a.claim(this, a.total());
      waitingForHolder += a.waitingForHolder();
      handoff += a.handoff();
    }
  }

  @Override
  public Map<String, Long> causes() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("waiting_for_holder_ns", waitingForHolder);
    m.put("handoff_latency_ns", handoff);
    return m;
  }
}
