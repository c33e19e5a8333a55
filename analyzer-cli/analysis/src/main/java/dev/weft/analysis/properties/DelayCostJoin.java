package dev.weft.analysis.properties;

import dev.weft.analysis.JoinWaitSegment;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;

/** Join waits charged to the thread that ran the awaited task. */
@PropertyInfo(
    id = "delay_cost_join",
    parent = "delay_cost",
    name = "Join delay cost",
    info = "Waiting in a join, charged to the thread that ran the awaited task (short-term)",
    description =
        """
        For every join wait (ForkJoinTask.join, Future.get, Thread.join, ForkJoinPool.invoke …) \
        whose awaited task or thread ended during the wait on another thread, or was still \
        running on another thread when the recording ended (a join open at the end, as when a \
        recording is attached for a while, is charged up to the end): the [[join_wait]] \
        time of that wait up to the ending (min of the join_wait and ending - wait start), charged \
        to the thread that ran the awaited task, at the task's call path (for a joined thread, \
        at its root). When the join's target is not known, the latest task or thread ending \
        during the wait is taken. The rest of the wait (ending → the joiner runs again) is \
        hand-over latency, nobody's work, and is not charged; a join whose target ended before it \
        or on the joiner itself is not charged. Where the task's runner was itself waiting for \
        another thread (a task it forked and joined, a lock) during the charged stretch (taken \
        as the join's wait just before the ending), that part goes to [[delay_cost_long_term]].\
        """,
    diagnosis =
        """
        The tasks at the top are what joiners wait for: split them further, fork them earlier, \
        or give the joiner other work while they run.\
        """)
public final class DelayCostJoin extends Property {
  @Override
  public void onJoinWait(JoinWaitSegment j) {
    if (j.causer() < 0) {
      return;
    }
    long management = j.master() ? j.afterLastTask() : 0;
    long charged = Math.min(j.total() - management, j.causeTime() - j.start());
    if (charged > 0) {
      // Inside a join the thread may have run tasks: the wait is taken as the stretch just
      // before the awaited ending.
      int node = j.causerNode();
      add(
          node,
          j.causer(),
          DelayCost.shortTerm(
              this,
              DelayChains.JOIN,
              j.thread(),
              j.causer(),
              node,
              j.causeTime() - charged,
              j.causeTime()));
    }
  }
}
