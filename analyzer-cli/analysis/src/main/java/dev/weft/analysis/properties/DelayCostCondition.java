package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.WaitSpan;

/** Condition waits and consumers' takes charged to the thread that notified the waiter. */
@PropertyInfo(
    id = "delay_cost_condition",
    parent = "delay_cost",
    name = "Condition delay cost",
    info = "Waiting for a notification, charged to the notifying thread (short-term)",
    description =
        """
        For every Object.wait or Condition.await that a notification by another thread ended \
        (the latest NOTIFY of the monitor or lock the wait gave up, made during the wait), and \
        every consumer's take from a blocking queue that a producer's hand-over ended (the \
        latest element another thread put into that queue during the take, at the start of its \
        put), and every LockSupport.park that an unpark of its thread by another thread ended: \
        the wait from its start to the notification, charged to the notifying thread at \
        the call path of its notify (for a hand-over, the put's call site), like a lock's holder \
        is charged for its hold. The rest of the wait \
        (from the notification to the wake-up) is hand-over latency and not charged. A wait that \
        no recorded notification ended (a timeout, a spurious wake-up) is not charged. \
        In a chain of hand-overs (A notifies B, which then works and notifies C), the part of \
        C's wait during which B itself waited for A is not B's: it goes to A as \
        [[delay_cost_long_term]], and B is charged the rest.\
        """,
    diagnosis =
        """
        The notifiers at the top make others wait for their signal: shorten the work before \
        they notify, notify earlier (as soon as the state the waiters need is ready), or hand \
        work over in smaller pieces.\
        """)
public final class DelayCostCondition extends Property {
  @Override
  public void onWait(WaitSpan w) {
    if (w.notifier() < 0 || w.notifier() == w.thread()) {
      return;
    }
    long charged = Math.min(w.total(), w.notifyTime() - w.start());
    if (charged > 0) {
      int node = w.notifierNode();
      add(
          node,
          w.notifier(),
          DelayCost.shortTerm(
              this,
              DelayChains.CONDITION,
              w.thread(),
              w.notifier(),
              node,
              w.start(),
              w.start() + charged));
    }
  }
}
