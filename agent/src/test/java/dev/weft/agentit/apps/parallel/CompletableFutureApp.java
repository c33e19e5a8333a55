package dev.weft.agentit.apps.parallel;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Two chains {@code supplyAsync(...).thenApplyAsync(...)}: one on a thread pool, one on the default
 * async executor. Each source sleeps, so the dependent stage is registered before the source
 * completes and is submitted by the thread that completes it.
 */
public final class CompletableFutureApp {
  public static void main(String[] args) {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CompletableFuture<String> onPool =
        CompletableFuture.supplyAsync(() -> sleepThen("a"), pool) // pool chain
            .thenApplyAsync(s -> s + "b", pool);
    System.out.println(onPool.join()); // pool join site
    pool.shutdown();

    CompletableFuture<String> onDefault =
        CompletableFuture.supplyAsync(() -> sleepThen("c")) // default chain
            .thenApplyAsync(s -> s + "d");
    System.out.println(onDefault.join()); // default join site
  }

  private static String sleepThen(String s) {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return s;
  }
}
