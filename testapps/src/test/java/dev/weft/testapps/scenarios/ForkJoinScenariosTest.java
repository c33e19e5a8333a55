package dev.weft.testapps.scenarios;

import static dev.weft.testapps.Expect.busy;
import static dev.weft.testapps.Expect.inOneOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testapps.harness.ScenarioRunner;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * fork-join-imbalance and parallel-stream: counts are exact; total busy time is the sum of the
 * element costs max(1, M·(k+1)^S / N^S) ms (see {@link dev.weft.testapps.Expect#busy}, in one of
 * three runs); every element runs on a named pool thread.
 */
class ForkJoinScenariosTest {
  private static final int M = 8;
  private static final int S = 2;

  /** Tasks made by halving n elements down to at most l each, the root included. */
  static long tasks(int n, int l) {
    return n <= l ? 1 : 1 + tasks(n / 2, l) + tasks(n - n / 2, l);
  }

  static long totalCostMs(int n) {
    long total = 0;
    for (int k = 0; k < n; k++) {
      long scaled = M * (long) Math.pow(k + 1, S) / (long) Math.pow(n, S);
      total += Math.max(1, scaled);
    }
    return total;
  }

  @ParameterizedTest
  @CsvSource({"16,1", "10,3", "7,7"})
  void forkJoinCountsItsTasksAndElementsExactly(int n, int threshold) throws Exception {
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("fork-join-imbalance")
                  .withOption("elements", n)
                  .withOption("max-ms", M)
                  .withOption("skew", S)
                  .withOption("threshold", threshold)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          assertEquals(tasks(n, threshold), run.truthPerKey("tasks_created").get("fj"));
          assertEquals(tasks(n, threshold), run.result().get("tasks").asLong());
          assertEquals(n, run.truthTotal("elements"));
          assertNamedPoolThreadsOnly(run.truthPerKey("elements"));
          busy("busy", totalCostMs(n), run.truthTotal("busy_ns"), n);
          // Helping keeps the workers' own join waits below main's, which spans the whole run.
          Map<String, Long> join = run.truthPerKey("join_wait_ns");
          long workers =
              join.entrySet().stream()
                  .filter(e -> e.getKey().startsWith("fj-"))
                  .mapToLong(Map.Entry::getValue)
                  .sum();
          assertTrue(workers < join.get("main"), join::toString);
        });
  }

  @Test
  void parallelStreamRunsEveryElementOnceOnThePoolsThreads() throws Exception {
    int n = 16;
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("parallel-stream")
                  .withOption("elements", n)
                  .withOption("max-ms", M)
                  .withOption("skew", S)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          assertEquals(n, run.truthTotal("elements"));
          assertNamedPoolThreadsOnly(run.truthPerKey("elements"));
          busy("busy", totalCostMs(n), run.truthTotal("busy_ns"), n);
          assertTrue(run.truthPerKey("join_wait_ns").get("main") > totalCostMs(n) * 1e6 / 3);
        });
  }

  private static void assertNamedPoolThreadsOnly(Map<String, Long> perThread) {
    assertTrue(
        perThread.keySet().stream().allMatch(t -> t.matches("fj-\\d+|main")), perThread::toString);
  }
}
