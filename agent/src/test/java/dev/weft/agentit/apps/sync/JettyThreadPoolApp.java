package dev.weft.agentit.apps.sync;

import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty's {@code QueuedThreadPool} (every Jetty server's pool) with {@link #MAX_THREADS} "qtp-"
 * threads: the main thread executes {@link #TASKS} jobs of about a millisecond each in {@link
 * #BATCHES} batches, pausing between them so that the workers poll for their next job. Then the
 * pool is stopped and one more job is executed, which it rejects.
 */
public final class JettyThreadPoolApp {
  public static final int MAX_THREADS = 3;
  public static final int TASKS = 40;
  public static final int BATCHES = 4;

  public static void main(String[] args) throws Exception {
    System.setProperty("slf4j.internal.verbosity", "ERROR"); // no logger bound: no warning
    QueuedThreadPool pool = pool(MAX_THREADS);
    long ran = PoolWork.inBatches(pool, TASKS, BATCHES);
    pool.stop();
    PoolWork.printRejection(pool);
    System.out.println("ran " + ran);
  }

  /** A started pool of {@code threads} "qtp-" threads, all of them kept, none reserved. */
  static QueuedThreadPool pool(int threads) throws Exception {
    QueuedThreadPool pool = new QueuedThreadPool(threads, threads);
    pool.setName("qtp");
    pool.setReservedThreads(0);
    pool.start();
    return pool;
  }

  private JettyThreadPoolApp() {}
}
