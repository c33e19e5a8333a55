package dev.weft.bench;

import dev.weft.api.Region;
import dev.weft.api.Traced;
import dev.weft.api.Weft;
import java.util.concurrent.TimeUnit;
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
 * What one recorded user region costs: an enter and an exit event (two events per operation).
 *
 * <p>Run once without the agent and once with {@code -jvmArgsAppend -javaagent:weft-agent.jar}; the
 * difference per operation divided by two is the cost per event. {@link #nanoTime} is the floor:
 * every recorded event reads the clock once.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HotPathBenchmark {
  private long counter;

  /** The loop and a field increment: what every other benchmark here also pays. */
  @Benchmark
  public long baseline() {
    return ++counter;
  }

  /** One clock read, the physical floor of one recorded event. */
  @Benchmark
  public long nanoTime() {
    return System.nanoTime();
  }

  /** A {@code Weft.region} block around the increment: ENTER and EXIT under the agent. */
  @Benchmark
  public long region() {
    try (Region r = Weft.region("bench.region")) {
      return ++counter;
    }
  }

  /** A call of a {@code @Traced} method: ENTER and EXIT under the agent. */
  @Benchmark
  public long traced() {
    return tracedIncrement();
  }

  @Traced
  private long tracedIncrement() {
    return ++counter;
  }
}

// How to run: java -jar benchmarks/target/benchmarks.jar HotPathBenchmark, then again with
// -jvmArgsAppend -javaagent:agent/target/weft-agent.jar (benchmarks/run.sh does both). Without the
// agent region() and traced() cost what baseline() costs; with it, expect about two nanoTime()
// more.
