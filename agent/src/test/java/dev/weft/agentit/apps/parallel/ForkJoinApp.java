package dev.weft.agentit.apps.parallel;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A recursive fork-join computation on a pool of two workers: the root task is submitted with
 * {@code pool.invoke} from main (a parallel region), every task forks one half and computes the
 * other itself, then joins the forked half. Prints the result and how many tasks it created (the
 * root plus every forked task), which the test compares with the trace.
 */
public final class ForkJoinApp {
  static final AtomicLong TASKS = new AtomicLong();

  static final class Fib extends RecursiveTask<Long> {
    private final int n;

    Fib(int n) {
      this.n = n;
      TASKS.incrementAndGet();
    }

    @Override
    protected Long compute() {
      if (n < 12) {
        return slow(n);
      }
      Fib left = new Fib(n - 1);
      left.fork();
      Fib right = new Fib(n - 2);
      TASKS.decrementAndGet(); // computed here, not run as a task
      long r = right.compute();
      return left.join() + r; // join site
    }

    private static long slow(int n) {
      return n < 2 ? n : slow(n - 1) + slow(n - 2);
    }
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 22;
    ForkJoinPool pool = new ForkJoinPool(2);
    long result = pool.invoke(new Fib(n)); // invoke site
    pool.shutdown();
    try {
      pool.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES); // the workers end
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    System.out.println("fib(" + n + ") = " + result);
    System.out.println("tasks: " + TASKS.get());
  }
}
