package dev.weft.testapps.scenarios;

import dev.weft.testapps.NamedThreads;
import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.SkewedCosts;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A parallel stream over elements of skewed cost (see {@link SkewedCosts}), run inside a named
 * {@link ForkJoinPool} ({@code pool.submit(() -> list.parallelStream()...).get()}) so that the
 * stream's threads are {@code fj-<i>}; main waits in {@code get()}. The terminal operation is a sum
 * or a {@code forEach}: the JDK's forEach tasks fork themselves again while they run (a
 * CountedCompleter that goes on with the other half of its elements), so one task object runs more
 * than once.
 */
public final class ParallelStream implements Scenario {
  /** The pool's name and its workers' name prefix. */
  public static final String POOL = "fj";

  @Override
  public String name() {
    return "parallel-stream";
  }

  @Override
  public String summary() {
    return "a parallel stream over elements of skewed cost inside a named ForkJoinPool";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("parallelism", 2, 1, 64, "fork-join pool parallelism"),
        OptionSpec.integer("elements", 32, 1, 10_000, "N: elements"),
        OptionSpec.integer("max-ms", 16, 1, 60_000, "M: cost of the costliest element"),
        OptionSpec.integer("skew", 2, 0, 3, "S: element k costs max(1, M*((k+1)/N)^S) ms"),
        OptionSpec.choice(
            "terminal",
            "sum",
            List.of("sum", "for-each"),
            "the stream's terminal operation: mapToLong(..).sum(), or forEach (whose tasks"
                + " fork themselves again while they run)"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int parallelism = context.options().intValue("parallelism");
    int elements = context.options().intValue("elements");
    long maxMs = context.options().longValue("max-ms");
    int skew = context.options().intValue("skew");
    Truth truth = context.truth();
    Work work = context.work();
    List<Integer> indices = new ArrayList<>(elements);
    for (int k = 0; k < elements; k++) {
      indices.add(k);
    }
    long[] costs = SkewedCosts.costs(elements, maxMs, skew);

    ForkJoinPool pool = NamedThreads.forkJoinPool(POOL, parallelism);
    long t0 = System.nanoTime();
    boolean forEach = context.options().choice("terminal").equals("for-each");
    LongAdder sum = new LongAdder();
    long checksum =
        pool.submit(
                () -> {
                  if (forEach) {
                    indices.parallelStream()
                        .forEach(k -> sum.add(element(work, costs[k], k, truth)));
                    return sum.sum();
                  }
                  return indices.parallelStream()
                      .mapToLong(k -> element(work, costs[k], k, truth))
                      .sum();
                })
            .get();
    truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
    pool.shutdown();
    t0 = System.nanoTime();
    pool.awaitTermination(1, TimeUnit.MINUTES);
    truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);

    Map<String, Object> result = new LinkedHashMap<>();
    result.put("checksum", Work.jsonSafe(checksum));
    result.put("elements", (long) elements);
    return result;
  }

  private static long element(Work work, long ms, int k, Truth truth) {
    long t0 = System.nanoTime();
    long checksum;
    try {
      checksum = work.run(ms, k);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    truth.add(TruthKinds.BUSY_NS, System.nanoTime() - t0);
    truth.add(TruthKinds.ELEMENTS, 1);
    return checksum;
  }
}
