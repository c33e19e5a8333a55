package dev.weft.agentit.apps.parallel;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * JDK 21+: {@code args[0]} virtual threads that each sleep a little, joined by main, then tasks on
 * a virtual-thread-per-task executor. (Compiled for Java 17, so the JDK 21 API is reached by
 * reflection; the starts and joins are plain {@code Thread} calls.)
 */
public final class VirtualThreadsApp {
  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    AtomicInteger done = new AtomicInteger();
    Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
    Method unstarted =
        Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
    List<Thread> threads = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Thread t =
          (Thread)
              unstarted.invoke(
                  builder,
                  (Runnable)
                      () -> {
                        sleep(5);
                        done.incrementAndGet();
                      });
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join(); // join site
    }
    System.out.println("virtual threads: " + done.get());

    int tasks = 200;
    long sum = 0;
    ExecutorService perTask =
        (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    List<Future<Integer>> futures = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      int k = i;
      futures.add(
          perTask.submit(
              () -> {
                sleep(2);
                return k;
              }));
    }
    for (Future<Integer> f : futures) {
      sum += f.get();
    }
    perTask.shutdown();
    perTask.awaitTermination(1, TimeUnit.MINUTES);
    System.out.println("tasks: " + tasks + ", sum: " + sum);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
