package dev.weft.analysis;

import static dev.weft.cli.ChildJvms.traceApp;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.apps.TimerApp;
import dev.weft.report.TextReport;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@code java.util.Timer}'s thread between its tasks is idle, as a pool's worker waiting for its
 * next task: its waits are {@code task_queue_idle} while no task is scheduled and {@code
 * timer_idle} while one is not yet due, it is not named as off the CPU in something unrecorded, and
 * it lies on no chain of the critical path although it lived longer than the threads that computed
 * (it was the whole critical path when its waits counted as execution).
 */
@Tag("child-jvm")
class TimerIT {
  private static final long MS = 600;

  @TempDir Path tmp;

  static Stream<Path> jdks() {
    return HiddenMonitorIT.jdks();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void aTimersThreadIsIdleBetweenItsTasks(Path jdk) throws Exception {
    Path trace = tmp.resolve("trace");
    traceApp(jdk, trace, TimerApp.class, Long.toString(MS));

    AnalysisResult r = Analyzer.analyze(trace);
    String facts = "\n" + TextReport.render(r);
    long ms = MS * 1_000_000L;
    // No task scheduled (Object.wait()) and a task not yet due (Object.wait(timeout)).
    assertTrue(Check.onThread(r, "task_queue_idle", "idle-timer") >= ms * 8 / 10, facts);
    assertTrue(Check.onThread(r, "timer_idle", "checker-timer") >= ms * 7 / 10, facts);
    assertTrue(Check.onThread(r, "timer_idle", "idle-timer") == 0, facts);
    for (String timer : List.of("idle-timer", "checker-timer")) {
      assertTrue(Check.onThread(r, "condition_wait", timer) == 0, timer + facts);
      for (String note : r.notes()) {
        assertFalse(note.contains(" off the CPU for ") && note.contains(timer), note + facts);
      }
      for (AnalysisResult.CriticalThread t : r.criticalPath().byThread()) {
        assertFalse(t.thread().equals(timer), timer + facts);
      }
    }
    // The jobs lie on the critical path.
    long jobs =
        r.criticalPath().byThread().stream()
            .filter(t -> t.thread().equals("worker"))
            .mapToLong(AnalysisResult.CriticalThread::ns)
            .sum();
    assertTrue(jobs >= ms * 9 / 10, facts);
  }
}
