package dev.weft.analysis;

import static dev.weft.cli.ChildJvms.traceApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.apps.PoolsApp;
import dev.weft.report.TextReport;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pools as servers run them, idle most of the time, are not read as waits: a pool of the program's
 * own whose workers poll their queue for the next task is {@code task_queue_idle}, not a condition
 * wait; a scheduled executor's delayed task and a cancelled idle timeout are neither pool queue
 * wait nor work in flight that would make its idle workers limited parallelism, and its threads
 * waiting for them are {@code timer_idle}; tasks a rejection policy gave up are not queued to the
 * end of the run.
 */
@Tag("child-jvm")
class PoolsIT {
  private static final long MS = 1000;
  private static final long NS = 1_000_000;

  @TempDir Path tmp;

  static Stream<Path> jdks() {
    return HiddenMonitorIT.jdks();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void idlePoolsAreIdleNotWaiting(Path jdk) throws Exception {
    Path trace = tmp.resolve("trace");
    traceApp(jdk, trace, PoolsApp.class, Long.toString(MS));
    AnalysisResult r = Analyzer.analyze(trace);
    String facts = "\n" + TextReport.render(r);

    // Each worker handles a short job every 100 ms (of two): idle nearly all of the run.
    for (String w : new String[] {"own-worker-0", "own-worker-1"}) {
      assertTrue(Check.onThread(r, "task_queue_idle", w) >= MS * NS * 6 / 10, w + facts);
      assertEquals(0, Check.onThread(r, "condition_wait", w), w + facts);
    }
    // The task due MS / 2 ahead and the idle timeout due 60 s ahead (cancelled) waited on
    // purpose: the scheduler's one task run at once waited only for a worker to start. (The other
    // pools' tasks do queue behind their one worker, the longer the busier the host.)
    long schedulerQueued =
        Check.property(r, "pool_queue_wait").causes().entrySet().stream()
            .filter(c -> c.getKey().startsWith("java.util.concurrent.ScheduledThreadPoolExecutor@"))
            .mapToLong(Map.Entry::getValue)
            .sum();
    assertTrue(schedulerQueued < MS * NS / 4, schedulerQueued + facts);
    assertTrue(
        Check.onThreadsStartingWith(r, "limited_parallelism", "scheduler-") < MS * NS / 4, facts);
    // Its two threads wait for a timer nearly all the run (the cancelled timeout stays due later):
    // timer_idle, not idle threads of a program that runs sequentially.
    assertTrue(
        Check.onThreadsStartingWith(r, "timer_idle", "scheduler-") >= 2 * MS * NS * 6 / 10, facts);
    assertTrue(Check.onThreadsStartingWith(r, "idle_threads", "scheduler-") < MS * NS / 4, facts);
    assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("1 tasks ran after a delay")), facts);
    assertTrue(
        r.notes().stream().anyMatch(n -> n.startsWith("1 tasks scheduled with a delay")), facts);
    // The tasks a DiscardOldestPolicy discarded (and the ones it submits again) were given up,
    // not queued to the end; a CallerRunsPolicy's runs are main's tasks.
    assertTrue(r.notes().stream().noneMatch(n -> n.contains("still queued")), facts);
    assertTrue(r.notes().stream().noneMatch(n -> n.contains("created again")), facts);
    assertTrue(r.notes().stream().noneMatch(n -> n.contains("without a recorded")), facts);
  }
}
