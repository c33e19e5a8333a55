package dev.weft.agentit.apps.parallel;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.stream.IntStream;

/**
 * Parallel regions and their nesting: a parallel stream on main; a parallel stream inside a
 * fork-join task (it runs in the task's pool); a fork-join computation started inside a thread-pool
 * task.
 */
public final class NestedApp {
  /** A task that runs a parallel stream. */
  static final class StreamInTask extends RecursiveTask<Long> {
    @Override
    protected Long compute() {
      return IntStream.range(0, 50_000).parallel().mapToLong(i -> i % 7).sum(); // inner stream
    }
  }

  /** Sums a range by halving it. */
  static final class RangeSum extends RecursiveTask<Long> {
    private final int from;
    private final int to;

    RangeSum(int from, int to) {
      this.from = from;
      this.to = to;
    }

    @Override
    protected Long compute() {
      if (to - from <= 1000) {
        long s = 0;
        for (int i = from; i < to; i++) {
          s += i;
        }
        return s;
      }
      int mid = (from + to) >>> 1;
      RangeSum left = new RangeSum(from, mid);
      left.fork();
      return new RangeSum(mid, to).compute() + left.join();
    }
  }

  public static void main(String[] args) throws Exception {
    long outer = IntStream.range(0, 100_000).parallel().mapToLong(i -> i).sum(); // outer stream
    System.out.println("outer: " + outer);

    ForkJoinPool pool = new ForkJoinPool(2);
    System.out.println("in task: " + pool.invoke(new StreamInTask())); // task with stream
    pool.shutdown();

    ExecutorService executor = Executors.newSingleThreadExecutor();
    long forked = executor.submit(() -> new RangeSum(0, 20_000).invoke()).get(); // executor fork
    System.out.println("in executor task: " + forked);
    executor.shutdown();
  }
}
