package dev.weft.testapps.scenarios;

import static dev.weft.testapps.Expect.get;
import static dev.weft.testapps.Expect.inOneOf;
import static dev.weft.testapps.Expect.near;
import static dev.weft.testapps.Expect.overrunMs;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.testapps.harness.ScenarioRunner;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two threads (one spins while the other sleeps, which fits 2 cores): thread 0 spins d·R in total.
 * Allowance 30 % + 4 ms per iteration + the run's overrun, in one of three runs.
 */
class SpinBarrierTest {
  @Test
  void theFasterThreadSpinsForTheSlowerOnesExtraWork() throws Exception {
    int d = 10;
    int r = 3;
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("spin-barrier")
                  .withOption("threads", 2)
                  .withOption("work-ms", d)
                  .withOption("iterations", r)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          Map<String, Long> spin = run.truthPerKey("spin_wait_ns");
          Map<String, Long> forLast = run.truthPerKey("spin_wait_for_last_ns");
          double slack = overrunMs(run, 3 * d * r);
          near("worker-0 spinning", d * r, get(spin, "worker-0"), 4 * r + slack);
          near("worker-0 spinning for the last", d * r, get(forLast, "worker-0"), 4 * r + slack);
          near("worker-1 spinning", 0, get(spin, "worker-1"), 2 * r + slack);
          assertEquals(0, run.truthPerKey("barrier_wait_ns").size(), "no JDK barrier is used");
        });
  }
}
