package dev.weft.analysis.properties;

import dev.weft.analysis.LatencyTable;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.TaskStart;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** Task latency: submission to start. */
@PropertyInfo(
    id = "pool_queue_wait",
    parent = "",
    name = "Pool queue wait",
    info =
        "Time tasks waited in a pool's queue (submission to start); a task latency, not thread time",
    unit = "task_ns",
    description =
        """
        For every task: its TASK_CREATE (on the submitting thread) to its first TASK_BEGIN (on \
        whichever thread ran it). A task still queued when the run ends (or is cut) counts up to \
        that end. A task scheduled with a delay (created at a delayed_task region, e.g. \
        ScheduledThreadPoolExecutor.schedule) waited for its due time on purpose and is not \
        counted, nor is it work in flight for its pool before it begins (a note counts such \
        tasks). Attributed to the creation call path (the submit call site under the submitter's \
        path) and the submitting thread; the causes object gives the total per pool name. This is \
        task time, not thread time: several tasks can wait at once, so the total can exceed the \
        run's CPU allocation time many times over. It is a separate root, has no percentage of \
        time (0 in JSON), and is never ranked against the waits of threads; reports show the \
        latency of a task instead: count, mean, 95th percentile (within 6.25 %) and maximum, for \
        all tasks, per pool and per pool and creation call path (the latency object).\
        """,
    diagnosis =
        """
        Tasks wait for a free worker. If [[limited_parallelism]] or [[idle_threads]] is high at \
        the same time, tasks are handed out badly (e.g. one queue, blocked workers); otherwise \
        the pool is simply too small for the load, or tasks are submitted in bursts. On an \
        event loop (a pool of one thread that also handles I/O, such as Netty's) the wait is the \
        loop's lag: other tasks or the channels' handlers kept the loop busy; move long work off \
        the loop rather than adding loops.\
        """)
public final class PoolQueueWait extends Property {
  private long[] byPool = new long[4];
  private String[] names = new String[4];
  private long noPool;
  private final LatencyTable latencies = new LatencyTable();

  @Override
  public void onTaskStart(TaskStart start) {
    long latency = start.latency();
    add(start.node(), start.creator(), latency);
    latencies.add(start.poolName(), start.node(), latency);
    int p = start.pool();
    if (p < 0) {
      noPool += latency;
      return;
    }
    if (p >= byPool.length) {
      byPool = Arrays.copyOf(byPool, Math.max(p + 1, byPool.length * 2));
      names = Arrays.copyOf(names, byPool.length);
    }
    byPool[p] += latency;
    names[p] = start.poolName();
  }

  @Override
  public LatencyTable latency() {
    return latencies;
  }

  @Override
  public Map<String, Long> causes() {
    Map<String, Long> m = new TreeMap<>();
    for (int p = 0; p < byPool.length; p++) {
      if (names[p] != null) {
        m.merge(names[p], byPool[p], Long::sum);
      }
    }
    if (noPool > 0) {
      m.put("(no pool)", noPool);
    }
    return m;
  }
}
