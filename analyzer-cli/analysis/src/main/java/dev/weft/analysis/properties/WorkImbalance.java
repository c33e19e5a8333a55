package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.RegionBusy;

/** Time lost to uneven work in parallel regions and barrier-synchronised code. */
@PropertyInfo(
    id = "work_imbalance",
    parent = "",
    name = "Work imbalance",
    info = "Time lost because work was unevenly spread over a region's team",
    description =
        """
        Per parallel region (all instances of one FORK call site): a team member's busy time is \
        its execution time inside the region's instances (the master between FORK and JOIN, \
        workers inside the region's tasks; waits excluded; a nested region's time is the nested \
        region's). The team is the masters, the pool's workers alive during an instance, and any \
        other thread that ran one of its tasks. Per barrier object without a pool (threads plus a \
        CyclicBarrier, e.g. a CG solver): a thread's busy time is the sum over generations of own \
        arrival - own previous departure from that barrier (thread start for the first) minus the \
        waits in between; the team is the threads that arrived. For each region, imbalance = \
        (max - mean) / mean of busy times over the team, and the time lost is sum over members of \
        (max - busy): what the team would have saved had every member worked as long as the \
        busiest one. This severity is attributed to each member (max - its busy) at the region's \
        call path. Busy times are summed over instances before the maximum is taken. This time \
        overlaps [[barrier_wait]], [[join_wait]] and [[limited_parallelism]], so it is a separate \
        root.\
        """,
    diagnosis =
        """
        Threads of a team get unequal work. For data-parallel loops, distribute by cost rather \
        than by count of items, use smaller chunks, or let idle threads steal. The regions table lists the most imbalanced regions with every thread's busy time.\
        """)
public final class WorkImbalance extends Property {

  /**
   * The imbalance of one region's team.
   *
   * @param members team size
   * @param max busiest member's busy ns
   * @param mean mean busy ns over the team
   * @param index (max - mean) / mean, 0 when the mean is 0
   * @param lost sum over members of (max - busy)
   */
  public record Imbalance(int members, long max, double mean, double index, long lost) {}

  /** The imbalance figures of a region. */
  public static Imbalance measure(RegionBusy region) {
    int members = 0;
    long max = 0;
    long sum = 0;
    for (int i = 0; i < region.threads(); i++) {
      if (region.member(i)) {
        members++;
        max = Math.max(max, region.busy(i));
        sum += region.busy(i);
      }
    }
    if (members == 0) {
      return new Imbalance(0, 0, 0, 0, 0);
    }
    double mean = (double) sum / members;
    double index = mean > 0 ? (max - mean) / mean : 0;
    return new Imbalance(members, max, mean, index, max * members - sum);
  }

  @Override
  public void onRegion(RegionBusy region) {
    Imbalance m = measure(region);
    if (m.members() < 2) {
      return;
    }
    for (int i = 0; i < region.threads(); i++) {
      if (region.member(i)) {
        add(region.node(), i, m.max() - region.busy(i));
      }
    }
  }
}
