package dev.weft.analysis;

import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.AnalysisResult.CriticalCallPath;
import dev.weft.analysis.AnalysisResult.CriticalSegment;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CriticalPathTest {
  @TempDir Path tmp;

  private static final int POOL = 1;

  /**
   * main forks three tasks at 100..102 on a pool of three workers and joins at 110; the tasks run
   * 110..1000 (the long branch, on w1), 111..400 and 112..300; main's join returns at 1010 and main
   * ends at 1100. The path: main to the first task's creation (100), the hand-over to w1 (10), w1's
   * task (890), the hand-over back to main (10), main to its end (90).
   */
  @Test
  void forkJoinPathFollowsTheLongBranch() throws Exception {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int par = f.region("ForkJoinPool.invoke", ConstructKind.FORK_JOIN_POOL, 20);
    int fork = f.region("ForkJoinTask.fork", ConstructKind.FORK_JOIN_TASK, 21);
    int join = f.region("ForkJoinTask.join", ConstructKind.FORK_JOIN_TASK, 22);
    f.pool(POOL, "fj", 3);
    StreamWriter m = f.thread("main", 0);
    StreamWriter[] w = {f.worker("w1", POOL, 0), f.worker("w2", POOL, 0), f.worker("w3", POOL, 0)};
    m.fork(90, par, POOL, 3);
    for (int k = 0; k < 3; k++) {
      m.taskCreate(100 + k, fork, k + 1, POOL);
    }
    m.joinWaitEnter(110, join, 1);
    long[] ends = {1000, 400, 300};
    for (int k = 0; k < 3; k++) {
      w[k].taskBegin(110 + k, k + 1);
      w[k].taskEnd(ends[k], k + 1);
    }
    m.joinWaitExit(1010, join);
    m.join(1020, par, POOL);
    m.threadEnd(1100);
    for (StreamWriter s : w) {
      s.threadEnd(1100);
    }
    AnalysisResult r = Analyzer.analyze(f.close(1100));
    AnalysisResult.CriticalPath cp = r.criticalPath();
    assertEquals(1100, cp.lengthNs());
    assertEquals(900, cp.thread("w1")); // hand-over 100..110 and the task 110..1000
    assertEquals(200, cp.thread("main"));
    assertEquals(0, cp.thread("w2"));
    // the task's call path: 900 on the path (hand-over and work); the three tasks ran 890 + 289 +
    // 188 there: balanced over the three workers, the path's 890 of work there would be 455 (the
    // hand-over is no work to balance)
    CriticalCallPath task = find(cp, label("ForkJoinPool.invoke", 20), TraceFixture.task(21));
    assertEquals(900, task.ns());
    assertEquals(890 - (890 + 289 + 188) / 3, task.whatIfNs());
    // the same path in time: who was on it when, where, doing what
    String invoke = label("ForkJoinPool.invoke", 20);
    assertEquals(
        List.of(
            new CriticalSegment("main", 0, 90, List.of(), "work"),
            new CriticalSegment("main", 90, 100, List.of(invoke), "work"),
            new CriticalSegment(
                "w1", 100, 110, List.of(invoke, TraceFixture.task(21)), "hand_over"),
            new CriticalSegment("w1", 110, 1000, List.of(invoke, TraceFixture.task(21)), "work"),
            new CriticalSegment(
                "main", 1000, 1010, List.of(invoke, label("ForkJoinTask.join", 22)), "hand_over"),
            new CriticalSegment("main", 1010, 1020, List.of(invoke), "work"),
            new CriticalSegment("main", 1020, 1100, List.of(), "work")),
        cp.segments());
    AnalysisResult back =
        AnalysisJson.read(
            new java.io.ByteArrayInputStream(
                AnalysisJson.toJson(r).getBytes(java.nio.charset.StandardCharsets.UTF_8)),
            "analysis.json");
    assertEquals(cp, back.criticalPath());
  }

  /**
   * Three threads, three rounds at a barrier; thread i works 900 in round i and 100 in the others,
   * so the path runs through each round's straggler (its 900 of work) and on through the release
   * (100) to the next round's straggler: 1000 on each thread.
   */
  @Test
  void barrierPathRunsThroughEachRoundsLastArrival() {
    AnalysisResult r = Analyzer.analyze(TraceFixture.rotatingStraggler(tmp.resolve("t")));
    AnalysisResult.CriticalPath cp = r.criticalPath();
    assertEquals(3000, cp.lengthNs());
    for (String t : List.of("a", "b", "c")) {
      assertEquals(1000, cp.thread(t), t + " in " + cp);
    }
    assertContiguous(cp);
  }

  /**
   * A notify chain: a works 0..100 and notifies b (monitor M2) at 100; b, waiting in Object.wait
   * since 1, wakes at 110, works to 300 and notifies c (monitor M3); c wakes at 310 and works to
   * 600. The path runs through each thread's work from the notify that woke it: a 100, b 200 (its
   * wake-up latency included), c 300.
   */
  @Test
  void notifyChainHandsOverAtTheNotify() {
    AnalysisResult.CriticalPath cp = Analyzer.analyze(notifyChain()).criticalPath();
    assertEquals(600, cp.lengthNs());
    assertEquals(100, cp.thread("a"), cp.toString());
    assertEquals(200, cp.thread("b"), cp.toString());
    assertEquals(300, cp.thread("c"), cp.toString());
    assertContiguous(cp);
    assertEquals("hand_over", cp.segments().get(1).kind()); // a's notify at 100 to b's wake-up
    assertEquals(110, cp.segments().get(1).endNs());
  }

  /**
   * Two threads pass a lock back and forth 3000 times: 6000 hand-overs, more than the segments
   * written. The oldest are left out and counted; what is written stays contiguous and ends at the
   * run's end.
   */
  @Test
  void pathsWithMoreHandOversThanTheBoundLeaveOutTheOldestAndSaySo() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int lock = f.region("ReentrantLock.lock", ConstructKind.REENTRANT_LOCK, 40);
    StreamWriter[] s = {f.thread("a", 0), f.thread("b", 0)};
    long t = 0;
    s[1].lockRequest(1, lock, 7);
    for (int round = 0; round < 3000; round++) {
      StreamWriter holder = s[round % 2];
      StreamWriter waiter = s[(round + 1) % 2];
      if (round == 0) {
        holder.lockRequest(0, lock, 7);
        holder.lockAcquired(0, 7, 0);
      }
      t += 10;
      holder.lockReleased(t, 7);
      holder.lockRequest(t + 1, lock, 7); // queues behind the waiter
      waiter.lockAcquired(t + 2, 7, 0);
    }
    t += 10;
    s[1].lockReleased(t, 7);
    s[0].lockAcquired(t + 2, 7, 0);
    s[0].lockReleased(t + 3, 7);
    s[0].threadEnd(t + 3);
    s[1].threadEnd(t);
    AnalysisResult.CriticalPath cp = Analyzer.analyze(f.close(t + 3)).criticalPath();
    assertEquals(t + 3, cp.lengthNs());
    assertEquals(AnalysisResult.CriticalPath.MAX_SEGMENTS, cp.segments().size());
    assertTrue(cp.segmentsTruncated() > 0, cp.segmentsTruncated() + " truncated");
    assertContiguous(cp);
    assertEquals(t + 3, cp.segments().get(cp.segments().size() - 1).endNs());
  }

  /**
   * One thread alternates between two regions 5000 times: its oldest segments are merged into their
   * enclosing call path rather than left out, so the path stays complete.
   */
  @Test
  void manyShortSegmentsOfOneThreadMergeIntoTheirEnclosingCallPath() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int outer = f.region("solve", ConstructKind.USER_REGION, 10);
    int[] inner = {
      f.region("step", ConstructKind.USER_REGION, 11),
      f.region("check", ConstructKind.USER_REGION, 12)
    };
    StreamWriter m = f.thread("main", 0);
    m.enter(0, outer);
    long t = 0;
    for (int i = 0; i < 5000; i++) {
      m.enter(t, inner[i % 2]);
      t += 10;
      m.exit(t, inner[i % 2]);
    }
    m.exit(t, outer);
    m.threadEnd(t);
    AnalysisResult.CriticalPath cp = Analyzer.analyze(f.close(t)).criticalPath();
    assertEquals(t, cp.lengthNs());
    assertEquals(0, cp.segmentsTruncated());
    assertTrue(cp.segments().size() <= AnalysisResult.CriticalPath.MAX_SEGMENTS);
    assertTrue(cp.segments().size() > 100, cp.segments().size() + " segments");
    assertContiguous(cp);
    // the oldest are merged at solve; the newest may keep their own call path
    assertEquals(List.of(label("solve", 10)), cp.segments().get(0).path());
    for (CriticalSegment g : cp.segments()) {
      assertEquals(label("solve", 10), g.path().get(0), g.toString());
    }
  }

  /** How thread a waits from 10 until the end of the recording, its wait never ending. */
  enum OpenWait {
    PARK,
    SPIN,
    /** A ReentrantLock b holds to the end. */
    LOCK,
    /** A barrier of two parties b never arrives at. */
    BARRIER,
    /** Thread.join of b (Java id 2), which outlives the recording. */
    JOIN,
    /** Object.wait, which b notifies at 500: a does not wake before the end all the same. */
    NOTIFIED_WAIT
  }

  /**
   * Thread a works 0..10, then waits until the recording ends at 1000, while b works 0..1000 in a
   * region. The end of the recording, not a release, closes a's wait: its cause lies outside the
   * recording, so it is not weighed, and the path is b's work, not a's wait (a, the older stream,
   * would win a tie).
   */
  @ParameterizedTest
  @EnumSource(OpenWait.class)
  void aWaitStillOpenAtTheEndOfTheRecordingIsNotWeighed(OpenWait kind) {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int work = f.region("compute", ConstructKind.USER_REGION, 10);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    b.enter(0, work);
    switch (kind) {
      case PARK ->
          a.waitEnter(10, f.region("LockSupport.park", ConstructKind.PARK, 11), WaitKind.PARK);
      case SPIN -> a.spinEnter(10, f.region("spin", ConstructKind.SPIN, 12));
      case LOCK -> {
        int lock = f.region("ReentrantLock.lock", ConstructKind.REENTRANT_LOCK, 13);
        b.lockRequest(0, lock, 7);
        b.lockAcquired(0, 7, 0);
        a.lockRequest(10, lock, 7);
      }
      case BARRIER -> {
        f.object(100, ConstructKind.CYCLIC_BARRIER, 2);
        a.barrierEnter(
            10, f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 14), 100, 0);
      }
      case JOIN -> a.joinWaitEnter(10, f.region("Thread.join", ConstructKind.THREAD_JOIN, 15), 2);
      case NOTIFIED_WAIT -> {
        int sync = f.region("synchronized", ConstructKind.MONITOR, 16);
        f.object(12, ConstructKind.MONITOR, 0);
        a.lockRequest(0, sync, 12);
        a.lockAcquired(0, 12, 0);
        a.lockReleased(10, 12);
        a.waitEnter(
            10, f.region("Object.wait", ConstructKind.OBJECT_WAIT, 17), WaitKind.OBJECT_WAIT);
        b.lockRequest(500, sync, 12);
        b.lockAcquired(500, 12, 0);
        b.notify(
            500, f.region("Object.notify", ConstructKind.NOTIFY, 18), 12, WaitKind.OBJECT_WAIT);
        b.lockReleased(501, 12);
      }
    }
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(1000));
    assertEquals(1000, cp.lengthNs(), cp.toString());
    assertEquals(1000, cp.thread("b"), cp.toString());
    assertEquals(0, cp.thread("a"), cp.toString());
    assertContiguous(cp);
  }

  /**
   * The same two threads, but a's wait is a sleep that ends at 990, before the recording does, and
   * b begins at 5: the sleep is weighed as a's own, so a's chain (1000) outweighs b's (995).
   */
  @Test
  void aWaitThatEndsBeforeTheEndOfTheRecordingIsStillWeighed() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int work = f.region("compute", ConstructKind.USER_REGION, 10);
    int sleep = f.region("Thread.sleep", ConstructKind.SLEEP, 11);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 5);
    b.enter(5, work);
    a.waitEnter(10, sleep, WaitKind.SLEEP);
    a.waitExit(990, sleep);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(1000));
    assertEquals(1000, cp.lengthNs(), cp.toString());
    assertEquals(1000, cp.thread("a"), cp.toString());
    assertEquals(0, cp.thread("b"), cp.toString());
    assertEquals(
        List.of(
            new CriticalSegment("a", 0, 10, List.of(), "work"),
            new CriticalSegment("a", 10, 990, List.of(label("Thread.sleep", 11)), "wait"),
            new CriticalSegment("a", 990, 1000, List.of(), "work")),
        cp.segments());
  }

  /**
   * Of the threads that ended, only two chains are kept (memory follows the live threads): b
   * (0..100) ends first, then a (0..500), which replaces it, then c (0..500, as heavy as a but
   * defined after it), which does not; d, a daemon (300..600), is still alive at the END record.
   * The run ended when a and c did (the JVM waits for no daemon): a's chain is the path, as if
   * every chain had been kept, the first of the equals that end there.
   */
  @Test
  void theHeaviestEndedThreadsChainIsKeptWhenOthersEnd() throws Exception {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    StreamWriter c = f.thread("c", 0);
    StreamWriter d = f.daemon("d", 0);
    a.threadEnd(500);
    b.threadEnd(100);
    c.threadEnd(500);
    d.threadBegin(300);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(600));
    assertEquals(500, cp.lengthNs());
    assertEquals(500, cp.thread("a"));
    assertEquals(0, cp.thread("c"));
  }

  /**
   * main submits a task to the pool's worker w at 10 (w runs it 15..100, then idles), works to 300
   * and joins w, which its pool stops at 390 (an interrupt or a flag: nothing recorded). w's chain
   * ends in idle time whose end nothing explains, so it is no cause of the join's return: the
   * heavier chain goes on, main's own through its join, not w's idling.
   */
  @Test
  void aWorkerStoppedWhileIdleIsNoCauseOfTheJoinThatWaitedForIt() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int submit = f.region("ThreadPoolExecutor.execute", ConstructKind.EXECUTOR, 30);
    int join = f.region("Thread.join", ConstructKind.THREAD_JOIN, 31);
    f.pool(POOL, "pool", 1);
    StreamWriter main = f.thread("main", 0); // Java id 1
    StreamWriter w = f.worker("w", POOL, 0); // Java id 2
    main.taskCreate(10, submit, 1, POOL);
    w.taskBegin(15, 1);
    w.taskEnd(100, 1);
    main.joinWaitEnter(300, join, 2);
    w.threadEnd(390);
    main.joinWaitExit(395, join);
    main.threadEnd(400);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(400));
    assertContiguous(cp);
    assertEquals(400, cp.lengthNs());
    assertEquals(400, cp.thread("main"), cp.toString());
    assertEquals(0, cp.thread("w"), cp.toString());
  }

  /**
   * The path ends where the run ends. main works 0..600 and ends; at 400 it starts g, which waits
   * for its timer (idle, weighing nothing) until 1420 and ends at 1430: the JVM waited for g, a
   * non-daemon thread, so the run's last 830 are g's and the path is main's up to the start, then
   * g's, although main's chain weighs more. d, a daemon computing until the END record at 1500,
   * weighs most but does not hold the run: the JVM does not wait for it.
   */
  @Test
  void thePathEndsWhereTheLastNonDaemonThreadEnded() {
    AnalysisResult.CriticalPath cp = aThreadEndingAfterMain(WaitKind.TIMER_DUE);
    assertEquals(1430, cp.lengthNs(), cp.toString());
    assertEquals(400, cp.thread("main"), cp.toString());
    assertEquals(1030, cp.thread("g"), cp.toString());
    assertEquals(0, cp.thread("d"), cp.toString());
  }

  /**
   * The same, but g idles waiting for work nothing recorded gave it (as a pool's thread that a flag
   * or an interrupt stops at shutdown): its chain does not show why it ended when it did, so the
   * heaviest chain is the path, as for a hand-over whose cause is unseen: d's.
   */
  @Test
  void aLastThreadIdleForAnUnseenCauseLeavesThePathToTheHeaviestChain() {
    AnalysisResult.CriticalPath cp = aThreadEndingAfterMain(WaitKind.NEXT_TASK);
    assertEquals(1500, cp.lengthNs(), cp.toString());
    assertEquals(1500, cp.thread("d"), cp.toString());
  }

  /**
   * Both alive at the END record (1500, a recording that stopped, as at a detach): main works,
   * idles in a select 1000..1200 that nothing recorded ended (the network), and works on; d, a
   * daemon, waits for its timer 10..1400 and checks something for 10. d's chain shows every cause,
   * main's does not, but the run did not wait for d: the path is main's, the heaviest, and none of
   * d's (before, d's 24 ms chain was the path of an attached Vert.x recording: its blocked-thread
   * checker).
   */
  @Test
  void aDaemonAliveAtTheEndIsNoPathForTheThreadsTheRunWaitedFor() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int select = f.region("Selector.select", ConstructKind.OBJECT_WAIT, 30);
    int timer = f.region("Timer.waitUntilDue", ConstructKind.OBJECT_WAIT, 31);
    StreamWriter main = f.thread("main", 0);
    StreamWriter d = f.daemon("d", 0);
    d.waitEnter(10, timer, WaitKind.TIMER_DUE);
    main.waitEnter(1000, select, WaitKind.SELECT);
    main.waitExit(1200, select);
    d.waitExit(1400, timer);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(1500));
    assertContiguous(cp);
    assertEquals(0, cp.thread("d"), cp.toString());
    assertEquals(cp.lengthNs(), cp.thread("main"), cp.toString());
  }

  private AnalysisResult.CriticalPath aThreadEndingAfterMain(int gWaits) {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int start = f.region("Thread.start", ConstructKind.THREAD_START, 20);
    int wait = f.region("g.idle", ConstructKind.OBJECT_WAIT, 21);
    StreamWriter main = f.thread("main", 0); // Java id 1
    StreamWriter g = f.thread("g", 390); // Java id 2
    f.daemon("d", 0); // records nothing: it executes from its definition to the END record
    main.threadCreate(400, start, 2);
    g.threadBegin(410);
    g.waitEnter(420, wait, gWaits);
    main.threadEnd(600);
    g.waitExit(1420, wait);
    g.threadEnd(1430);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(1500));
    assertContiguous(cp);
    return cp;
  }

  /**
   * main starts worker w at 100 (a Thread.start call site, line 20) and joins it at 110; w begins
   * at 160, works to 900 and ends; main's join returns at 910. The path goes main 0..100, the
   * thread's start-up 100..160 on the path at the start call (not outside every region), w
   * 160..900, the hand-over back, main to its end.
   */
  @Test
  void aThreadsStartUpIsOnThePathAtItsStartCall() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int start = f.region("Thread.start", ConstructKind.THREAD_START, 20);
    int join = f.region("Thread.join", ConstructKind.THREAD_JOIN, 21);
    StreamWriter main = f.thread("main", 0); // Java id 1
    StreamWriter w = f.thread("w", 150); // Java id 2
    main.threadCreate(100, start, 2);
    main.waitEnter(100, start, WaitKind.THREAD_START);
    main.waitExit(105, start);
    main.joinWaitEnter(110, join, 2);
    w.threadBegin(160);
    w.threadEnd(900);
    main.joinWaitExit(910, join);
    main.threadEnd(1000);
    Path trace = f.close(1000);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(trace);
    assertEquals(1000, cp.lengthNs());
    assertEquals(800, cp.thread("w"), "w's work 160..900, and its start-up 100..160");
    assertEquals(
        60,
        cp.byCallpath().stream()
            .filter(c -> c.path().equals(List.of(label("Thread.start", 20))))
            .mapToLong(CriticalCallPath::ns)
            .sum());
    assertContiguous(cp);
    // main's 5 ns in Thread.start are thread management at the start call, not its execution
    AnalysisResult r = Analyzer.analyze(trace);
    assertEquals(5, Check.cause(r, "thread_management", "start_ns"));
    assertEquals(5, Check.atPath(r, "thread_management", label("Thread.start", 20)));
    assertEquals(0, Check.severity(r, "condition_wait"));
    assertEquals(100 + 5 + 90, Check.onThread(r, "execution", "main"));
  }

  /**
   * A library's pool worker waits for its next task on its own monitor (Quartz's: next_task, its
   * release and re-take recorded around it); the scheduler thread works 0..300, creates the task
   * and notifies; the worker re-takes its monitor (10 ns of its own after the wait) and runs the
   * task 320..600. The path goes from the scheduler's work to the task: the worker's idle wait is
   * on no chain, however briefly the worker ran between its wait and the task.
   */
  @Test
  void aTaskHandedToAWorkerIdleOnItsMonitorTakesItOver() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 40);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 41);
    int create = f.region("SimpleThreadPool.runInThread", ConstructKind.EXECUTOR, 42);
    int work = f.region("work", ConstructKind.USER_REGION, 43);
    f.pool(1, "SimpleThreadPool", 1);
    f.object(12, ConstructKind.MONITOR, 0);
    StreamWriter scheduler = f.thread("scheduler", 0);
    StreamWriter worker = f.worker("worker", 1, 0);
    worker.lockRequest(5, sync, 12);
    worker.lockAcquired(5, 12, 0);
    worker.lockReleased(6, 12);
    worker.waitEnter(6, wait, WaitKind.NEXT_TASK);
    scheduler.enter(0, work);
    scheduler.exit(300, work);
    scheduler.taskCreate(300, create, 7, 1);
    scheduler.threadEnd(305);
    worker.waitExit(310, wait);
    worker.lockRequest(310, wait, 12);
    worker.lockAcquired(315, 12, LockFlags.AFTER_WAIT);
    worker.taskBegin(320, 7);
    worker.taskEnd(600, 7);
    worker.lockReleased(600, 12);
    worker.threadEnd(600);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(600));
    assertEquals(300, cp.thread("scheduler"), cp.toString());
    assertEquals(300, cp.thread("worker"), cp.toString());
    for (CriticalSegment g : cp.segments()) {
      assertTrue(
          !g.path().contains(TraceFixture.label("Object.wait", 41)), "idle on the path: " + g);
    }
  }

  /**
   * A dispatcher hands task 1 to the pool's worker at 10 and then waits for its timer (an idle
   * wait, weighing nothing) until 900, when it hands over task 2. The worker runs task 1 15..500,
   * idles, and runs task 2 915..1000. Its earlier task does not keep its idle time on the path (its
   * chain weighs more than the dispatcher's): task 2 began when the dispatcher submitted it, so the
   * path is the dispatcher's until then and the worker's idle stretch is on no chain.
   */
  @Test
  void aWorkersEarlierTaskDoesNotKeepItsIdleTimeOnThePath() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int submit = f.region("ThreadPoolExecutor.execute", ConstructKind.EXECUTOR, 30);
    int due = f.region("Timer.waitUntilDue", ConstructKind.OBJECT_WAIT, 31);
    f.pool(POOL, "pool", 1);
    StreamWriter d = f.thread("dispatcher", 0);
    StreamWriter w = f.worker("worker", POOL, 0);
    d.taskCreate(10, submit, 1, POOL);
    w.taskBegin(15, 1);
    d.waitEnter(20, due, WaitKind.TIMER_DUE);
    w.taskEnd(500, 1);
    d.waitExit(900, due);
    d.taskCreate(910, submit, 2, POOL);
    w.taskBegin(915, 2);
    d.threadEnd(920);
    w.taskEnd(1000, 2);
    w.threadEnd(1000);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(1000));
    assertContiguous(cp);
    assertEquals(1000, cp.lengthNs());
    assertEquals(910, cp.thread("dispatcher"), cp.toString());
    assertEquals(90, cp.thread("worker"), cp.toString());
    assertEquals(
        new CriticalSegment(
            "dispatcher", 20, 900, List.of(label("Timer.waitUntilDue", 31)), "wait"),
        cp.segments().get(1));
  }

  /**
   * a works 0..500 and then waits for a monitor that b, after waiting for its timer (idle, weighing
   * nothing) until 400, holds 400..600; a gets it at 605 and works to 700. a's chain weighs more
   * than b's, but a went on when b released the monitor, and b's chain shows why b came when it did
   * (its timer): the path is b's up to its release, not a's work and wait. Making a's work faster
   * would not shorten the run; b's hold of the monitor would.
   */
  @Test
  void aLockWaitFollowsItsReleaserEvenWhenTheWaiterDidMore() {
    AnalysisResult.CriticalPath cp = lockWaitAfterAnIdleReleaser(WaitKind.TIMER_DUE);
    assertEquals(600, cp.thread("b"), cp.toString());
    assertEquals(100, cp.thread("a"), cp.toString());
    assertEquals(
        new CriticalSegment("a", 600, 605, List.of(label("synchronized", 50)), "hand_over"),
        cp.segments().stream().filter(g -> g.thread().equals("a")).findFirst().orElseThrow());
  }

  /**
   * The same, but b idled waiting for work that nothing recorded handed to it (the network's, a
   * queue whose put the recorder did not see): b's chain no longer shows why b came when it did,
   * perhaps because of a itself. Then the heavier chain goes on, as when no cause is known: a's
   * own, through its wait (which weighs nothing).
   */
  @Test
  void aReleaserIdleForAnUnseenCauseHandsOverOnlyWhenHeavier() {
    AnalysisResult.CriticalPath cp = lockWaitAfterAnIdleReleaser(WaitKind.NEXT_TASK);
    assertEquals(700, cp.thread("a"), cp.toString());
    assertEquals(0, cp.thread("b"), cp.toString());
  }

  private AnalysisResult.CriticalPath lockWaitAfterAnIdleReleaser(int idleKind) {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int idle = f.region("idle", ConstructKind.OBJECT_WAIT, 51);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    b.waitEnter(0, idle, idleKind);
    b.waitExit(400, idle);
    return aWaitsForB(f, a, b, 400);
  }

  /**
   * b holds a monitor from {@code bFrom} to 600 and ends at 650; a, working since 0, waits for it
   * 500..605 and ends at 700, the run's end.
   */
  private AnalysisResult.CriticalPath aWaitsForB(
      TraceFixture f, StreamWriter a, StreamWriter b, long bFrom) {
    int sync = f.region("synchronized", ConstructKind.MONITOR, 50);
    f.object(12, ConstructKind.MONITOR, 0);
    b.lockRequest(bFrom, sync, 12);
    b.lockAcquired(bFrom, 12, 0);
    a.lockRequest(500, sync, 12);
    b.lockReleased(600, 12);
    a.lockAcquired(605, 12, 0);
    b.threadEnd(650);
    a.lockReleased(700, 12);
    a.threadEnd(700);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(700));
    assertContiguous(cp);
    assertEquals(700, cp.lengthNs());
    return cp;
  }

  /**
   * The exception that keeps the path as long as the run: b begins at 300 with no recorded start
   * and holds the monitor 300..600 while a, working since 0, waits for it from 500. b's chain
   * starts later than a's and weighs less: a's own chain goes on through the wait (which lies on no
   * chain's weight), and the path still covers the run.
   */
  @Test
  void aReleaserWhoseChainStartsLaterAndWeighsLessDoesNotCutThePath() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 300);
    AnalysisResult.CriticalPath cp = aWaitsForB(f, a, b, 300);
    assertEquals(700, cp.thread("a"), cp.toString());
    assertEquals(0, cp.thread("b"), cp.toString());
  }

  /**
   * A wait that nothing recorded ended (an Object.wait that timed out) stays on its thread's chain:
   * 500 of waiting at its call path, then 10 of re-taking the monitor there, the one thread's
   * execution there. Balancing work could not shorten the wait: the call path's what-if counts only
   * the path's work there, so 0, not 500 (510 on the path less the mean execution of 10).
   */
  @Test
  void aWaitOnThePathIsNoWorkToBalance() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 50);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 51);
    f.object(13, ConstructKind.MONITOR, 0);
    StreamWriter a = f.thread("a", 0);
    a.lockRequest(0, sync, 13);
    a.lockAcquired(0, 13, 0);
    a.lockReleased(0, 13);
    a.waitEnter(0, wait, WaitKind.OBJECT_WAIT);
    a.waitExit(500, wait);
    a.lockRequest(500, wait, 13);
    a.lockAcquired(510, 13, LockFlags.AFTER_WAIT);
    a.lockReleased(510, 13);
    a.threadEnd(600);
    AnalysisResult.CriticalPath cp = criticalPathEitherWay(f.close(600));
    CriticalCallPath waited = find(cp, label("Object.wait", 51));
    assertEquals(510, waited.ns(), cp.toString());
    assertEquals(0, waited.whatIfNs(), cp.toString());
  }

  /**
   * The critical path of {@code trace}, the same whether it is computed on the replaying thread or
   * on a thread of its own.
   */
  private static AnalysisResult.CriticalPath criticalPathEitherWay(Path trace) {
    AnalysisResult.CriticalPath inline =
        Analyzer.analyze(trace, Analyzer.Options.defaults().withThreads(1)).criticalPath();
    AnalysisResult.CriticalPath threaded =
        Analyzer.analyze(trace, Analyzer.Options.defaults().withThreads(3)).criticalPath();
    assertEquals(inline, threaded, "on the replaying thread, then on its own");
    return inline;
  }

  /**
   * The segments are in time order and contiguous, and their time plus the time left out is the
   * path's length.
   */
  static void assertContiguous(AnalysisResult.CriticalPath cp) {
    long sum = cp.truncatedNs();
    for (int i = 0; i < cp.segments().size(); i++) {
      CriticalSegment g = cp.segments().get(i);
      assertTrue(g.endNs() > g.startNs(), g.toString());
      if (i > 0) {
        assertEquals(cp.segments().get(i - 1).endNs(), g.startNs(), "gap before " + g);
      }
      sum += g.endNs() - g.startNs();
    }
    assertEquals(cp.lengthNs(), sum, "segments against the path's length");
  }

  /**
   * In the same chain, b's wait (1..110) up to a's notify at 100 is charged to a, c's (1..310) up
   * to b's notify at 300 to b: the condition waits minus their wake-up latencies (10 each). Of c's
   * wait, 1..100 was b's own wait for a: a's long-term cost, not b's.
   */
  @Test
  void notifyChainChargesEachWaitToItsNotifier() {
    AnalysisResult r = Analyzer.analyze(notifyChain());
    assertEquals(99, Check.onThread(r, "delay_cost_condition", "a"));
    assertEquals(200, Check.onThread(r, "delay_cost_condition", "b"));
    assertEquals(0, Check.onThread(r, "delay_cost_condition", "c"));
    assertEquals(99, Check.onThread(r, "delay_cost_long_term", "a"));
    assertEquals(Check.severity(r, "condition_wait") - 2 * 10, Check.severity(r, "delay_cost"));
  }

  private Path notifyChain() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 30);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 31);
    int notify = f.region("Object.notify", ConstructKind.NOTIFY, 32);
    long[] monitors = {0, 12, 13};
    f.object(12, ConstructKind.MONITOR, 0);
    f.object(13, ConstructKind.MONITOR, 0);
    StreamWriter[] s = {f.thread("a", 0), f.thread("b", 0), f.thread("c", 0)};
    long[] wakes = {0, 110, 310};
    long[] notifies = {100, 300, -1};
    for (int i = 1; i < 3; i++) {
      s[i].lockRequest(0, sync, monitors[i]);
      s[i].lockAcquired(0, monitors[i], 0);
      s[i].lockReleased(1, monitors[i]);
      s[i].waitEnter(1, wait, WaitKind.OBJECT_WAIT);
    }
    for (int i = 0; i < 3; i++) {
      if (i > 0) {
        s[i].waitExit(wakes[i], wait);
        s[i].lockRequest(wakes[i], sync, monitors[i]);
        s[i].lockAcquired(wakes[i], monitors[i], LockFlags.AFTER_WAIT);
        s[i].lockReleased(wakes[i] + 1, monitors[i]);
      }
      if (i < 2) {
        long t = notifies[i];
        s[i].lockRequest(t, sync, monitors[i + 1]);
        s[i].lockAcquired(t, monitors[i + 1], 0);
        s[i].notify(t, notify, monitors[i + 1], WaitKind.OBJECT_WAIT);
        s[i].lockReleased(t + 1, monitors[i + 1]);
        s[i].threadEnd(t + 1);
      }
    }
    s[2].threadEnd(600);
    return f.close(600);
  }

  private static CriticalCallPath find(AnalysisResult.CriticalPath cp, String... path) {
    for (CriticalCallPath c : cp.byCallpath()) {
      if (c.path().equals(List.of(path))) {
        return c;
      }
    }
    throw new AssertionError("no call path " + List.of(path) + " in " + cp);
  }
}
