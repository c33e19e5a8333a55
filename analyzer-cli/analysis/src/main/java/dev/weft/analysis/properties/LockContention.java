package dev.weft.analysis.properties;

import dev.weft.analysis.LockAcquisition;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Waiting for a lock another thread held: waiting for the holder plus hand-off latency. */
@PropertyInfo(
    id = "lock_contention",
    parent = "time",
    name = "Lock contention",
    info = "Time threads waited for locks other threads held",
    description =
        """
        Own LOCK_REQUEST to own LOCK_ACQUIRED, only for acquisitions that had to wait because \
        another thread held the lock: another thread held it at the request, or the lock's \
        previous release by another thread came after the request. Acquisitions are ordered by the \
        LOCK_ACQUIRED time (taken inside the lock). Of the wait, previous holder's release - own \
        request is waiting_for_holder_ns and release to own acquisition is handoff_latency_ns. An \
        acquisition that found the lock free, a re-entrant one, and a failed or aborted tryLock \
        contribute nothing (their time is [[execution]]). A shared (read) acquisition waits only \
        for exclusive holders. A semaphore permit waits when another thread released a permit \
        after the request, unless that release was a signal (below). When the holder at the request never recorded a release (missing \
        events), the whole wait is waiting_for_holder_ns; so is a request still waiting when the \
        trace was cut while another thread held the lock (counted up to the cut; a holder whose \
        stream ended before its release still holds it). Object.wait (and Condition.await) gives \
        up its monitor (lock) entirely, however often it was entered: the LOCK_RELEASED recorded \
        just before the WAIT_ENTER is that release, and the LOCK_REQUEST..LOCK_ACQUIRED \
        (AFTER_WAIT) after the WAIT_EXIT is the re-acquisition, contended like any other; without \
        a recorded release, the innermost lock held is given up at the WAIT_ENTER and re-taken at \
        the WAIT_EXIT. A semaphore's acquisition that waited for a permit released by a thread \
        that held none (a producer's signal, or a semaphore used to wake a thread, as Jetty's \
        reserved threads wait for a job) waited for a signal, not a holder: it is \
        [[condition_wait]]. Split into \
        [[monitor_contention]] and [[lock_api_contention]]; attributed to the lock's call site.\
        """,
    diagnosis =
        """
        Threads serialise on a lock. Mostly waiting_for_holder: critical sections are long or the \
        lock is hot; shorten them, split the lock, or use concurrent data structures. Mostly \
        handoff_latency: the lock is handed over slowly (thread wake-up); spinning briefly or \
        fewer threads help.\
        """)
public final class LockContention extends Property {
  private long waitingForHolder;
  private long handoff;

  @Override
  public void onLockAcquisition(LockAcquisition a) {
    int flags = a.flags();
    if ((flags & (LockFlags.REENTRANT | LockFlags.FAILED | LockFlags.ABORTED)) != 0
        || a.signalled()) {
      return; // a semaphore's signal: nobody held what it waited for ([[condition_wait]])
    }
    long release;
    int releaser;
    boolean heldAtRequest;
    if (a.kind() == ConstructKind.SEMAPHORE) {
      release = a.lastRelease();
      releaser = a.lastReleaser();
      heldAtRequest = false;
    } else if ((flags & LockFlags.SHARED) != 0) {
      release = a.lastExclusiveRelease();
      releaser = a.lastExclusiveReleaser();
      heldAtRequest = a.heldExclusivelyByOther();
    } else {
      release = a.lastRelease();
      releaser = a.lastReleaser();
      heldAtRequest = a.heldByOther();
    }
    boolean releasedAfterRequest = release > a.start() && releaser != a.thread();
    if (!heldAtRequest && !releasedAfterRequest) {
      return;
    }
    long forHolder =
        releasedAfterRequest ? Math.min(a.total(), Math.max(0, release - a.start())) : a.total();
    a.split(forHolder, a.total() - forHolder);
    waitingForHolder += a.waitingForHolder();
    handoff += a.handoff();
    List<Property> children = children();
    for (int i = 0; i < children.size(); i++) {
      children.get(i).onLockAcquisition(a);
    }
    a.claim(this, a.unclaimed());
  }

  @Override
  public Map<String, Long> causes() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("waiting_for_holder_ns", waitingForHolder);
    m.put("handoff_latency_ns", handoff);
    return m;
  }
}
