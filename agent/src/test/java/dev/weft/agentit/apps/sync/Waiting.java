package dev.weft.agentit.apps.sync;

import java.util.concurrent.CountDownLatch;

/**
 * Waits in application code, outside the agent's packages: the agent follows only waits whose stack
 * has an application frame below the JDK's.
 */
public final class Waiting {
  private Waiting() {}

  /** Parks in {@code latch.await()} until it opens. */
  public static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits in {@code Thread.join} until {@code t} ends. */
  public static void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
