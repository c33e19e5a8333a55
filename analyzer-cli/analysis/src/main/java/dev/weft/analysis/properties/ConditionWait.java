package dev.weft.analysis.properties;

import dev.weft.analysis.LockAcquisition;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.WaitSpan;
import dev.weft.trace.WaitKind;
import java.util.Map;

/**
 * Waiting for a notification: Object.wait, Condition.await, LockSupport.park, and acquires of
 * synchronizers programs build on AbstractQueuedSynchronizer.
 */
@PropertyInfo(
    id = "condition_wait",
    parent = "time",
    name = "Condition wait",
    info =
        "Time threads waited to be notified (Object.wait, Condition.await, park, blocking"
            + " queues, own synchronizers)",
    description =
        """
        WAIT_ENTER..WAIT_EXIT of kind object_wait, condition_await, park, queue or synchronizer \
        (and wait kinds this version does not know; network waits are [[network_idle]] and \
        [[io_wait]], a worker's take of its next task [[task_queue_idle]]): the thread waits for another thread to \
        signal it, for example a consumer waiting for a producer. A queue wait is a blocking \
        queue's take, put, timed poll or offer, or transfer: waiting for an element, for room or \
        for a taker; a consumer's take (or timed poll) names its queue (WAIT_ENTER_ON), and the \
        producer whose put into that queue ended it is its waker ([[delay_cost_condition]]); a \
        put's wait for room has no recorded waker. A park names its thread, and an unpark of \
        that thread by another is its waker. A synchronizer wait is an acquire of a \
        synchronizer that the program or a library built on AbstractQueuedSynchronizer (a \
        database's own latch, a gate): its waker is not recorded, so it has no delay cost. A wait \
        made directly inside another construct's wait is how a library implements that wait \
        (Guava's Future.get parks, Netty's waits on its promise's monitor, a Lock of the \
        program's own waits in its synchronizer): its time is the outer wait's, not a condition \
        wait. Sleep and yield are not waits (programs sleep on purpose): they count as \
        [[execution]]. The monitor re-acquisition when the wait returns is part of this wait; \
        only a separately recorded LOCK_REQUEST for it counts as [[lock_contention]]. A semaphore's \
        acquisition that waited for a signal (a permit released by a thread that held none) \
        is a condition wait too: cause semaphore_signal_ns. Causes: ns per \
        wait kind.\
        """,
    diagnosis =
        """
        A thread waits for work or a state change: producers are slower than consumers, or \
        signals come late. Balance producers and consumers, or hand work over in bigger \
        batches.\
        """)
public final class ConditionWait extends Property {
  private final WaitKindTimes byKind =
      new WaitKindTimes(
          WaitKind.OBJECT_WAIT,
          WaitKind.CONDITION_AWAIT,
          WaitKind.PARK,
          WaitKind.SYNCHRONIZER,
          WaitKind.QUEUE);

  @Override
  public void onWait(WaitSpan wait) {
    int kind = wait.waitKind();
    if (kind == WaitKind.SLEEP
        || kind == WaitKind.YIELD
        || kind == WaitKind.THREAD_START
        || WaitKind.idle(kind)
        || WaitKind.network(kind)) {
      return;
    }
    byKind.add(kind, wait.claim(this, wait.total()));
  }

  /** Semaphore acquisitions that waited for a signal ({@link LockAcquisition#signalled}). */
  private long semaphoreSignals;

  @Override
  public void onLockAcquisition(LockAcquisition a) {
    if (a.signalled()) {
      semaphoreSignals += a.claim(this, a.total());
    }
  }

  @Override
  public Map<String, Long> causes() {
    Map<String, Long> m = byKind.causes();
    m.put("semaphore_signal_ns", semaphoreSignals);
    return m;
  }
}
