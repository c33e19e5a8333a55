package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.PoolTimeline;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.TaskTimes;
import dev.weft.testapps.TrackedThreadFactory;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Main submits {@code --tasks} tasks of {@code --task-ms} at once to a fixed pool of {@code
 * --threads} workers ({@code exec-<i>}, started beforehand), then waits for each in submission
 * order. Task {@code k} sits in the queue about {@code floor(k/N)·s}.
 */
public final class ExecutorQueue implements Scenario {
  /** The pool's name and its workers' name prefix. */
  public static final String POOL = "exec";

  @Override
  public String name() {
    return "executor-queue";
  }

  @Override
  public String summary() {
    return "more tasks than threads in a fixed pool: queue wait grows linearly";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("threads", 2, 1, 64, "N: pool threads"),
        OptionSpec.integer("tasks", 10, 1, 100_000, "M: tasks submitted at once"),
        OptionSpec.integer("task-ms", 10, 0, 60_000, "s: work per task"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int threads = context.options().intValue("threads");
    int tasks = context.options().intValue("tasks");
    long taskMs = context.options().longValue("task-ms");
    Truth truth = context.truth();
    Work work = context.work();

    // Tasks are made before the pool starts, so that lambda linkage never counts as queue wait.
    List<TaskTimes> times = new ArrayList<>(tasks);
    List<Callable<Long>> bodies = new ArrayList<>(tasks);
    for (int k = 0; k < tasks; k++) {
      TaskTimes t = new TaskTimes("task-" + k);
      long seed = k;
      times.add(t);
      bodies.add(
          () -> {
            long t0 = t.began();
            long checksum = work.run(taskMs, seed);
            truth.add(TruthKinds.BUSY_NS, t.ended() - t0);
            return checksum;
          });
    }
    TrackedThreadFactory threadFactory = new TrackedThreadFactory(POOL, threads);
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), threadFactory);
    pool.prestartAllCoreThreads();
    List<Future<Long>> futures = new ArrayList<>(tasks);
    for (int k = 0; k < tasks; k++) {
      times.get(k).submitted();
      futures.add(pool.submit(bodies.get(k)));
    }
    long checksum = 0;
    for (Future<Long> f : futures) {
      long t0 = System.nanoTime();
      checksum += f.get();
      truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
    }
    pool.shutdown();
    threadFactory.joinAll(truth);
    PoolTimeline.report(truth, POOL, threadFactory, List.of(times));
    return Work.jsonSafe(checksum);
  }
}
