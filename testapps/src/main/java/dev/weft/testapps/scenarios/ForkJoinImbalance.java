package dev.weft.testapps.scenarios;

import dev.weft.testapps.JoinClock;
import dev.weft.testapps.NamedThreads;
import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.SkewedCosts;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;

/**
 * A {@link RecursiveTask} that halves a range of elements with skewed costs (see {@link
 * SkewedCosts}) down to {@code --threshold} elements, on a {@link ForkJoinPool} of {@code
 * --parallelism} workers named {@code fj-<i>}. Each split forks the left half, computes the right
 * half, then joins the left one.
 */
public final class ForkJoinImbalance implements Scenario {
  /** The pool's name: the key of its per-pool kinds, and its workers' name prefix. */
  public static final String POOL = "fj";

  @Override
  public String name() {
    return "fork-join-imbalance";
  }

  @Override
  public String summary() {
    return "recursive fork/join over elements of skewed cost on a named ForkJoinPool";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("parallelism", 2, 1, 64, "fork-join pool parallelism"),
        OptionSpec.integer("elements", 32, 1, 10_000, "N: elements"),
        OptionSpec.integer("max-ms", 16, 1, 60_000, "M: cost of the costliest element"),
        OptionSpec.integer("skew", 2, 0, 3, "S: element k costs max(1, M*((k+1)/N)^S) ms"),
        OptionSpec.integer("threshold", 1, 1, 10_000, "largest range computed without splitting"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int parallelism = context.options().intValue("parallelism");
    int elements = context.options().intValue("elements");
    long maxMs = context.options().longValue("max-ms");
    int skew = context.options().intValue("skew");
    int threshold = context.options().intValue("threshold");
    long[] costs = SkewedCosts.costs(elements, maxMs, skew);
    Truth truth = context.truth();
    JoinClock clock = new JoinClock();

    ForkJoinPool pool = NamedThreads.forkJoinPool(POOL, parallelism);
    CostTask root = new CostTask(0, elements, costs, threshold, context.work(), truth, clock);
    truth.add(TruthKinds.TASKS_CREATED, POOL, 1);
    long[] sums = clock.join(() -> pool.invoke(root), truth);
    pool.shutdown();
    long t0 = System.nanoTime();
    pool.awaitTermination(1, TimeUnit.MINUTES);
    truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);

    Map<String, Object> result = new LinkedHashMap<>();
    result.put("checksum", Work.jsonSafe(sums[0]));
    result.put("tasks", sums[1] + 1);
    result.put("elements", (long) elements);
    return result;
  }

  /** Computes {checksum, tasks created below this one} over elements [lo, hi). */
  static final class CostTask extends RecursiveTask<long[]> {
    private static final long serialVersionUID = 1L;

    private final int lo;
    private final int hi;
    private final long[] costs;
    private final int threshold;
    private final transient Work work;
    private final transient Truth truth;
    private final transient JoinClock clock;

    CostTask(int lo, int hi, long[] costs, int threshold, Work work, Truth truth, JoinClock clock) {
      this.lo = lo;
      this.hi = hi;
      this.costs = costs;
      this.threshold = threshold;
      this.work = work;
      this.truth = truth;
      this.clock = clock;
    }

    @Override
    protected long[] compute() {
      long started = clock.taskStarted();
      try {
        return split();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      } finally {
        clock.taskEnded(started);
      }
    }

    private long[] split() throws Exception {
      if (hi - lo <= threshold) {
        long checksum = 0;
        for (int k = lo; k < hi; k++) {
          long t0 = System.nanoTime();
          checksum += work.run(costs[k], k);
          truth.add(TruthKinds.BUSY_NS, System.nanoTime() - t0);
          truth.add(TruthKinds.ELEMENTS, 1);
        }
        return new long[] {checksum, 0};
      }
      int mid = (lo + hi) >>> 1;
      CostTask left = new CostTask(lo, mid, costs, threshold, work, truth, clock);
      CostTask right = new CostTask(mid, hi, costs, threshold, work, truth, clock);
      truth.add(TruthKinds.TASKS_CREATED, POOL, 2);
      left.fork();
      long[] r = right.compute();
      long[] l = clock.join(left::join, truth);
      return new long[] {l[0] + r[0], l[1] + r[1] + 2};
    }
  }
}
