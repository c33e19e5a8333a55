package dev.weft.testapps.scenarios;

import static dev.weft.testapps.Expect.busy;
import static dev.weft.testapps.Expect.inOneOf;
import static dev.weft.testapps.Expect.near;
import static dev.weft.testapps.Expect.overrunMs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testapps.harness.ScenarioRunner;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Varying team: Q workers, region k runs t_k tasks of w: imbalance Q/t_k − 1 (allowance 20 % +
 * 0.1), limited parallelism Σ (Q − t_k)·w in total. Streams in tasks: every element once, on fj
 * threads. Allowances 30 % + 4 ms per region or 2 ms per element (+ the run's overrun where the
 * value follows from the work), in one of three runs.
 */
class NestedTest {
  @Test
  void theActiveTeamSizeSetsEachRegionsImbalance() throws Exception {
    int q = 4;
    List<Integer> teams = List.of(1, 2, 4, 3);
    int w = 10;
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("nested")
                  .withOption("part", "varying-team")
                  .withOption("team-threads", q)
                  .withOption("teams", "1,2,4,3")
                  .withOption("region-ms", w)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          int tasks = teams.stream().mapToInt(Integer::intValue).sum();
          double slack = overrunMs(run, tasks * w);
          double meanMs = (double) tasks * w / q / teams.size();
          long lostMs = 0;
          for (int k = 0; k < teams.size(); k++) {
            String region = "region-" + k;
            double expected = (double) q / teams.get(k) - 1;
            double imbalance = run.truth().get("imbalance").get(region).asDouble();
            assertEquals(expected, imbalance, 0.2 * expected + 0.1 + slack / meanMs, region);
            assertEquals(q, run.truthPerKey("region_busy_ns", region).size(), region);
            lostMs += (long) (q - teams.get(k)) * w;
          }
          near(
              "limited parallelism",
              lostMs,
              run.truthTotal("limited_parallelism_ns"),
              4 * teams.size() * q + q * slack);
          assertEquals(10, run.truthPerKey("pool_tasks").get("team"));
        });
  }

  @Test
  void streamsInsideForkJoinTasksRunOnThePoolsThreads() throws Exception {
    int groups = 4;
    int elements = 2;
    int d = 10;
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("nested")
                  .withOption("part", "streams-in-tasks")
                  .withOption("groups", groups)
                  .withOption("elements", elements)
                  .withOption("element-ms", d)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          assertEquals(groups * elements, run.truthTotal("elements"));
          assertTrue(
              run.truthPerKey("elements").keySet().stream()
                  .allMatch(t -> t.matches("fj-\\d+|main")),
              run::toString);
          busy("busy", groups * elements * d, run.truthTotal("busy_ns"), groups * elements);
        });
  }
}
