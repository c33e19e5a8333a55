package dev.weft.testapps.scenarios;

import static dev.weft.testapps.Expect.busy;
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
 * P workers, communication c, compute w, R iterations. Master-only: every worker idles R·c;
 * overlap: nobody idles, and the compute threads wait R·(c − w) in total for the communicating one.
 * Allowance 30 % + 4 ms per iteration + the run's overrun, in one of three runs.
 */
class IdleThreadsTest {
  private static final int P = 3;
  private static final int C = 10;
  private static final int W = 5;
  private static final int R = 3;

  private static ScenarioRunner.Result run(String mode) throws Exception {
    ScenarioRunner.Result run =
        ScenarioRunner.scenario("idle-threads")
            .withOption("workers", P)
            .withOption("comm-ms", C)
            .withOption("work-ms", W)
            .withOption("iterations", R)
            .withOption("mode", mode)
            .runInProcess();
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals(P * R, get(run.truthPerKey("pool_tasks"), "worker"));
    return run;
  }

  @Test
  void masterOnlyLeavesTheWholeTeamIdleDuringCommunication() throws Exception {
    inOneOf(
        () -> {
          ScenarioRunner.Result run = run("master-only");
          double slack = overrunMs(run, R * C + P * R * W);
          long comm = get(run.truthPerKey(IdleThreads.COMM_NS), "main");
          near("main communicating", R * C, comm, 4 * R + slack);
          Map<String, Long> idle = run.truthPerKey("idle_threads_ns");
          Map<String, Long> limited = run.truthPerKey("limited_parallelism_ns");
          assertEquals(P, idle.size(), idle::toString);
          for (int w = 0; w < P; w++) {
            String worker = "worker-" + w;
            near(worker + " idle", R * C, get(idle, worker), 4 * R + slack);
            // The idle windows contain main's communication phases.
            assertTrue(get(idle, worker) > comm - 5_000_000, worker + " idle < communication");
            near(worker + " limited parallelism", 0, get(limited, worker), 4 * R + slack);
            busy(worker + " busy", R * W, get(run.truthPerKey("busy_ns"), worker), R);
          }
          near(
              "main waiting for the team",
              R * W,
              get(run.truthPerKey("join_wait_ns"), "main"),
              4 * R + slack);
        });
  }

  @Test
  void overlapKeepsTheTeamBusyAndLimitsParallelismInstead() throws Exception {
    inOneOf(
        () -> {
          ScenarioRunner.Result run = run("overlap");
          double slack = overrunMs(run, R * C + (P - 1) * R * W);
          near("communication", R * C, run.truthTotal(IdleThreads.COMM_NS), 4 * R + slack);
          assertTrue(
              run.truthPerKey(IdleThreads.COMM_NS).keySet().stream()
                  .allMatch(t -> t.startsWith("worker-")),
              "a worker communicates");
          for (int w = 0; w < P; w++) {
            near(
                "worker-" + w + " idle",
                0,
                get(run.truthPerKey("idle_threads_ns"), "worker-" + w),
                4 * R + slack);
          }
          // Per iteration, P − 1 compute threads wait c − w for the communicating one.
          near(
              "limited parallelism",
              R * (P - 1) * (C - W),
              run.truthTotal("limited_parallelism_ns"),
              4 * R * P + P * slack);
          near("main waiting", R * C, get(run.truthPerKey("join_wait_ns"), "main"), 4 * R + slack);
        });
  }
}
