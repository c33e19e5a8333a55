package dev.weft.report;

import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * A generated fork-join trace of any size: a main thread forks rounds of tasks onto a fork-join
 * pool and an executor; each task runs a traced method and takes a lock (sometimes waiting for it);
 * main waits for the round to finish. Every round has {@code 4 + workers} events on main and 7 per
 * worker, and {@code 2 + 4 × workers} intervals (a worker's task, method, lock request and lock
 * hold).
 */
final class SyntheticTrace {
  private SyntheticTrace() {}

  /** Events of one round with {@code workers} workers. */
  static int eventsPerRound(int workers) {
    return 4 + workers + 7 * workers;
  }

  /** Intervals of one round. */
  static int intervalsPerRound(int workers) {
    return 2 + 4 * workers;
  }

  /**
   * Writes a trace of at least {@code events} events.
   *
   * @param forkJoinWorkers workers of the fork-join pool (pool 1)
   * @param executorWorkers workers of the executor (pool 2)
   * @return the number of events written
   */
  static long write(Path dir, long events, int forkJoinWorkers, int executorWorkers, long seed)
      throws IOException {
    int workers = forkJoinWorkers + executorWorkers;
    long rounds = (events + eventsPerRound(workers) - 1) / eventsPerRound(workers);
    SplittableRandom random = new SplittableRandom(seed);
    long t = 1_000_000;
    long written = 0;
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 0, 1));
      Fixtures.region(w, Fixtures.R_MAIN, ConstructKind.USER_REGION, "main", "Bench.java", 10);
      Fixtures.region(
          w, Fixtures.R_PAR, ConstructKind.FORK_JOIN_POOL, "ForkJoinPool.invoke", "Bench.java", 20);
      Fixtures.region(
          w, Fixtures.R_JOIN, ConstructKind.FORK_JOIN_TASK, "ForkJoinTask.join", "Bench.java", 21);
      Fixtures.region(
          w, Fixtures.R_LOCK, ConstructKind.REENTRANT_LOCK, "ReentrantLock.lock", "Bench.java", 33);
      Fixtures.region(
          w, Fixtures.R_WORK, ConstructKind.TRACED_METHOD, "Bench.work", "Bench.java", 40);
      w.definePool(new PoolDef(1, ConstructKind.FORK_JOIN_POOL, "ForkJoinPool-1", forkJoinWorkers));
      w.definePool(new PoolDef(2, ConstructKind.EXECUTOR, "pool-2", executorWorkers));
      w.defineObject(
          new ObjectDef(
              77, ConstructKind.REENTRANT_LOCK, "java.util.concurrent.locks.ReentrantLock", 0));
      StreamWriter main = w.openStream(1, "main", 0, 0, t);
      StreamWriter[] ws = new StreamWriter[workers];
      for (int i = 0; i < workers; i++) {
        boolean fj = i < forkJoinWorkers;
        ws[i] =
            w.openStream(
                10 + i,
                fj
                    ? "ForkJoinPool-1-worker-" + (i + 1)
                    : "pool-2-thread-" + (i - forkJoinWorkers + 1),
                0,
                fj ? 1 : 2,
                t);
      }
      long task = 1;
      long lockFree = 0;
      for (long r = 0; r < rounds; r++) {
        main.fork(t, Fixtures.R_PAR, 1, workers);
        long roundEnd = t;
        for (int i = 0; i < workers; i++) {
          long created = t + 1 + i;
          main.taskCreate(created, Fixtures.R_PAR, task + i, i < forkJoinWorkers ? 1 : 2);
          long begin = created + 20 + random.nextInt(200);
          StreamWriter s = ws[i];
          s.taskBegin(begin, task + i);
          s.enter(begin + 5, Fixtures.R_WORK);
          long request = begin + 10 + random.nextInt(2000) + (i == 0 ? 1500 : 0);
          s.lockRequest(request, Fixtures.R_LOCK, 77);
          // Requests are served in worker order within a round: a later one may wait for the lock.
          long acquired = Math.max(request + 30, lockFree);
          s.lockAcquired(acquired, 77, 0);
          lockFree = acquired + 200;
          s.lockReleased(lockFree, 77);
          s.exit(lockFree + 5, Fixtures.R_WORK);
          s.taskEnd(lockFree + 10, task + i);
          roundEnd = Math.max(roundEnd, lockFree + 10);
        }
        main.joinWaitEnter(t + workers + 2, Fixtures.R_JOIN, task);
        main.joinWaitExit(roundEnd + 20, Fixtures.R_JOIN);
        main.join(roundEnd + 25, Fixtures.R_PAR, 1);
        task += workers;
        t = roundEnd + 100 + random.nextInt(400);
        written += eventsPerRound(workers);
      }
      w.close(t);
    }
    return written;
  }
}
