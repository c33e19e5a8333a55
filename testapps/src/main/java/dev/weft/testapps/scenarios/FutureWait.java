package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.TrackedThreadFactory;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@code --waiters} threads ({@code waiter-<j>}) each, {@code --rounds} times, submit a task of
 * {@code (j+1)·--task-ms} to a pool with one thread per waiter ({@code exec-<i>}), work {@code
 * --own-ms} themselves, then wait for the task with {@code Future.get()} ({@code --api future}) or
 * {@code CompletableFuture.join()} ({@code --api completable}, the task started with {@code
 * supplyAsync(supplier, pool)}). Waiter {@code j} waits about {@code max(0, (j+1)·d − o)} per
 * round.
 */
public final class FutureWait implements Scenario {
  /** The pool's name and its workers' name prefix. */
  public static final String POOL = "exec";

  @Override
  public String name() {
    return "future-wait";
  }

  @Override
  public String summary() {
    return "threads waiting in Future.get / CompletableFuture.join for tasks of known length";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("waiters", 3, 1, 64, "waiting threads (and pool threads)"),
        OptionSpec.integer("task-ms", 10, 0, 60_000, "d: waiter j's task works (j+1)*d"),
        OptionSpec.integer("own-ms", 10, 0, 60_000, "o: waiter's own work before waiting"),
        OptionSpec.integer("rounds", 3, 1, 100_000, "tasks per waiter"),
        OptionSpec.choice(
            "api", "future", List.of("future", "completable"), "how the waiter waits"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int waiters = context.options().intValue("waiters");
    long taskMs = context.options().longValue("task-ms");
    long ownMs = context.options().longValue("own-ms");
    int rounds = context.options().intValue("rounds");
    boolean completable = context.options().choice("api").equals("completable");
    Truth truth = context.truth();
    Work work = context.work();

    TrackedThreadFactory threads = new TrackedThreadFactory(POOL, waiters);
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            waiters, waiters, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), threads);
    pool.prestartAllCoreThreads();
    long[] checksums = new long[waiters];
    Team.run(
        Team.names("waiter", waiters),
        j -> {
          for (int r = 0; r < rounds; r++) {
            long seed = (long) r * waiters + j;
            long ms = (j + 1) * taskMs;
            if (completable) {
              CompletableFuture<Long> task =
                  CompletableFuture.supplyAsync(() -> task(work, ms, seed, truth), pool);
              checksums[j] += work.runBusy(ownMs, ~seed, truth);
              long t0 = System.nanoTime();
              checksums[j] += task.join();
              truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
            } else {
              Future<Long> task = pool.submit(() -> task(work, ms, seed, truth));
              checksums[j] += work.runBusy(ownMs, ~seed, truth);
              long t0 = System.nanoTime();
              checksums[j] += task.get();
              truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
            }
          }
        },
        truth);
    pool.shutdown();
    threads.joinAll(truth);
    long checksum = 0;
    for (long c : checksums) {
      checksum += c;
    }
    return Work.jsonSafe(checksum);
  }

  private static long task(Work work, long ms, long seed, Truth truth) {
    try {
      return work.runBusy(ms, seed, truth);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
