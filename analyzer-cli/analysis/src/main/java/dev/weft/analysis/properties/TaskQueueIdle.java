package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.WaitSpan;
import dev.weft.trace.WaitKind;

/**
 * Workers of pools of the program's or a library's own, and timers' threads, waiting for a task.
 */
@PropertyInfo(
    id = "task_queue_idle",
    parent = "idle_threads",
    readyForWork = true,
    name = "Task queue idle",
    info =
        "Time workers of pools Weft does not know, and timers' threads, waited for their next task",
    description =
        """
        WAIT_ENTER..WAIT_EXIT of kind next_task: a blocking queue's take or timed poll whose \
        element the calling code casts to a task at once (Runnable, Callable, or a class \
        implementing one), the run loop of a pool the JDK does not know (Jetty's \
        QueuedThreadPool, Netty's event executors, a worker pool written by hand); also a \
        java.util.Timer's thread while none of its tasks is scheduled (a timer is a pool of one \
        thread; its wait for a scheduled task to come due is [[timer_idle]]). The worker had \
        nothing to do until a task came, so this time weighs nothing on the critical path, like \
        a JDK pool worker's idle time. Whether the pool had work in flight meanwhile is not \
        known for such pools, so none of it goes to [[limited_parallelism]]. A take made \
        directly inside another recorded wait is that wait's.\
        """,
    diagnosis =
        """
        Not a problem in itself: the pool had more workers than tasks at these times. If \
        callers waited for this pool's work at the same time, the pool was slow elsewhere: look \
        at its workers' execution and their other waits. A pool whose workers are never idle \
        is saturated (tasks wait in its queue); workers idle for the whole run are threads the \
        pool could do without.\
        """)
public final class TaskQueueIdle extends Property {
  @Override
  public void onWait(WaitSpan wait) {
    if (wait.waitKind() == WaitKind.NEXT_TASK) {
      wait.claim(this, wait.total());
    }
  }
}
