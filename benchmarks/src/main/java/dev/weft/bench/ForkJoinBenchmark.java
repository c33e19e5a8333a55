package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The worst case for task tracing: fork-join tasks that do almost nothing, and a parallel stream
 * over small elements. Run without the agent, with it ({@code tasks=all}) and with aggregated tasks
 * ({@code tasks=aggregate}); the ratios to the untraced run are the figure.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ForkJoinBenchmark {
  /** Fibonacci argument; with threshold 2, fib(20) makes thousands of tasks. */
  @Param("20")
  public int n;

  /** Below this argument a task computes sequentially. */
  @Param("2")
  public int threshold;

  private ForkJoinPool pool;
  private List<Integer> elements;

  @Setup(Level.Trial)
  public void setUp() {
    pool = new ForkJoinPool(2);
    elements = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      elements.add(i);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pool.shutdown();
  }

  /** Recursive Fibonacci on a two-worker pool, one task per call above the threshold. */
  @Benchmark
  public long fib() {
    return pool.invoke(new Fib(n, threshold));
  }

  /** A parallel stream summing squares of 100,000 boxed integers on the common pool. */
  @Benchmark
  public long parallelStream() {
    return elements.parallelStream().mapToLong(i -> (long) i * i).sum();
  }

  private static final class Fib extends RecursiveTask<Long> {
    private final int n;
    private final int threshold;

    Fib(int n, int threshold) {
      this.n = n;
      this.threshold = threshold;
    }

    @Override
    protected Long compute() {
      if (n <= threshold) {
        return sequential(n);
      }
      Fib left = new Fib(n - 1, threshold);
      left.fork();
      long right = new Fib(n - 2, threshold).compute();
      return left.join() + right;
    }

    private static long sequential(int n) {
      return n < 2 ? n : sequential(n - 1) + sequential(n - 2);
    }
  }
}

// How to run: java -jar benchmarks/target/benchmarks.jar ForkJoinBenchmark, then with
// -jvmArgsAppend "-javaagent:agent/target/weft-agent.jar" and "...=tasks=aggregate". Full tracing
// of tasks this small costs several times the untraced run; aggregated mode aims at ≤ 1.5x.
