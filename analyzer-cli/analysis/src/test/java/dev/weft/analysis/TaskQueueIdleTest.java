package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
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
 * A worker of a pool of the program's own waiting on its queue for its next task (wait kind
 * next_task) is idle ({@code task_queue_idle}, a child of {@code idle_threads}, on no chain of the
 * critical path), not a consumer waiting for a producer ({@code condition_wait}, which a queue wait
 * of any other element stays).
 */
class TaskQueueIdleTest {
  @TempDir Path tmp;

  @Test
  void aWorkersTakeOfItsNextTaskIsIdleTimeNotAConditionWait() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int jobs = f.region("BlockingQueue.poll", ConstructKind.BLOCKING_QUEUE, 70);
    int items = f.region("BlockingQueue.take", ConstructKind.BLOCKING_QUEUE, 71);
    StreamWriter worker = f.thread("pool-worker", 0);
    StreamWriter consumer = f.thread("consumer", 0);

    worker.waitEnter(0, jobs, WaitKind.NEXT_TASK); // idle for 600, the longest wait of all
    worker.waitExit(600, jobs);
    worker.waitEnter(700, jobs, WaitKind.NEXT_TASK); // and 250 more
    worker.waitExit(950, jobs);
    consumer.waitEnter(100, items, WaitKind.QUEUE); // a consumer's wait for an item: 300
    consumer.waitExit(400, items);
    worker.threadEnd(1000);
    consumer.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(850, severity(r, "task_queue_idle"));
    assertEquals(850, severity(r, "idle_threads")); // its parent's inclusive value
    assertEquals(0, severity(r, "limited_parallelism"));
    assertEquals(850, onThread(r, "task_queue_idle", "pool-worker"));
    assertEquals(850, atPath(r, "task_queue_idle", label("BlockingQueue.poll", 70)));
    assertEquals(300, severity(r, "condition_wait"));
    assertEquals(300, onThread(r, "condition_wait", "consumer"));
    Check.partition(r, Map.of("pool-worker", 1000L, "consumer", 1000L));

    // The worker's chain weighs its 150 of work: its idle time lies on no chain. The consumer's
    // weighs 1000 (its wait has no recorded waker: its own).
    List<AnalysisResult.CriticalThread> path = r.criticalPath().byThread();
    assertEquals(1, path.size(), path.toString());
    assertEquals("consumer", path.get(0).thread());
  }
}
