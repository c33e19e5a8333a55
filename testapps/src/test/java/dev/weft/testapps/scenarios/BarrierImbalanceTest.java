package dev.weft.testapps.scenarios;

import static dev.weft.testapps.Expect.busy;
import static dev.weft.testapps.Expect.get;
import static dev.weft.testapps.Expect.inOneOf;
import static dev.weft.testapps.Expect.near;
import static dev.weft.testapps.Expect.overrunMs;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.testapps.harness.ScenarioRunner;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * T threads, thread i working (i+1)·d per iteration, R iterations: thread i waits (T−1−i)·d·R for
 * the last arrival. Allowance 30 % + 4 ms per iteration + the run's overrun, in one of three runs.
 */
class BarrierImbalanceTest {
  private static final int T = 3;
  private static final int D = 10;
  private static final int R = 3;

  @ParameterizedTest
  @ValueSource(strings = {"cyclic", "phaser", "latch"})
  void threadIWaitsForTheLastArrivalInProportionToItsShortfall(String barrier) throws Exception {
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("barrier-imbalance")
                  .withOption("threads", T)
                  .withOption("work-ms", D)
                  .withOption("iterations", R)
                  .withOption("barrier", barrier)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          Map<String, Long> wait = run.truthPerKey("barrier_wait_ns");
          Map<String, Long> forLast = run.truthPerKey("barrier_wait_for_last_ns");
          Map<String, Long> release = run.truthPerKey("barrier_release_latency_ns");
          Map<String, Long> busy = run.truthPerKey("busy_ns");
          assertEquals(T, wait.size(), wait::toString);
          double slack = overrunMs(run, D * R * T * (T + 1) / 2.0);
          long loop = get(busy, "worker-0") + get(wait, "worker-0");
          for (int i = 0; i < T; i++) {
            String thread = "worker-" + i;
            assertEquals(get(wait, thread), get(forLast, thread) + get(release, thread));
            busy(thread + " busy", (i + 1) * D * R, get(busy, thread), R);
            near(
                thread + " waiting for the last",
                (T - 1 - i) * D * R,
                get(forLast, thread),
                4 * R + slack);
            // All leave the last barrier together: busy + wait is the same loop time for all.
            near(
                thread + " busy + wait vs worker-0's",
                loop / 1e6,
                busy.get(thread) + wait.get(thread),
                8);
          }
          near(
              "main joining",
              T * D * R,
              get(run.truthPerKey("join_wait_ns"), "main"),
              4 * R + slack);
          // Work (i+1)·d per iteration: imbalance (max − mean) / mean = (T − 1) / (T + 1); an
          // overrun raises the mean.
          double imbalance = run.truth().get("imbalance").get(BarrierImbalance.REGION).asDouble();
          double meanMs = D * R * (T + 1) / 2.0;
          assertEquals((T - 1.0) / (T + 1), imbalance, 0.1 + slack / meanMs, "imbalance");
        });
  }
}
