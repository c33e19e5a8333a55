package dev.weft.agentit.apps.parallel;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A thread pool with one worker and {@code N} tasks submitted at once, each sleeping {@code
 * SLEEP_MS}: task {@code i} waits in the queue about {@code i * SLEEP_MS}. Then a slow task whose
 * {@code Future.get()} the main thread times itself (the microseconds are written to the file
 * {@code args[0]}), and a failing task whose {@code get()} throws.
 */
public final class ExecutorApp {
  public static final int TASKS = 6;
  public static final int SLEEP_MS = 60;
  public static final int SLOW_MS = 300;

  public static void main(String[] args) throws Exception {
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
    List<Future<Integer>> futures = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      int k = i;
      futures.add(
          pool.submit( // submit site
              () -> {
                Thread.sleep(SLEEP_MS);
                return k;
              }));
    }
    int sum = 0;
    for (Future<Integer> f : futures) {
      sum += f.get(); // queued get site
    }
    System.out.println("sum: " + sum);

    Future<String> slow =
        pool.submit(
            () -> {
              Thread.sleep(SLOW_MS);
              return "slow";
            });
    long t0 = System.nanoTime();
    String s = slow.get(); // slow get site
    long waited = System.nanoTime() - t0;
    System.out.println(s);
    // Written to a file (args[0]), not printed: the output must not differ between runs.
    Files.writeString(Path.of(args[0]), Long.toString(waited / 1000), StandardCharsets.UTF_8);

    Future<?> failing =
        pool.submit(
            () -> {
              throw new IllegalStateException("task failed");
            });
    try {
      failing.get(); // failing get site
    } catch (ExecutionException e) {
      System.out.println("failed: " + e.getCause().getMessage());
    }
    shutdown(pool);
  }

  private static void shutdown(ExecutorService pool) throws InterruptedException {
    pool.shutdown();
    System.out.println("terminated: " + pool.awaitTermination(10, TimeUnit.SECONDS)); // await site
  }
}
