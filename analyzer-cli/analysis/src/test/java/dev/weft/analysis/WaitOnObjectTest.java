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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Waits that name their object (WAIT_ENTER_ON): a consumer's take that names its queue is ended by
 * the producer's hand-over (NOTIFY of kind queue naming that queue), a park that names its thread
 * by an unpark of that thread: the wait is charged to the notifier, and the critical path goes from
 * the notifier's work to the waiter's at the notification.
 */
class WaitOnObjectTest {
  @TempDir Path tmp;

  private static final long QUEUE = 31;
  private static final long OTHER_QUEUE = 32;

  private int traces;

  /**
   * The consumer takes at 100 and wakes at 510; the producer works 0..500 in {@code produce} and
   * offers the element at 500 (its hand-over), then ends; the consumer works to 800.
   */
  private Path handOver(long offeredTo, long extraNotifyAt, int extraNotifyKind) {
    TraceFixture f = TraceFixture.create(tmp.resolve("t" + traces++));
    int produce = f.region("Producer.produce", ConstructKind.USER_REGION, 20);
    int offer = f.region("LinkedBlockingQueue.offer", ConstructKind.NOTIFY, 21);
    int take = f.region("LinkedBlockingQueue.take", ConstructKind.BLOCKING_QUEUE, 22);
    f.object(QUEUE, ConstructKind.BLOCKING_QUEUE, 0);
    f.object(OTHER_QUEUE, ConstructKind.BLOCKING_QUEUE, 0);
    StreamWriter producer = f.thread("producer", 0);
    StreamWriter consumer = f.thread("consumer", 0);
    producer.enter(0, produce);
    consumer.waitEnterOn(100, take, WaitKind.QUEUE, QUEUE);
    if (extraNotifyAt > 0) {
      producer.notify(extraNotifyAt, offer, QUEUE, extraNotifyKind);
    }
    producer.notify(500, offer, offeredTo, WaitKind.QUEUE);
    producer.exit(500, produce);
    producer.threadEnd(500);
    consumer.waitExit(510, take);
    consumer.threadEnd(800);
    return f.close(800);
  }

  @Test
  void aTakeEndedByAnOfferIsChargedToTheProducerAndHandsOverThePath() {
    AnalysisResult r = Analyzer.analyze(handOver(QUEUE, 0, 0));

    assertEquals(410, onThread(r, "condition_wait", "consumer"));
    // The wait up to the offer (100..500) is the producer's cost, at its offer's call path.
    assertEquals(400, onThread(r, "delay_cost_condition", "producer"));
    assertEquals(
        400,
        atPath(
            r,
            "delay_cost_condition",
            label("Producer.produce", 20),
            label("LinkedBlockingQueue.offer", 21)));
    Check.partition(r, Map.of("producer", 500L, "consumer", 800L));

    AnalysisResult.CriticalPath cp = criticalPath(handOver(QUEUE, 0, 0));
    assertEquals(800, cp.lengthNs());
    assertEquals(500, cp.thread("producer"), cp.toString());
    assertEquals(300, cp.thread("consumer"), cp.toString());
    assertEquals("hand_over", cp.segments().get(1).kind(), cp.toString());
    CriticalPathTest.assertContiguous(cp);
  }

  @Test
  void anOfferToAnotherQueueEndsNothing() {
    AnalysisResult r = Analyzer.analyze(handOver(OTHER_QUEUE, 0, 0));

    assertEquals(410, onThread(r, "condition_wait", "consumer"));
    assertEquals(0, severity(r, "delay_cost_condition"));
    // Without a waker the wait stays on the consumer's own chain.
    assertEquals(800, criticalPath(handOver(OTHER_QUEUE, 0, 0)).thread("consumer"));
  }

  @Test
  void aMonitorsNotifyUnderTheQueuesIdEndsNoTake() {
    // The queue's own monitor notified at 300, the offer to another queue at 500: no hand-over.
    AnalysisResult r = Analyzer.analyze(handOver(OTHER_QUEUE, 300, WaitKind.OBJECT_WAIT));

    assertEquals(0, severity(r, "delay_cost_condition"));
  }

  @Test
  void theLatestOfferDuringTheWaitIsTheHandOver() {
    // An offer at 300 and one at 500: the take ended after the second, which is its waker.
    AnalysisResult r = Analyzer.analyze(handOver(QUEUE, 300, WaitKind.QUEUE));

    assertEquals(400, onThread(r, "delay_cost_condition", "producer"));
  }

  @Test
  void aParkEndedByAnUnparkOfItsThreadIsChargedToTheUnparker() {
    TraceFixture f = TraceFixture.create(tmp.resolve("park"));
    int park = f.region("LockSupport.park", ConstructKind.PARK, 30);
    int unpark = f.region("LockSupport.unpark", ConstructKind.NOTIFY, 31);
    long parkerThread = 41;
    long otherThread = 42;
    f.object(parkerThread, ConstructKind.PARK, 0);
    f.object(otherThread, ConstructKind.PARK, 0);
    StreamWriter parker = f.thread("parker", 0);
    StreamWriter waker = f.thread("waker", 0);
    parker.waitEnterOn(100, park, WaitKind.PARK, parkerThread);
    waker.notify(200, unpark, otherThread, WaitKind.PARK); // another thread's unpark
    waker.notify(300, unpark, parkerThread, WaitKind.PARK);
    waker.threadEnd(300);
    parker.waitExit(320, park);
    parker.threadEnd(500);
    AnalysisResult r = Analyzer.analyze(f.close(500));

    assertEquals(220, onThread(r, "condition_wait", "parker"));
    assertEquals(200, onThread(r, "delay_cost_condition", "waker"));
    assertEquals(200, atPath(r, "delay_cost_condition", label("LockSupport.unpark", 31)));
  }

  /** The critical path, the same on the replaying thread and on a thread of its own. */
  private AnalysisResult.CriticalPath criticalPath(Path trace) {
    AnalysisResult.CriticalPath inline =
        Analyzer.analyze(trace, Analyzer.Options.defaults().withThreads(1)).criticalPath();
    AnalysisResult.CriticalPath threaded =
        Analyzer.analyze(trace, Analyzer.Options.defaults().withThreads(3)).criticalPath();
    assertEquals(inline, threaded, "on the replaying thread, then on its own");
    return inline;
  }
}
