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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * T threads × K sections of H ms, think o, stagger s. With FIFO hand-off thread i waits i·(H − s) +
 * (K − 1)·((T − 1)·H − o). Allowance 30 % + 3 ms per section + the run's overrun, in one of three
 * runs.
 */
class LockContentionTest {
  private static final int T = 3;
  private static final int K = 3;
  private static final int H = 20;
  private static final int O = 5;
  private static final int S = 5;

  private static ScenarioRunner.Result run(String lock) throws Exception {
    ScenarioRunner.Result run =
        ScenarioRunner.scenario("lock-contention")
            .withOption("threads", T)
            .withOption("sections", K)
            .withOption("hold-ms", H)
            .withOption("think-ms", O)
            .withOption("stagger-ms", S)
            .withOption("lock", lock)
            .runInProcess();
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals(T * K, run.truthTotal("lock_acquisitions"));
    return run;
  }

  private static double slack(ScenarioRunner.Result run) {
    return overrunMs(run, T * K * H + T * (K - 1) * O);
  }

  private static long fifoWaitMs(int i) {
    return i * (H - S) + (K - 1) * ((T - 1) * H - O);
  }

  @ParameterizedTest
  @ValueSource(strings = {"fair", "reentrant"})
  void queuedThreadsTakeTurnsInArrivalOrder(String lock) throws Exception {
    inOneOf(
        () -> {
          ScenarioRunner.Result run = run(lock);
          Map<String, Long> contention = run.truthPerKey("lock_contention_ns");
          Map<String, Long> contended = run.truthPerKey("contended_acquisitions");
          for (int i = 0; i < T; i++) {
            String thread = "worker-" + i;
            near(thread, fifoWaitMs(i), get(contention, thread), 3 * K + slack(run));
            // Thread 0 finds the lock free once, at the start; everyone else always waits.
            assertEquals(i == 0 ? K - 1 : K, get(contended, thread), thread);
          }
          assertHoldsWereSerialised(run);
        });
  }

  @Test
  void synchronizedBlocksContendInSomeOrder() throws Exception {
    // HotSpot monitors do not hand over in FIFO order, so only the total has a closed form.
    long fifoTotal = 0;
    for (int i = 0; i < T; i++) {
      fifoTotal += fifoWaitMs(i);
    }
    long expected = fifoTotal;
    inOneOf(
        () -> {
          ScenarioRunner.Result run = run("synchronized");
          near(
              "total contention",
              expected,
              run.truthTotal("lock_contention_ns"),
              3 * K * T + T * slack(run));
          assertHoldsWereSerialised(run);
        });
  }

  @Test
  void readersShareAndOnlyWaitBehindTheWriter() throws Exception {
    inOneOf(
        () -> {
          ScenarioRunner.Result run = run("rwlock");
          Map<String, Long> contention = run.truthPerKey("lock_contention_ns");
          near("writer-0", (K - 1) * (H - O), get(contention, "writer-0"), 3 * K + slack(run));
          for (int i = 1; i < T; i++) {
            String reader = "reader-" + i;
            near(
                reader, H - i * S + (K - 1) * (H - O), get(contention, reader), 3 * K + slack(run));
            assertEquals(K, get(run.truthPerKey("contended_acquisitions"), reader), reader);
          }
          // Readers hold together: K writer phases and K reader phases, not T·K holds.
          near(
              "main joining",
              2 * K * H,
              get(run.truthPerKey("join_wait_ns"), "main"),
              4 * K + slack(run));
        });
  }

  /** An exclusive lock serialises all holds: the run lasts at least T·K·H. */
  private static void assertHoldsWereSerialised(ScenarioRunner.Result run) {
    long join = get(run.truthPerKey("join_wait_ns"), "main");
    assertTrue(join >= T * K * H * 1e6, "main joined after " + join / 1e6 + " ms");
  }
}
