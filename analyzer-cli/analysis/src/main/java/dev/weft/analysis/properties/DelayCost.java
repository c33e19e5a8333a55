package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.TimeText;
import java.util.List;

/** Waits charged to the thread and call path whose excess work caused them. */
@PropertyInfo(
    id = "delay_cost",
    parent = "",
    name = "Delay cost",
    info = "Wait time charged to the thread and call path whose excess work caused it",
    description =
        """
        Delay costs (Böhme et al., as in Scalasca, for threads): every wait that another thread \
        caused is charged to the thread whose work caused it, instead of to the waiting thread. \
        Short-term, a wait goes to the thread that released the waiters, at the call path where \
        it was then. A barrier's waiting_for_last time of each \
        arrival goes to the generation's last arrival, at the call path it arrived from (its \
        excess work); a lock's waiting_for_holder time is split at the releases during the wait, \
        each piece going to the holder whose release ended it, at the call path inside its \
        critical section; a condition wait's time up to the notification that ended it goes to \
        the notifier, at the call path of its notify; a join wait's time up to the end of the \
        awaited task goes to the thread that ran it, at the task's call path. Long-term, the \
        stretches of such a wait in which the releasing thread was itself waiting for another \
        are taken out of its short-term cost and charged down the chain to the thread whose own \
        work began it ([[delay_cost_long_term]]). A wait's short-term and long-term parts are \
        disjoint and sum to the part of it that is charged, so this property equals the \
        waiting_for_last cause of [[barrier_wait]] plus the waiting_for_holder cause of \
        [[lock_contention]] plus the notified condition waits minus their wake-up latencies plus \
        the join waits minus their hand-over latencies, except for waits whose cause is not \
        recorded (a holder whose release is missing, a generation whose last arrival was not \
        traced). Hand-over latencies are nobody's excess work and are not charged. This root \
        overlaps the waits it explains, so it is a separate root.\
        """,
    diagnosis =
        """
        The threads and call paths at the top are where shortening the work shortens other \
        threads' waits. When the costs rotate over threads (each thread costs about as much), the \
        work of every round is uneven, not one thread's share: even out each round. A thread \
        high in [[delay_cost_long_term]] delays others through the threads that wait for it.\
        """)
public final class DelayCost extends Property {
  private DelayChains chains;

  /** The chains of waits its children charge through, shared by them. */
  DelayChains chains() {
    if (chains == null) {
      DelayChains.LongTerm longTerm = (node, thread, ns, kind) -> {};
      for (Property child : children()) {
        if (child instanceof DelayCostLongTerm l) {
          longTerm = l;
        }
      }
      chains = new DelayChains(longTerm);
    }
    return chains;
  }

  /**
   * The short-term part of a wait of {@code waiter} from {@code from} to {@code to} that {@code p},
   * a child, charges to {@code causer}; the long-term parts go to {@code delay_cost_long_term}.
   */
  static long shortTerm(
      Property p, int kind, int waiter, int causer, int causerNode, long from, long to) {
    return ((DelayCost) p.parent()).chains().charge(kind, waiter, causer, causerNode, from, to);
  }

  @Override
  public List<String> notes() {
    if (chains == null || chains.unresolvedWaits() == 0) {
      return List.of();
    }
    return List.of(
        chains.unresolvedWaits()
            + " waits were charged to a thread for a time further back than the "
            + DelayChains.KEPT
            + " latest explained waits it keeps ("
            + TimeText.duration(chains.unresolvedNs())
            + " in all): that part counts as its own short-term delay cost, although it may have"
            + " been waiting for another thread then");
  }
}
