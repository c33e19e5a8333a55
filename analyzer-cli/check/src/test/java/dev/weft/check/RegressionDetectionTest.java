package dev.weft.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Several runs per side on seeded synthetic result sets: how often unchanged code fails (false
 * positives) and how often an injected regression passes (false negatives).
 */
class RegressionDetectionTest {
  private static final int TRIALS = 200;
  private static final int RUNS = 10;

  /** Wait-state shares of a made-up program, in percent; barrier_wait is the one that regresses. */
  private static final Map<String, Double> MEANS =
      Map.of(
          "barrier_wait", 8.0,
          "lock_contention", 6.0,
          "join_wait", 5.0,
          "pool_queue_wait", 3.0,
          "work_imbalance", 7.0);

  /**
   * One run's share: the mean with 5 % relative noise and, in one run of twenty, a 30 % outlier (a
   * GC pause or a scheduling hiccup).
   */
  private static double run(Random rnd, double mean) {
    double v = mean * (1 + 0.05 * rnd.nextGaussian());
    return rnd.nextInt(20) == 0 ? v * 1.3 : v;
  }

  private static List<CheckRules.Samples> sides(Random rnd, double barrierFactor) {
    List<CheckRules.Samples> rows = new ArrayList<>();
    for (String id :
        List.of(
            "barrier_wait", "lock_contention", "join_wait", "pool_queue_wait", "work_imbalance")) {
      double[] base = new double[RUNS];
      double[] cur = new double[RUNS];
      for (int i = 0; i < RUNS; i++) {
        base[i] = run(rnd, MEANS.get(id));
        cur[i] = run(rnd, MEANS.get(id) * (id.equals("barrier_wait") ? barrierFactor : 1));
      }
      rows.add(new CheckRules.Samples(id, id, null, cur, base));
    }
    return rows;
  }

  private static int[] count(double barrierFactor, double maxRegression) {
    Random rnd = new Random(20_261_126L);
    CheckRules rules = new CheckRules(maxRegression, 0.5, 99, Map.of());
    int anyFailure = 0;
    int barrierFailed = 0;
    for (int t = 0; t < TRIALS; t++) {
      List<Verdict> verdicts = rules.judge(sides(rnd, barrierFactor));
      if (verdicts.stream().anyMatch(Verdict::failed)) {
        anyFailure++;
      }
      if (verdicts.get(0).failed()) {
        barrierFailed++;
      }
    }
    return new int[] {anyFailure, barrierFailed};
  }

  @Test
  void unchangedCodeDoesNotFail() {
    int[] tenPercent = count(1.0, 10);
    int[] fivePercent = count(1.0, 5);
    System.out.printf(
        "unchanged, %d trials of %d vs %d runs, 5 properties: failed %d (max regression 10 %%),"
            + " %d (5 %%)%n",
        TRIALS, RUNS, RUNS, tenPercent[0], fivePercent[0]);
    assertEquals(0, tenPercent[0]);
    assertTrue(fivePercent[0] <= TRIALS / 20, "false positives at 5 %: " + fivePercent[0]);
  }

  @Test
  void aTenPercentRegressionFails() {
    int[] caught = count(1.10, 5);
    int[] twenty = count(1.20, 10);
    System.out.printf(
        "barrier_wait +10 %%: caught in %d of %d trials (max regression 5 %%);"
            + " +20 %%: %d of %d (max regression 10 %%); trials with another property failing: %d%n",
        caught[1], TRIALS, twenty[1], TRIALS, caught[0] - caught[1]);
    assertTrue(caught[1] >= TRIALS * 0.75, "caught " + caught[1]);
    assertTrue(twenty[1] >= TRIALS * 0.9, "caught " + twenty[1]);
  }
}
