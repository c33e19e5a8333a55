package dev.weft.analysis;

import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.report.TextReport;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PoolQueueWaitTest {
  @TempDir Path tmp;

  @Test
  void queueWaitIsReportedPerPoolAndPerSubmittingThread() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int submitIo = f.region("io.submit", ConstructKind.EXECUTOR, 90);
    int submitCpu = f.region("cpu.submit", ConstructKind.EXECUTOR, 91);
    f.pool(1, "io", 1);
    f.pool(2, "cpu", 1);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    StreamWriter io = f.worker("io-1", 1, 0);
    StreamWriter cpu = f.worker("cpu-1", 2, 0);
    a.taskCreate(100, submitIo, 1, 1);
    b.taskCreate(110, submitIo, 2, 1);
    a.taskCreate(120, submitCpu, 3, 2);
    io.taskBegin(150, 1); // 50
    io.taskEnd(200, 1);
    io.taskBegin(210, 2); // 100
    io.taskEnd(300, 2);
    cpu.taskBegin(420, 3); // 300
    cpu.taskEnd(500, 3);
    a.taskCreate(900, submitCpu, 4, 2); // still queued at the end (1000): 100
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    assertEquals(550, severity(r, "pool_queue_wait"));
    assertEquals(Map.of("io", 150L, "cpu", 400L), Check.property(r, "pool_queue_wait").causes());
    assertEquals(450, onThread(r, "pool_queue_wait", "a"));
    assertEquals(100, onThread(r, "pool_queue_wait", "b"));
    assertEquals(400, Check.atPath(r, "pool_queue_wait", label("cpu.submit", 91)));
    assertTrue(
        r.notes().stream().anyMatch(n -> n.startsWith("1 tasks were still queued")),
        r.notes().toString());
    // queue wait is a latency, not thread time: not part of the time tree
    Check.partition(r, Map.of("a", 1000L, "b", 1000L, "io-1", 1000L, "cpu-1", 1000L));
  }

  /**
   * A task scheduled with a delay (created at a delayed_task region) waits until it is due on
   * purpose: that is no queue wait, nor work in flight that would make the pool's idle workers
   * limited parallelism; one cancelled or not yet due at the end is not "still queued".
   */
  @Test
  void aDelayedTasksWaitUntilDueIsNeitherQueueWaitNorWorkInFlight() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int now = f.region("ScheduledThreadPoolExecutor.delayedExecute", ConstructKind.EXECUTOR, 0);
    int later =
        f.region(
            "ScheduledThreadPoolExecutor.delayedExecute (delayed)", ConstructKind.DELAYED_TASK, 0);
    f.pool(1, "scheduler", 2);
    StreamWriter main = f.thread("main", 0);
    StreamWriter w1 = f.worker("scheduler-1", 1, 0);
    StreamWriter w2 = f.worker("scheduler-2", 1, 0);
    main.taskCreate(100, now, 1, 1); // due now: 50 in the queue
    w1.taskBegin(150, 1);
    w1.taskEnd(200, 1);
    main.taskCreate(100, later, 2, 1); // due at 600, begun at once then
    w1.taskBegin(600, 2);
    w1.taskEnd(700, 2);
    main.taskCreate(100, later, 3, 1); // cancelled, or due after the end
    for (StreamWriter s : List.of(main, w1, w2)) {
      s.threadEnd(1000);
    }
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(50, severity(r, "pool_queue_wait"));
    // In flight: the first task 100..200, the delayed one 600..700; w2 idle in flight for 200.
    // Waiting for a timer (nothing in flight, a delayed task pending): 200..600 and 700..1000.
    assertEquals(200, onThread(r, "limited_parallelism", "scheduler-2"));
    assertEquals(700, onThread(r, "timer_idle", "scheduler-2"));
    assertEquals(100, onThread(r, "idle_threads", "scheduler-2")); // its own part: 0..100
    assertTrue(
        r.notes().stream().anyMatch(n -> n.startsWith("1 tasks ran after a delay")),
        r.notes().toString());
    assertTrue(
        r.notes().stream().anyMatch(n -> n.startsWith("1 tasks scheduled with a delay")),
        r.notes().toString());
    assertFalse(r.notes().stream().anyMatch(n -> n.contains("still queued")), r.notes().toString());
  }

  @Test
  void queueWaitIsTaskTimeWithPerTaskFiguresNeverAShareOfTime() throws Exception {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int submit = f.region("submit", ConstructKind.EXECUTOR, 90);
    int other = f.region("other.submit", ConstructKind.EXECUTOR, 95);
    f.pool(1, "cpu", 1);
    StreamWriter a = f.thread("a", 0);
    StreamWriter w = f.worker("cpu-1", 1, 0);
    // 20 tasks queued at once behind one worker: latencies 10, 20, ..., 200; their sum (2100)
    // is more than the run's CPU allocation time (2 threads x 1000).
    for (int i = 1; i <= 20; i++) {
      a.taskCreate(100, i == 20 ? other : submit, i, 1);
    }
    for (int i = 1; i <= 20; i++) {
      w.taskBegin(100 + 10L * i, i);
      w.taskEnd(105 + 10L * i, i);
    }
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    AnalysisResult.PropertyResult p = Check.property(r, "pool_queue_wait");
    assertEquals(2100, p.severityNs());
    assertEquals("task_ns", p.unit());
    assertEquals(0.0, p.percent());
    assertTrue(!p.threadTime());
    AnalysisResult.LatencyFigures all = p.latency().all();
    assertEquals(20, all.tasks());
    assertEquals(105, all.meanNs());
    assertEquals(200, all.maxNs());
    // the 19th of 20 latencies is 190, within the histogram's 6.25 %
    assertTrue(Math.abs(all.p95Ns() - 190) <= 12, "p95 " + all.p95Ns());
    assertEquals(List.of("cpu"), p.latency().byPool().stream().map(l -> l.pool()).toList());
    AnalysisResult.PathLatency first = p.latency().byCallpath().get(0);
    assertEquals(List.of(label("submit", 90)), first.path());
    assertEquals(19, first.tasks());
    assertEquals(200, p.latency().byCallpath().get(1).maxNs());

    // Wide enough that the note is on one line.
    String text = TextReport.render(r, TextReport.MAX_WIDTH);
    assertFalse(text.contains("== pool_queue_wait"), text); // never ranked with thread waits
    assertTrue(text.contains("task time, not a share of CPU time"), text);
    assertTrue(text.contains("Pool queue wait (task latency"), text);
    for (String line : text.split("\n")) {
      if (line.contains("pool_queue_wait")) {
        assertFalse(line.contains("%"), line);
      }
    }
    // read back from JSON, the figures survive
    AnalysisResult back =
        AnalysisJson.read(
            new java.io.ByteArrayInputStream(
                AnalysisJson.toJson(r).getBytes(java.nio.charset.StandardCharsets.UTF_8)),
            "analysis.json");
    assertEquals(p.latency(), back.property("pool_queue_wait").latency());
    assertEquals("task_ns", back.property("pool_queue_wait").unit());
  }
}
