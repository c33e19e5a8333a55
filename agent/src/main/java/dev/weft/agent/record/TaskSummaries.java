package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * With {@code tasks=aggregate}, fork-join tasks are summarised per thread instead of recorded: a
 * thread's busy interval (from the start of its outermost task, or from its last summary) becomes
 * one TASK_SUMMARY, written before the thread's next event and when the outermost task ends, in the
 * parallel region open on the thread's pool. See PARALLELISM.md.
 */
final class TaskSummaries {
  /** {@code tasks=aggregate}: fork-join tasks are summarised per thread instead of recorded. */
  final boolean aggregate;

  private final RegionRegistry regions;
  private final ObjectDefinitions objects;

  /** The parallel region last forked on each pool and not joined yet. */
  private final Map<Integer, Integer> forkedRegions = new ConcurrentHashMap<>();

  /** The region of summaries made outside any parallel region (0: not yet). */
  private volatile int unforkedRegion;

  TaskSummaries(boolean aggregate, RegionRegistry regions, ObjectDefinitions objects) {
    this.aggregate = aggregate;
    this.regions = regions;
    this.objects = objects;
  }

  /** A parallel region was forked on a pool: summaries of its workers belong to it. */
  void forked(int poolId, int region) {
    if (aggregate && poolId != 0) {
      forkedRegions.put(poolId, region);
    }
  }

  /** The parallel region forked on a pool was joined. */
  void joined(int poolId, int region) {
    if (aggregate) {
      forkedRegions.remove(poolId, region);
    }
  }

  /**
   * Writes TASK_SUMMARY for the thread's busy time since the interval started (the guard is held):
   * the tasks begun meanwhile and the time they ran, in the parallel region open on the thread's
   * pool. The next interval starts now.
   */
  void summarise(ThreadState s, StreamWriter w) {
    long now = System.nanoTime();
    long busy = now - s.aggStart;
    long count = s.aggCount;
    s.aggStart = now;
    s.aggCount = 0;
    if (busy <= 0 && count == 0) {
      return;
    }
    if (s.summaryPool < 0) {
      s.summaryPool =
          s.thread instanceof ForkJoinWorkerThread
              ? objects.poolId(((ForkJoinWorkerThread) s.thread).getPool())
              : 0;
    }
    Integer region = s.summaryPool == 0 ? null : forkedRegions.get(s.summaryPool);
    w.taskSummary(now, region == null ? unforkedRegion() : region, s.summaryPool, count, busy);
  }

  /** The region of summaries of tasks that run outside any recorded parallel region. */
  private int unforkedRegion() {
    int r = unforkedRegion;
    if (r == 0) {
      synchronized (forkedRegions) {
        r = unforkedRegion;
        if (r == 0) {
          r =
              regions.register(
                  ConstructKind.FORK_JOIN_TASK,
                  "fork-join tasks",
                  "java.util.concurrent.ForkJoinTask",
                  "exec",
                  "",
                  0,
                  0);
          unforkedRegion = r;
        }
      }
    }
    return r;
  }
}
