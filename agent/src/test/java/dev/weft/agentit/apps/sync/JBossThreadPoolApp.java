package dev.weft.agentit.apps.sync;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.threads.EnhancedQueueExecutor;

/**
 * jboss-threads' {@code EnhancedQueueExecutor} (XNIO's and so Undertow's worker pool) with at most
 * {@link #MAX_THREADS} "eqe-worker-" threads: the main thread submits {@link #TASKS} tasks of about
 * a millisecond each in {@link #BATCHES} batches, pausing between them so that the workers park for
 * their next task, then one task after its shutdown, which the pool rejects.
 */
public final class JBossThreadPoolApp {
  public static final int MAX_THREADS = 3;
  public static final int TASKS = 40;
  public static final int BATCHES = 4;

  public static void main(String[] args) throws Exception {
    EnhancedQueueExecutor pool = pool(MAX_THREADS);
    CountDownLatch done = new CountDownLatch(TASKS);
    for (int b = 0; b < BATCHES; b++) {
      for (int i = 0; i < TASKS / BATCHES; i++) {
        pool.execute(
            () -> {
              compute(1_000_000);
              done.countDown();
            });
      }
      Thread.sleep(30);
    }
    done.await();
    pool.shutdown();
    pool.awaitTermination(10, TimeUnit.SECONDS);
    try {
      pool.execute(() -> {});
      System.out.println("not rejected");
    } catch (RejectedExecutionException expected) {
      System.out.println("rejected");
    }
    System.out.println("ran " + (TASKS - done.getCount()));
  }

  /** A pool of at most {@code threads} "eqe-worker-" threads. */
  static EnhancedQueueExecutor pool(int threads) {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory named = r -> new Thread(r, "eqe-worker-" + n.incrementAndGet());
    return new EnhancedQueueExecutor.Builder()
        .setCorePoolSize(threads)
        .setMaximumPoolSize(threads)
        .setThreadFactory(named)
        .build();
  }

  static long compute(long ns) {
    long x = 0;
    for (long end = System.nanoTime() + ns; System.nanoTime() < end; ) {
      x = x * 31 + 7;
    }
    return x;
  }

  private JBossThreadPoolApp() {}
}
