package dev.weft.testapps.scenarios;

import static dev.weft.testapps.Expect.inOneOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testapps.harness.ScenarioRunner;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The residual is bit-identical for every thread count and split; the measured load imbalance
 * follows the nonzeros of each block: (max − mean) / mean of block_nnz, allowance 30 % + 0.08, in
 * one of three runs.
 */
class SparseCgTest {
  private static ScenarioRunner cg(int threads, String split) {
    return ScenarioRunner.scenario("sparse-cg")
        .withOption("rows", 1024)
        .withOption("threads", threads)
        .withOption("iterations", 5)
        .withOption("split", split)
        .withOption("nnz-per-ms", 400);
  }

  @Test
  void residualDoesNotDependOnThreadsSplitOrTiming() throws Exception {
    List<ScenarioRunner> runners =
        List.of(
            cg(1, "rows"),
            cg(3, "rows"),
            cg(3, "nnz"),
            cg(2, "nnz").withOption("nnz-per-ms", 1_000_000_000).withCpu());
    String residual = null;
    for (ScenarioRunner runner : runners) {
      ScenarioRunner.Result run = runner.runInProcess();
      assertEquals(0, run.exitCode(), run::toString);
      String own = run.result().get("residual").asText();
      if (residual == null) {
        residual = own;
      }
      assertEquals(residual, own, runner.command().toString());
      assertTrue(Double.parseDouble(own) > 0 && Double.parseDouble(own) < 1, own);
      assertEquals(1024, run.truthTotal(SparseCg.BLOCK_ROWS));
      assertEquals(run.result().get("nnz").asLong(), run.truthTotal(SparseCg.BLOCK_NNZ));
    }
  }

  @Test
  void rowBlocksAreImbalancedAsTheirNonzerosAndNnzBlocksAreNot() throws Exception {
    inOneOf(
        () -> {
          ScenarioRunner.Result rows = cg(3, "rows").runInProcess();
          ScenarioRunner.Result nnz = cg(3, "nnz").runInProcess();
          double rowsExpected = imbalance(rows.truthPerKey(SparseCg.BLOCK_NNZ).values());
          double nnzExpected = imbalance(nnz.truthPerKey(SparseCg.BLOCK_NNZ).values());
          assertTrue(rowsExpected > 0.3, "the generated matrix is skewed: " + rowsExpected);
          assertTrue(nnzExpected < 0.1, "nnz blocks are balanced: " + nnzExpected);
          double rowsMeasured = measured(rows);
          double nnzMeasured = measured(nnz);
          assertEquals(rowsExpected, rowsMeasured, 0.3 * rowsExpected + 0.08, "rows imbalance");
          assertEquals(nnzExpected, nnzMeasured, 0.3 * nnzExpected + 0.08, "nnz imbalance");
          // The lightest row block waits for the heaviest at the first barrier of each iteration.
          assertTrue(
              rows.truthPerKey("barrier_wait_for_last_ns").get("worker-0")
                  > nnz.truthPerKey("barrier_wait_for_last_ns").get("worker-0"),
              "row blocks wait longer");
        });
  }

  private static double measured(ScenarioRunner.Result run) {
    return run.truth().get("imbalance").get(SparseCg.REGION).asDouble();
  }

  private static double imbalance(Collection<Long> values) {
    double mean = values.stream().mapToLong(Long::longValue).average().orElseThrow();
    long max = values.stream().mapToLong(Long::longValue).max().orElseThrow();
    return (max - mean) / mean;
  }
}
