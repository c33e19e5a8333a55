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
        Per instance of a parallel region (one FORK to its JOIN) and per generation of a \
        barrier, each with its own team, so a straggler that rotates between instances or a team \
        that grows between them is weighed where it happened. Parallel region instance: a \
        thread's busy time is its execution time inside the instance (the master between FORK \
        and JOIN, workers inside the instance's tasks; waits excluded; a nested region's time is \
        the nested region's); the team is every thread that worked in it plus the pool's workers \
        alive during it (an idle worker could have taken work). A master that only waited for the \
        join (ForkJoinPool.invoke) is not in the team: its wait is [[join_wait]]. Barrier \
        generation (threads plus a CyclicBarrier, Phaser or latch, e.g. a CG solver; barrier \
        objects of one call site form one region): a thread's busy time is its execution since \
        its previous departure from the call site (thread start for the first); the team is the \
        threads that arrived, a thread that arrived more than once (a count-down then an await, \
        a latch its tasks count down again and again) one member with its busy times added up. \
        Each member of an instance loses (max - busy), the busiest member's \
        busy time minus its own; at a barrier it loses at most what it waited from its last \
        arrival for the generation's last, so setup between two barrier objects (a new team's start) is not counted as \
        imbalance. The severity is the sum over instances, attributed to each member at the \
        region's call path; no thread's imbalance exceeds the instances' duration for it. The \
        regions table adds the busy times summed over instances and (max - mean) / mean of \
        those sums. This time overlaps [[barrier_wait]], [[join_wait]], [[idle_threads]] and \
        [[limited_parallelism]], so it is a separate root.\
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
   * @param lost time lost to imbalance summed over instances and members
   */
  public record Imbalance(int members, long max, double mean, double index, long lost) {}

  /**
   * The imbalance figures of a region: members, max, mean and index over the busy times summed over
   * instances; lost summed per instance.
   */
  public static Imbalance measure(RegionBusy region) {
    int members = 0;
    long max = 0;
    long sum = 0;
    long lost = 0;
    for (int i = 0; i < region.threads(); i++) {
      if (region.member(i)) {
        members++;
        max = Math.max(max, region.busy(i));
        sum += region.busy(i);
        lost += region.lost(i);
      }
    }
    if (members == 0) {
      return new Imbalance(0, 0, 0, 0, 0);
    }
    double mean = (double) sum / members;
    double index = mean > 0 ? (max - mean) / mean : 0;
    return new Imbalance(members, max, mean, index, lost);
  }

  @Override
  public void onRegion(RegionBusy region) {
    for (int i = 0; i < region.threads(); i++) {
      if (region.member(i) && region.lost(i) > 0) {
        add(region.node(), i, region.lost(i));
      }
    }
  }
}
