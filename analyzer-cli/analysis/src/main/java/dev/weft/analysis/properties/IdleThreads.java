package dev.weft.analysis.properties;

import dev.weft.analysis.IdleTime;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import java.util.List;

/** Pool workers idle: exclusive part while their pool has no work, children while it has some. */
@PropertyInfo(
    id = "idle_threads",
    parent = "time",
    name = "Idle threads",
    info = "Time pool workers sat idle (exclusive: while their pool had no work in flight)",
    description =
        """
        A pool worker (a thread whose definition names a pool) is idle while it runs no task \
        (outside every TASK_BEGIN..TASK_END) and has no recorded activity of its own (no region, \
        wait, lock or barrier open). Its pool has work in flight while any parallel region forked \
        on the pool is between FORK and JOIN, or any task submitted to the pool (TASK_CREATE \
        naming it) has not ended (a task scheduled with a delay: from its begin on). Idle time while nothing is in flight (and no task scheduled \
        with a delay waits to come due: that is [[timer_idle]]) is this property's own \
        (exclusive) value: the workers were reserved but the program ran sequentially (OpenMP's \
        idle threads). Idle time while work was in flight goes to the child \
        [[limited_parallelism]], except the part between a region's FORK and the worker's first \
        task in it, which is [[thread_management]], as are a worker's start-up before its first \
        task and its way out after its last when the JVM says it never waited. Short tasks recorded only as TASK_SUMMARY \
        (aggregated mode) are busy time: their total duration is taken out of the worker's idle \
        time since the previous summary, in-flight idle first. A carrier of virtual threads (a \
        worker of their scheduler) is not idle while it runs one, from its VTHREAD_MOUNT to the \
        VTHREAD_UNMOUNT: that time is [[execution]] at (running virtual threads); it is idle when \
        no virtual thread was ready to run. Attributed to the worker at the root call path.\
        """,
    diagnosis =
        """
        A high exclusive value means the program is sequential for long stretches while a pool \
        keeps threads: the master-only pattern, where the master computes or does I/O while the \
        team sleeps. Overlap that sequential work with parallel work, or shrink the pool. Compare \
        with [[limited_parallelism]], which is idleness during parallel work. Idle carriers of \
        virtual threads mean no virtual thread was ready to run: look at the virtual threads' own \
        waits; more carriers would not help.\
        """)
public final class IdleThreads extends Property {
  @Override
  public void onIdle(IdleTime idle) {
    idle.claim(
        this,
        idle.total() - idle.inFlight() - idle.timer() - idle.workerStart() - idle.workerExit());
    List<Property> children = children();
    for (int i = 0; i < children.size(); i++) {
      children.get(i).onIdle(idle);
    }
  }
}
