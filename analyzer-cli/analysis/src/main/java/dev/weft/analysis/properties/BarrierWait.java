package dev.weft.analysis.properties;

import dev.weft.analysis.BarrierArrival;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/** Barrier, latch and phaser waits: waiting for the last arrival plus release latency. */
@PropertyInfo(
    id = "barrier_wait",
    parent = "time",
    name = "Barrier wait",
    info = "Time threads waited at barriers, latches and phasers",
    description =
        """
        For every arrival at a barrier generation (BARRIER_ENTER..EXIT with the same object and \
        generation: CyclicBarrier.await, Phaser.arriveAndAwaitAdvance/awaitAdvance, \
        CountDownLatch.await): own arrival to own departure. Of this, max(0, latest arrival of the \
        generation - own arrival) is waiting_for_last_ns (Scalasca's wait at barrier: the \
        imbalance before the barrier) and the rest is release_latency_ns (from the last arrival \
        until this thread ran again). barrier_wait is their sum. Time-outs and broken barriers \
        still count. A departure whose arrival precedes the trace is not counted (see the notes). \
        An arrival still waiting when the trace was cut counts up to the cut; unless the \
        generation is known to be complete (a thread left it, or all its parties arrived), all of \
        it is waiting_for_last_ns: the last arrival had not come. Attributed to the barrier's call \
        site.\
        """,
    diagnosis =
        """
        Mostly waiting_for_last: the threads do unequal work between barriers; see \
        [[work_imbalance]] for the region and split the work by its cost rather than its size. \
        When every thread waits about as much, the last arrival changes from round to round: \
        even out each round's work. Mostly release_latency: too many threads for the cores, or threads \
        descheduled; use fewer threads or fewer barriers.\
        """)
public final class BarrierWait extends Property {
  private long waitingForLast;
  private long releaseLatency;

  @Override
  public void onBarrierWait(BarrierArrival arrival) {
    long forLast =
        Math.min(arrival.total(), Math.max(0, arrival.latestArrival() - arrival.start()));
    waitingForLast += arrival.claim(this, forLast);
    releaseLatency += arrival.claim(this, arrival.total() - forLast);
  }

  @Override
  public Map<String, Long> causes() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("waiting_for_last_ns", waitingForLast);
    m.put("release_latency_ns", releaseLatency);
    return m;
  }
}
