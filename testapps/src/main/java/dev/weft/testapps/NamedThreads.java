package dev.weft.testapps;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread factories that name threads {@code prefix-0}, {@code prefix-1}, ... so that truth and
 * analysis results can be compared per thread.
 */
public final class NamedThreads {
  private NamedThreads() {}

  /** A factory for executors; threads are non-daemon, so pools must be shut down. */
  public static ThreadFactory factory(String prefix) {
    AtomicInteger next = new AtomicInteger();
    return task -> new Thread(task, prefix + "-" + next.getAndIncrement());
  }

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

  /** Starts a platform thread named {@code name}. */
  public static Thread start(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.start();
    return thread;
  }
}
