package dev.weft.testapps;

import java.util.List;

/**
 * Idle-thread and limited-parallelism truth of one pool whose work comes in rounds that do not
 * overlap: each round's work is in flight from its first submission to its last task's end.
 *
 * <ul>
 *   <li>{@link TruthKinds#IDLE_THREADS_NS} per worker: the part of the worker's lifetime (from when
 *       it began running to when it ended) in which no round was in flight;
 *   <li>{@link TruthKinds#LIMITED_PARALLELISM_NS} per worker: for every round, its in-flight time
 *       within the worker's lifetime minus the time the worker spent running the round's tasks;
 *   <li>{@link TruthKinds#POOL_QUEUE_WAIT_NS} and {@link TruthKinds#POOL_TASKS} for the pool, and
 *       {@link TruthKinds#TASK_QUEUE_WAIT_NS} per task.
 * </ul>
 */
public final class PoolTimeline {
  private PoolTimeline() {}

  /**
   * Adds the pool's truth. Call after the pool's threads have been joined.
   *
   * @param pool the pool's name (key of the per-pool kinds)
   * @param threads the pool's thread factory, which knows each worker's lifetime
   * @param rounds the tasks of each round, in time order
   */
  public static void report(
      Truth truth, String pool, TrackedThreadFactory threads, List<List<TaskTimes>> rounds) {
    List<String> workers = threads.names();
    for (int w = 0; w < workers.size(); w++) {
      String worker = workers.get(w);
      long idle = 0;
      long previousEnd = threads.began(w);
      for (List<TaskTimes> round : rounds) {
        long firstSubmit = round.stream().mapToLong(TaskTimes::submit).min().orElseThrow();
        long lastEnd = round.stream().mapToLong(TaskTimes::end).max().orElseThrow();
        idle += Math.max(0, firstSubmit - previousEnd);
        previousEnd = lastEnd;
        long running =
            round.stream()
                .filter(t -> worker.equals(t.thread()))
                .mapToLong(TaskTimes::runTime)
                .sum();
        // Only while the worker was alive: a worker that began during the round (a pool starting
        // its threads on demand) could not run its tasks before.
        long from = Math.max(firstSubmit, threads.began(w));
        long to = Math.min(lastEnd, threads.ended(w));
        truth.add(TruthKinds.LIMITED_PARALLELISM_NS, worker, Math.max(0, to - from) - running);
      }
      idle += Math.max(0, threads.ended(w) - previousEnd);
      truth.add(TruthKinds.IDLE_THREADS_NS, worker, idle);
    }
    for (List<TaskTimes> round : rounds) {
      for (TaskTimes task : round) {
        truth.add(TruthKinds.POOL_QUEUE_WAIT_NS, pool, task.queueWait());
        truth.add(TruthKinds.POOL_TASKS, pool, 1);
        truth.add(TruthKinds.TASK_QUEUE_WAIT_NS, task.name(), task.queueWait());
      }
    }
  }
}
