package dev.weft.analysis;

import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
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
}
