package dev.weft.analysis.properties;

import dev.weft.analysis.BarrierArrival;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;

/** Barrier waits charged to each generation's last arrival. */
@PropertyInfo(
    id = "delay_cost_barrier",
    parent = "delay_cost",
    name = "Barrier delay cost",
    info = "Waiting for the last arrival, charged to the last arrival (short-term)",
    description =
        """
        For every arrival at a barrier generation other than the latest: max(0, latest arrival - \
        own arrival), bounded by its wait (the waiting_for_last part of [[barrier_wait]]), charged \
        to the thread whose arrival was the latest, at the call path it arrived from, less the \
        stretches in which that thread was itself waiting for another (its \
        [[delay_cost_long_term]] part). A \
        generation still open at a cut, or whose latest arrival is unknown, is not charged.\
        """,
    diagnosis =
        """
        The thread at the top arrives last most: give it less work before the barrier, or \
        split the work by cost. Costs spread evenly over threads mean the last arrival rotates.\
        """)
public final class DelayCostBarrier extends Property {
  @Override
  public void onBarrierWait(BarrierArrival a) {
    int cause = a.lastArriver();
    if (!a.departed() || cause < 0 || cause == a.thread()) {
      return;
    }
    long ns = Math.min(a.total(), Math.max(0, a.latestArrival() - a.start()));
    int node = a.lastArriverNode();
    add(
        node,
        cause,
        DelayCost.shortTerm(
            this, DelayChains.BARRIER, a.thread(), cause, node, a.start(), a.start() + ns));
  }
}
