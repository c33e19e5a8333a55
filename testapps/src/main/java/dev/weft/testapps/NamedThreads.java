package dev.weft.testapps;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fork-join pools whose workers are named {@code prefix-0}, {@code prefix-1}, ... so that truth and
 * analysis results can be compared per thread. (Executors use {@link TrackedThreadFactory}.)
 */
public final class NamedThreads {
  private NamedThreads() {}

  /** A factory for a {@link ForkJoinPool}: workers named {@code prefix-<i>}. */
  public static ForkJoinPool.ForkJoinWorkerThreadFactory forkJoinFactory(String prefix) {
    AtomicInteger next = new AtomicInteger();
    return pool -> {
      ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
      thread.setName(prefix + "-" + next.getAndIncrement());
      return thread;
    };
  }

  /** A fork-join pool of {@code parallelism} workers named {@code prefix-<i>}. */
  public static ForkJoinPool forkJoinPool(String prefix, int parallelism) {
    return new ForkJoinPool(parallelism, forkJoinFactory(prefix), null, false);
  }
}
