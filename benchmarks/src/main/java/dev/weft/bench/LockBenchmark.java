package dev.weft.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What recording an uncontended lock costs: one lock+unlock pair is three events (request,
 * acquired, released) when the agent weaves locks and monitors.
 *
 * <p>Run without and with the agent; the difference per operation is the cost per pair.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LockBenchmark {
  private final ReentrantLock lock = new ReentrantLock();
  private final Object monitor = new Object();
  private long counter;

  /** The increment alone. */
  @Benchmark
  public long baseline() {
    return ++counter;
  }

  /** {@code ReentrantLock.lock()} and {@code unlock()} around the increment. */
  @Benchmark
  public long reentrantLock() {
    lock.lock();
    try {
      return ++counter;
    } finally {
      lock.unlock();
    }
  }

  /** A {@code synchronized} block around the increment. */
  @Benchmark
  public long synchronizedBlock() {
    synchronized (monitor) {
      return ++counter;
    }
  }
}

// How to run: java -jar benchmarks/target/benchmarks.jar LockBenchmark, with and without
// -jvmArgsAppend -javaagent:agent/target/weft-agent.jar. Expect ≤ 90 ns added per pair.
