package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.cause;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Waits in a blocking queue's take and put: condition waits of their own kind, at their site. */
class QueueWaitTest {
  @TempDir Path tmp;

  @Test
  void takeAndPutWaitsAreConditionWaitsOfKindQueue() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int take = f.region("BlockingQueue.take", ConstructKind.BLOCKING_QUEUE, 50);
    int put = f.region("BlockingQueue.put", ConstructKind.BLOCKING_QUEUE, 51);
    StreamWriter consumer = f.thread("consumer", 0);
    StreamWriter producer = f.thread("producer", 0);

    consumer.waitEnter(100, take, WaitKind.QUEUE); // waits 250 for an element
    consumer.waitExit(350, take);
    producer.waitEnter(400, put, WaitKind.QUEUE); // waits 100 for room
    producer.waitExit(500, put);
    producer.waitEnter(600, put, WaitKind.QUEUE); // room at once
    producer.waitExit(600, put);
    consumer.threadEnd(1000);
    producer.threadEnd(1000);
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(350, severity(r, "condition_wait"));
    assertEquals(350, cause(r, "condition_wait", "queue_ns"));
    assertEquals(250, onThread(r, "condition_wait", "consumer"));
    assertEquals(100, onThread(r, "condition_wait", "producer"));
    assertEquals(250, atPath(r, "condition_wait", label("BlockingQueue.take", 50)));
    assertEquals(100, atPath(r, "condition_wait", label("BlockingQueue.put", 51)));
    assertEquals(0, severity(r, "delay_cost")); // the waker is not recorded
    Check.partition(r, Map.of("consumer", 1000L, "producer", 1000L));
  }
}
