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
 * Hybrid "master-only" style: in each of {@code --iterations} steps, main communicates ({@code
 * --comm-ms}, a sleep, as a thread blocked in a network call) while the pool of {@code --workers}
 * waits, then every worker computes {@code --work-ms}. With {@code --mode overlap} one worker
 * communicates while the others compute, and nothing runs serially.
 */
public final class IdleThreads implements Scenario {
  /** Truth kind: time spent communicating, per thread. */
  public static final String COMM_NS = "comm_ns";

  private static final String POOL = "worker";

  @Override
  public String name() {
    return "idle-threads";
  }

  @Override
  public String summary() {
    return "serial communication on main while a pool idles (or overlapped by one worker)";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("workers", 4, 1, 64, "pool threads"),
        OptionSpec.integer("comm-ms", 10, 0, 60_000, "communication per iteration"),
        OptionSpec.integer("work-ms", 10, 0, 60_000, "compute per task"),
        OptionSpec.integer("iterations", 5, 1, 100_000, "iterations"),
        OptionSpec.choice(
            "mode",
            "master-only",
            List.of("master-only", "overlap"),
            "who communicates: main between parallel phases, or one worker during them"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int workers = context.options().intValue("workers");
    long commMs = context.options().longValue("comm-ms");
    long workMs = context.options().longValue("work-ms");
    int iterations = context.options().intValue("iterations");
    boolean overlap = context.options().choice("mode").equals("overlap");
    Truth truth = context.truth();
    Work work = context.work();

    // Tasks are made before the pool starts, so that no lambda linkage or class loading falls
    // between a worker's start and its first task (it would count as idle time).
    List<List<TaskTimes>> rounds = new ArrayList<>();
    List<List<Callable<Long>>> bodies = new ArrayList<>();
    for (int r = 0; r < iterations; r++) {
      List<TaskTimes> round = new ArrayList<>();
      List<Callable<Long>> roundBodies = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        TaskTimes times = new TaskTimes("task-" + (r * workers + w));
        long seed = (long) r * workers + w;
        boolean comm = overlap && w == 0;
        round.add(times);
        roundBodies.add(
            () -> {
              if (comm) {
                times.began();
                long c = communicate(commMs, seed, truth);
                times.ended();
                return c;
              }
              long t0 = times.began();
              long c = work.run(workMs, seed);
              truth.add(TruthKinds.BUSY_NS, times.ended() - t0);
              return c;
            });
      }
      rounds.add(round);
      bodies.add(roundBodies);
    }

    TrackedThreadFactory threads = new TrackedThreadFactory(POOL, workers);
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            workers, workers, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), threads);
    pool.prestartAllCoreThreads();
    long checksum = 0;
    for (int r = 0; r < iterations; r++) {
      if (!overlap) {
        checksum += communicate(commMs, r, truth);
      }
      List<Future<Long>> futures = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        rounds.get(r).get(w).submitted();
        futures.add(pool.submit(bodies.get(r).get(w)));
      }
      for (Future<Long> f : futures) {
        long t0 = System.nanoTime();
        checksum += f.get();
        truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
      }
    }
    pool.shutdown();
    threads.joinAll(truth);
    PoolTimeline.report(truth, POOL, threads, rounds);
    return Work.jsonSafe(checksum);
  }

  /** Communication: a sleep, as a thread blocked in a network call (counted as busy). */
  private static long communicate(long ms, long seed, Truth truth) throws InterruptedException {
    long t0 = System.nanoTime();
    Thread.sleep(ms);
    long elapsed = System.nanoTime() - t0;
    truth.add(COMM_NS, elapsed);
    truth.add(TruthKinds.BUSY_NS, elapsed);
    return Work.mix(~seed);
  }
}
