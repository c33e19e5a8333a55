package dev.weft.analysis;

import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** delay_cost_join: a join's wait charged to the thread that ran the awaited task. */
class DelayCostJoinTest {
  private static final int POOL = 1;

  @TempDir Path tmp;

  /**
   * main invokes task 1 and waits 100..820; fj-1 runs task 1, forks task 2 and joins it 300..710;
   * fj-2 runs task 2 (220..700). fj-1's wait is charged to fj-2 up to task 2's end (400, hand-over
   * 10); main's join_wait (700: its last 20, after the last task, is thread management) to fj-1,
   * except the part in which fj-1 itself waited for fj-2 (300..700): fj-2's long-term cost.
   */
  @Test
  void aJoinIsChargedToTheRunnerOfTheAwaitedTaskUpToItsEnd() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int invoke = f.region("ForkJoinPool.invoke", ConstructKind.FORK_JOIN_POOL, 63);
    int fork = f.region("ForkJoinTask.fork", ConstructKind.FORK_JOIN_TASK, 120);
    int joinSite = f.region("ForkJoinTask.join", ConstructKind.FORK_JOIN_TASK, 127);
    f.pool(POOL, "fj-pool", 2);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w1 = f.worker("fj-1", POOL, 0);
    StreamWriter w2 = f.worker("fj-2", POOL, 0);
    m.fork(100, invoke, POOL, 1);
    m.joinWaitEnter(100, invoke, 1);
    m.taskCreate(100, invoke, 1, POOL);
    w1.taskBegin(200, 1);
    w1.taskCreate(210, fork, 2, POOL);
    w2.taskBegin(220, 2);
    w1.joinWaitEnter(300, joinSite, 2);
    w2.taskEnd(700, 2);
    w1.joinWaitExit(710, joinSite);
    w1.taskEnd(800, 1);
    m.joinWaitExit(820, invoke);
    m.join(830, invoke, POOL);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    assertEquals(400, onThread(r, "delay_cost_join", "fj-2"));
    assertEquals(300, onThread(r, "delay_cost_join", "fj-1"));
    assertEquals(400, onThread(r, "delay_cost_long_term", "fj-2"));
    assertEquals(0, onThread(r, "delay_cost_join", "main"));
    assertEquals(410, onThread(r, "join_wait", "fj-1"));
    assertEquals(700, onThread(r, "join_wait", "main"));
    // The short-term costs sum to the join waits they explain, less the hand-over latency (10).
    assertEquals(severity(r, "join_wait") - 10, severity(r, "delay_cost"));
  }

  /**
   * A recording that ends while joins still wait (attached for a while): main's Thread.join of a
   * producer still running and a worker's Future.get of a task still running on another worker are
   * charged to those runners up to the end, at the producer's root and the task's call path; a join
   * whose target is unknown is not charged to whichever thread happens to be alive then.
   */
  @Test
  void aJoinStillOpenAtTheEndIsChargedToWhatWasStillRunning() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int join = f.region("Thread.join", ConstructKind.THREAD_JOIN, 40);
    int submit = f.region("ExecutorService.submit", ConstructKind.EXECUTOR, 30);
    int get = f.region("Future.get", ConstructKind.FUTURE_GET, 31);
    int step = f.region("step", ConstructKind.USER_REGION, 50);
    f.pool(POOL, "pool", 2);
    StreamWriter m = f.thread("main", 0);
    StreamWriter producer = f.thread("producer", 0); // Java id 2 (main has 1)
    StreamWriter w1 = f.worker("pool-1", POOL, 0);
    StreamWriter w2 = f.worker("pool-2", POOL, 0);
    StreamWriter other = f.thread("other", 0);
    m.joinWaitEnter(100, join, 2); // the producer's Java id
    producer.enter(150, step);
    w1.taskCreate(200, submit, 7, POOL);
    w2.taskBegin(210, 7);
    w1.joinWaitEnter(300, get, 7);
    other.joinWaitEnter(400, get, 0); // target unknown
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    assertEquals(900, onThread(r, "delay_cost_join", "producer"));
    assertEquals(700, onThread(r, "delay_cost_join", "pool-2"));
    assertEquals(0, onThread(r, "delay_cost_join", "main"));
    assertEquals(0, onThread(r, "delay_cost_join", "other"));
    assertEquals(0, onThread(r, "delay_cost_join", "pool-1"));
    assertEquals(900 + 700 + 600, severity(r, "join_wait"));
  }

  /** A join whose task ended before the wait began was not delayed by it: nothing is charged. */
  @Test
  void aJoinOnATaskThatAlreadyEndedIsNotCharged() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int submit = f.region("ExecutorService.submit", ConstructKind.EXECUTOR, 30);
    int get = f.region("Future.get", ConstructKind.FUTURE_GET, 31);
    f.pool(POOL, "pool", 1);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w = f.worker("pool-1", POOL, 0);
    m.taskCreate(100, submit, 1, POOL);
    w.taskBegin(110, 1);
    w.taskEnd(200, 1);
    m.joinWaitEnter(300, get, 1);
    m.joinWaitExit(305, get);
    AnalysisResult r = Analyzer.analyze(f.close(400));
    assertEquals(0, severity(r, "delay_cost_join"));
  }
}
