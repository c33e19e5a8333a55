package dev.weft.agentit.apps.sync;

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
    long ran = PoolWork.inBatches(pool, TASKS, BATCHES);
    pool.shutdown();
    pool.awaitTermination(10, TimeUnit.SECONDS);
    PoolWork.printRejection(pool);
    System.out.println("ran " + ran);
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

  private JBossThreadPoolApp() {}
}
