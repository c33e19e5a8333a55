package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code java.util.Timer}'s thread is idle between its tasks: waiting until its first scheduled
 * task is due (wait kind timer_due) is {@code timer_idle}, waiting while none is scheduled
 * (next_task) is {@code task_queue_idle}; neither is a condition wait, and neither lies on a chain
 * of the critical path, although the timer lives longest.
 */
class TimerDueTest {
  private static final String TIMER_THREAD = "java.util.TimerThread";

  @TempDir Path tmp;

  @Test
  void aTimersWaitsForItsTasksAreIdleTime() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int due = f.jdkRegion("Timer.waitUntilDue", ConstructKind.OBJECT_WAIT, TIMER_THREAD);
    int none = f.jdkRegion("Timer.waitForTask", ConstructKind.OBJECT_WAIT, TIMER_THREAD);
    StreamWriter timer = f.thread("timer", 0);
    StreamWriter main = f.thread("main", 0);

    timer.waitEnter(0, none, WaitKind.NEXT_TASK); // nothing scheduled until 100
    timer.waitExit(100, none);
    timer.waitEnter(110, due, WaitKind.TIMER_DUE); // a task due at 500
    timer.waitExit(500, due);
    timer.waitEnter(520, due, WaitKind.TIMER_DUE); // its next run, due at 990
    timer.waitExit(990, due);
    main.threadEnd(600);
    timer.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(860, severity(r, "timer_idle"));
    assertEquals(860, onThread(r, "timer_idle", "timer"));
    assertEquals(860, atPath(r, "timer_idle", "Timer.waitUntilDue @ " + TIMER_THREAD));
    assertEquals(100, severity(r, "task_queue_idle"));
    assertEquals(100, atPath(r, "task_queue_idle", "Timer.waitForTask @ " + TIMER_THREAD));
    assertEquals(960, severity(r, "idle_threads"));
    assertEquals(0, severity(r, "condition_wait"));
    Check.partition(r, Map.of("timer", 1000L, "main", 600L));

    // The timer's chain weighs its 40 of work; main's weighs its 600.
    List<AnalysisResult.CriticalThread> path = r.criticalPath().byThread();
    assertEquals(1, path.size(), path.toString());
    assertEquals("main", path.get(0).thread());
  }
}
