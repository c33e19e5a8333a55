package dev.weft.agentit.apps.parallel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.stream.IntStream;

/**
 * Runs parallel work in rounds until the file {@code args[0]} exists, so that an agent can be
 * attached meanwhile: a fork-join computation, a parallel stream and a thread-pool task per round.
 * Prints "ready" once the first round is done (nothing else until it stops).
 */
public final class AttachApp {
  static final class Half extends RecursiveTask<Integer> {
    private final int n;

    Half(int n) {
      this.n = n;
    }

    @Override
    protected Integer compute() {
      if (n < 2) {
        return n;
      }
      Half left = new Half(n / 2);
      left.fork();
      return new Half(n - n / 2).compute() + left.join(); // round join
    }
  }

  public static void main(String[] args) throws Exception {
    Path stop = Path.of(args[0]);
    ForkJoinPool pool = new ForkJoinPool(2);
    ExecutorService executor = Executors.newFixedThreadPool(1);
    long rounds = 0;
    long sum = 0;
    while (!Files.exists(stop) && rounds < 2_000) {
      sum += pool.invoke(new Half(64)); // round invoke
      sum += IntStream.range(0, 1_000).parallel().sum(); // round stream
      sum += executor.submit(() -> 1).get(); // round get
      if (rounds++ == 0) {
        System.out.println("ready");
      }
      Thread.sleep(20);
    }
    pool.shutdown();
    executor.shutdown();
    System.out.println("done: " + (sum > 0));
  }
}
