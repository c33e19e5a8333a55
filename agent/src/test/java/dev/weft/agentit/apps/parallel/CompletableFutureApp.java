package dev.weft.agentit.apps.parallel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * Two chains {@code supplyAsync(...).thenApplyAsync(...)}: one on a thread pool, one on the default
 * async executor. Each source sleeps, so the dependent stage is registered before the source
 * completes and is submitted by the thread that completes it. Then three futures joined through a
 * method reference.
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

    // Joined through a method reference: the call happens inside a lambda class of the JDK.
    List<CompletableFuture<String>> many = new ArrayList<>();
    for (String s : List.of("x", "y", "z")) {
      many.add(CompletableFuture.supplyAsync(() -> sleepThen(s)));
    }
    System.out.println(
        many.stream().map(CompletableFuture::join).collect(Collectors.joining())); // reference
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
