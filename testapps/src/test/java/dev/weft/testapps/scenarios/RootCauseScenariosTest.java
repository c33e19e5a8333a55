package dev.weft.testapps.scenarios;

import static dev.weft.testapps.Expect.get;
import static dev.weft.testapps.Expect.inOneOf;
import static dev.weft.testapps.Expect.near;
import static dev.weft.testapps.Expect.overrunMs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testapps.harness.ScenarioRunner;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The truth of the root-cause scenarios against their closed forms (sleep work). Allowance 30 % + a
 * few ms per hand-over + the run's overrun, in one of three runs.
 */
class RootCauseScenariosTest {
  /** Every contended wait is charged, in pieces, to the holders before it: the sums agree. */
  @Test
  void lockConvoyChargesEveryWaitToTheHoldersAheadOfIt() throws Exception {
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("lock-convoy")
                  .withOption("threads", 3)
                  .withOption("sections", 2)
                  .withOption("hold-ms", 10)
                  .withOption("first-hold-ms", 30)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          long waits = run.truthTotal("lock_contention_ns");
          long costs = run.truthTotal("delay_cost_lock_ns");
          // 5 contended acquisitions, each with a hand-over that is nobody's cost.
          near("lock waits charged to holders", waits / 1e6, costs, 5 * 1.0);
          // worker-0's first hold (30 ms) delays both others, who request 1 and 2 ms into it.
          Map<String, Long> cost = run.truthPerKey("delay_cost_lock_ns");
          double slack = overrunMs(run, 30 + 5 * 10);
          near("worker-0's cost", 29 + 28 + 2 * 10, get(cost, "worker-0"), 5 + slack);
        });
  }

  /** link-i works (i+1)·d after the notify that woke it; its notify ends the next link's wait. */
  @Test
  void notifyChainPathAndCostsFollowTheHandOvers() throws Exception {
    int d = 10;
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("notify-chain")
                  .withOption("threads", 3)
                  .withOption("work-ms", d)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          Map<String, Long> path = run.truthPerKey("critical_path_ns");
          Map<String, Long> cost = run.truthPerKey("delay_cost_condition_ns");
          double slack = overrunMs(run, 6 * d);
          for (int i = 0; i < 3; i++) {
            near("link-" + i + " on the path", (i + 1) * d, get(path, "link-" + i), 3 + slack);
          }
          near("link-0 delays link-1", d, get(cost, "link-0"), 3 + slack);
          // link-2 waits from the start: the first d of it, link-1 was waiting for link-0 itself
          near("link-1 delays link-2", 2 * d, get(cost, "link-1"), 3 + slack);
          assertEquals(0, get(cost, "link-2"), "the last link notifies nobody");
        });
  }

  /**
   * bar-2's wait for bar-1 (3d) is bar-1's own for d only: 2d is bar-0's, long-term; lock-2's wait
   * for lock-1's notify (4d) is lock-1's for d: 3d is lock-0's, for which lock-1 waited.
   */
  @Test
  void delayChainSplitsEachWaitIntoTheCausersOwnPartAndItsCausersPart() throws Exception {
    int d = 10;
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("delay-chain").withOption("work-ms", d).runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          Map<String, Long> barrier = run.truthPerKey("delay_cost_barrier_ns");
          Map<String, Long> lock = run.truthPerKey("delay_cost_lock_ns");
          Map<String, Long> condition = run.truthPerKey("delay_cost_condition_ns");
          Map<String, Long> longTerm = run.truthPerKey("delay_cost_long_term_ns");
          double slack = 3 + overrunMs(run, 9 * d);
          near("bar-0 delays bar-1", 3 * d, get(barrier, "bar-0"), slack);
          near("bar-1 delays bar-2 by its own work", d, get(barrier, "bar-1"), slack);
          near("bar-0 delays bar-2 through bar-1", 2 * d, get(longTerm, "bar-0"), slack);
          near("lock-0 delays lock-1", 3 * d, get(lock, "lock-0"), slack);
          near("lock-1 delays lock-2 by its own work", d, get(condition, "lock-1"), slack);
          near("lock-0 delays lock-2 through lock-1", 3 * d, get(longTerm, "lock-0"), slack);
          assertEquals(0, get(longTerm, "bar-1") + get(longTerm, "lock-1"));
        });
  }

  /**
   * The path runs through the branch and its leaf: at least b + l on the workers (more when main
   * waited for the first worker's start-up), and the leaf alone is l.
   */
  @Test
  void forkJoinDagPathRunsThroughTheLongBranch() throws Exception {
    ScenarioRunner.Result run =
        ScenarioRunner.scenario("fork-join-dag")
            .withOption("branch-ms", 20)
            .withOption("leaf-ms", 20)
            .withOption("tail-ms", 5)
            .withOption("sibling-ms", 5)
            .runInProcess();
    assertEquals(0, run.exitCode(), run::toString);
    long onPath = run.truthTotal("critical_path_ns");
    assertTrue(onPath >= 40_000_000L - 1_000_000L, "workers on the path: " + onPath + " ns");
    long busiest =
        run.truthPerKey("critical_path_ns").values().stream()
            .mapToLong(Long::longValue)
            .max()
            .orElse(0);
    assertTrue(busiest >= 20_000_000L, "no worker ran the branch or the leaf: " + busiest + " ns");
  }
}
