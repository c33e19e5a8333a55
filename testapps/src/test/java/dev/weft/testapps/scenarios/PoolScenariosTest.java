package dev.weft.testapps.scenarios;

import static dev.weft.testapps.Expect.busy;
import static dev.weft.testapps.Expect.get;
import static dev.weft.testapps.Expect.inOneOf;
import static dev.weft.testapps.Expect.near;
import static dev.weft.testapps.Expect.overrunMs;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.testapps.harness.ScenarioRunner;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * executor-queue (N threads, M tasks of s: task k queues floor(k/N)·s) and future-wait (waiter j
 * waits R·max(0, (j+1)·d − o)). Allowance 30 % + 4 ms per blocking step + the run's overrun, in one
 * of three runs.
 */
class PoolScenariosTest {
  @Test
  void queueWaitGrowsLinearlyWithTheTasksPosition() throws Exception {
    int n = 2;
    int m = 6;
    int s = 10;
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("executor-queue")
                  .withOption("threads", n)
                  .withOption("tasks", m)
                  .withOption("task-ms", s)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          double slack = overrunMs(run, m * s);
          Map<String, Long> perTask = run.truthPerKey("task_queue_wait_ns");
          assertEquals(m, perTask.size(), perTask::toString);
          long expectedTotal = 0;
          for (int k = 0; k < m; k++) {
            int position = k / n;
            near(
                "task-" + k + " queue wait",
                position * s,
                get(perTask, "task-" + k),
                4 * (position + 1) + slack);
            expectedTotal += (long) position * s;
          }
          near(
              "pool queue wait",
              expectedTotal,
              get(run.truthPerKey("pool_queue_wait_ns"), "exec"),
              4 * m + m * slack);
          assertEquals(m, get(run.truthPerKey("pool_tasks"), "exec"));
          for (int t = 0; t < n; t++) {
            busy(
                "exec-" + t + " busy",
                m * s / n,
                get(run.truthPerKey("busy_ns"), "exec-" + t),
                m / n);
          }
          near(
              "main waiting",
              (m + n - 1) / n * s,
              get(run.truthPerKey("join_wait_ns"), "main"),
              4 * m / n + slack);
        });
  }

  @ParameterizedTest
  @ValueSource(strings = {"future", "completable"})
  void eachWaiterWaitsForWhatItsTaskHasLeft(String api) throws Exception {
    int waiters = 3;
    int d = 10;
    int o = 10;
    int r = 2;
    inOneOf(
        () -> {
          ScenarioRunner.Result run =
              ScenarioRunner.scenario("future-wait")
                  .withOption("waiters", waiters)
                  .withOption("task-ms", d)
                  .withOption("own-ms", o)
                  .withOption("rounds", r)
                  .withOption("api", api)
                  .runInProcess();
          assertEquals(0, run.exitCode(), run::toString);
          double slack = overrunMs(run, r * (d * waiters * (waiters + 1) / 2.0 + waiters * o));
          Map<String, Long> join = run.truthPerKey("join_wait_ns");
          for (int j = 0; j < waiters; j++) {
            near(
                "waiter-" + j,
                r * Math.max(0, (j + 1) * d - o),
                get(join, "waiter-" + j),
                4 * r + slack);
          }
        });
  }
}
