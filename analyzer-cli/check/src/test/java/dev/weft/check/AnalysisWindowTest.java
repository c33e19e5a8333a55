package dev.weft.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.check.AnalysisFile.CallpathShare;
import dev.weft.check.AnalysisFile.Property;
import dev.weft.check.AnalysisFile.ThreadShare;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnalysisWindowTest {
  private static final List<String> AWAIT =
      List.of("run @ Worker.java:10", "await @ Worker.java:22");
  private static final List<String> LOCK = List.of("run @ Worker.java:10", "lock @ Cache.java:5");

  private static AnalysisFile analysis(long timeNs, long barrierNs, long lockNs) {
    AnalysisFile.TraceInfo trace = new AnalysisFile.TraceInfo("t", timeNs / 4, 4, 100, 0);
    return AnalysisFile.of(
        "t",
        trace,
        timeNs,
        List.of(
            new Property("time", null, "time", timeNs, 100, List.of(), List.of()),
            new Property(
                "barrier_wait",
                "time",
                "barrier wait",
                barrierNs,
                barrierNs * 100.0 / timeNs,
                List.of(new ThreadShare("worker-1", barrierNs)),
                List.of(new CallpathShare(AWAIT, barrierNs))),
            new Property(
                "lock_contention",
                "time",
                "lock contention",
                lockNs,
                lockNs * 100.0 / timeNs,
                List.of(),
                List.of(new CallpathShare(LOCK, lockNs)))));
  }

  @Test
  void sharesAreOfTheTimeBetweenTheTwoAnalyses() {
    // Before: 10 s of time, 1 s at the barrier. After: 14 s, 4 s at the barrier; the lock
    // contention did not change. In the window: 3 s of 4 s at the barrier, no lock contention.
    AnalysisFile w =
        AnalysisWindow.between(
            analysis(10_000_000_000L, 1_000_000_000L, 500_000_000L),
            analysis(14_000_000_000L, 4_000_000_000L, 500_000_000L),
            "test");
    assertEquals(4_000_000_000L, w.timeNs());
    assertEquals(75.0, w.property("barrier_wait").percent(), 1e-9);
    assertEquals(3_000_000_000L, w.property("barrier_wait").severityNs());
    assertEquals(
        List.of(new CallpathShare(AWAIT, 3_000_000_000L)), w.property("barrier_wait").byCallpath());
    assertEquals(0.0, w.property("lock_contention").percent());
    assertEquals(List.of(), w.property("lock_contention").byCallpath());

    CheckResult r =
        Check.run(
            List.of(w),
            List.of(),
            Check.Settings.defaults()
                .withBudgets(Budgets.parse(List.of("barrier_wait=50%"), "test")));
    assertEquals(
        "barrier_wait: 75.00 % of time is over its budget of 50.00 % (worst call path:"
            + " run @ Worker.java:10 > await @ Worker.java:22, at Worker.java:22)",
        r.failures().get(0).message());
  }
}
