package dev.weft.analysis.properties;

import dev.weft.analysis.JoinWaitSegment;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;

/** Waiting for forked or submitted work, helping excluded. */
@PropertyInfo(
    id = "join_wait",
    parent = "time",
    name = "Join wait",
    info = "Time threads blocked waiting for forked or submitted work (helping excluded)",
    description =
        """
        JOIN_WAIT_ENTER..EXIT (ForkJoinTask.join/get, Future.get, Thread.join, awaitTermination, a \
        parallel stream's terminal operation waiting), excluding the time the waiting thread spent \
        running tasks (TASK_BEGIN..END nested in the join) or helping (HELP_ENTER..EXIT): that \
        time is the tasks' own. For the master of a parallel region, the part after the region's \
        last task ended goes to [[thread_management]]. Attributed to the join's call site under \
        the thread's current call path.\
        """,
    diagnosis =
        """
        The waiting thread had nothing to do while others worked: the forked work is longer than \
        the work the waiting thread does itself, or is unevenly split ([[work_imbalance]]). Give \
        the waiting thread a share of the work, or split the work into more even parts.\
        """)
public final class JoinWait extends Property {
  @Override
  public void onJoinWait(JoinWaitSegment segment) {
    long management = segment.master() ? segment.afterLastTask() : 0;
    segment.claim(this, segment.total() - management);
  }
}
