package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Tasks a scheduled executor held for later when the agent attached: each is written as created at
 * the attach (TASK_CREATE at a {@code delayed_task} region marked {@value #MARK}), on the stream of
 * one of the pool's workers, as a {@code ScheduledThreadPoolExecutor.schedule} would have been
 * recorded from the start. Without them, the pool's workers waiting in the JDK's {@code
 * DelayedWorkQueue.take} for a task due later (a cache's evictor, a server's timeouts) read as a
 * pool with nothing to do ({@code idle_threads}) instead of one waiting for its timer ({@code
 * timer_idle}), and the task, when it runs, as begun without a creation.
 *
 * <p>Read once per pool at the attach, before the bridge is installed (no event can be recorded
 * meanwhile, and the woven {@code delayedExecute} records what is scheduled after it): the queue's
 * {@code toArray()} takes its lock for a copy. Tasks due already are left to begin as before (their
 * queue wait began at an unknown time); at most {@value #MAX_TASKS} tasks are written in all.
 */
final class ScheduledAtAttach {
  /** How the region of such a task's creation is marked. */
  static final String MARK = " (scheduled before the attach)";

  /** Tasks written in all: a server may hold a timeout per connection. */
  static final int MAX_TASKS = 65_536;

  private final RegionRegistry regions;
  private final ObjectDefinitions objects;
  private final Set<Object> pools = Collections.newSetFromMap(new IdentityHashMap<>());
  private int region;
  private int written;

  ScheduledAtAttach(RegionRegistry regions, ObjectDefinitions objects) {
    this.regions = regions;
    this.objects = objects;
  }

  /**
   * The tasks due later in {@code executor}, a pool of the worker whose stream {@code w} is,
   * written as created at {@code time}, once per pool. Never throws: a pool that cannot be read is
   * left as before.
   */
  void add(Object executor, StreamWriter w, long time) {
    if (!(executor instanceof ScheduledThreadPoolExecutor) || w == null || !pools.add(executor)) {
      return;
    }
    try {
      Object[] queued = ((ScheduledThreadPoolExecutor) executor).getQueue().toArray();
      int pool = objects.poolId(executor);
      for (Object task : queued) {
        if (written < MAX_TASKS
            && task instanceof RunnableScheduledFuture
            && ((RunnableScheduledFuture<?>) task).getDelay(TimeUnit.NANOSECONDS) > 0) {
          w.taskCreate(time, region(), IdentityIds.of(task), pool);
          written++;
        }
      }
    } catch (RuntimeException e) {
      // A subclass's queue that refused: its tasks begin without a creation, as before.
    }
  }

  /** Tasks written. */
  int written() {
    return written;
  }

  private int region() {
    if (region == 0) {
      region =
          regions.register(
              ConstructKind.DELAYED_TASK,
              "ScheduledThreadPoolExecutor.schedule (delayed)" + MARK,
              "java.util.concurrent.ScheduledThreadPoolExecutor",
              "delayedExecute",
              "",
              0,
              0);
    }
    return region;
  }
}
