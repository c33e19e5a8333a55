package dev.weft.analysis.properties;

import dev.weft.analysis.IdleTime;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;

/** Team members idle while their pool has work in flight. */
@PropertyInfo(
    id = "limited_parallelism",
    parent = "idle_threads",
    name = "Limited parallelism",
    info = "Time pool workers sat idle while their pool had work in flight",
    description =
        """
        The part of [[idle_threads]] during which the worker's pool had work in flight (a region \
        between FORK and JOIN, or a submitted task not yet ended), minus the fork start-up time \
        that [[thread_management]] takes. The team of a parallel region is its master plus the \
        pool's workers alive at the time, so teams of different sizes are handled: a worker that \
        does not exist yet or has ended is not idle.\
        """,
    diagnosis =
        """
        The parallel work had fewer tasks (or shorter ones) than the pool had threads, or the \
        tasks were released one at a time. Split the work into more tasks, lower the pool's \
        parallelism, or look at [[pool_queue_wait]] to see whether tasks waited in a queue while \
        workers were idle.\
        """)
public final class LimitedParallelism extends Property {
  @Override
  public void onIdle(IdleTime idle) {
    idle.claim(this, idle.inFlight() - idle.afterFork());
  }
}
