package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.cause;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Join wait, thread management, task call paths and pool queue wait on fork-join traces. */
class ForkJoinTest {
  @TempDir Path tmp;

  private static final int POOL = 1;

  /**
   * Master m forks a region on a pool with one worker w: creates t1 (110) and t2 (120), joins at
   * 130; inside the join it runs t2 itself (150..250) and helps (260..280); w runs t1 (140..390);
   * the join ends at 400, JOIN at 410.
   */
  private AnalysisResult joinWithHelping() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int solve = f.region("solve", ConstructKind.USER_REGION, 10);
    int par = f.region("IntStream.forEach", ConstructKind.PARALLEL_STREAM, 50);
    int submit = f.region("ForkJoinTask.fork", ConstructKind.FORK_JOIN_TASK, 51);
    int joinSite = f.region("ForkJoinTask.join", ConstructKind.FORK_JOIN_TASK, 52);
    int help = f.region("ForkJoinPool.helpQuiesce", ConstructKind.FORK_JOIN_POOL, 53);
    int body = f.region("Main.chunk", ConstructKind.TRACED_METHOD, 60);
    f.pool(POOL, "fj-pool", 1);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w = f.worker("fj-1", POOL, 0);
    m.enter(50, solve);
    m.fork(100, par, POOL, 2);
    m.taskCreate(110, submit, 1, POOL);
    m.taskCreate(120, submit, 2, POOL);
    m.joinWaitEnter(130, joinSite, 1);
    w.taskBegin(140, 1);
    w.enter(145, body);
    m.taskBegin(150, 2);
    m.taskEnd(250, 2);
    m.helpEnter(260, help);
    m.helpExit(280, help);
    w.exit(385, body);
    w.taskEnd(390, 1);
    m.joinWaitExit(400, joinSite);
    m.join(410, par, POOL);
    m.exit(500, solve);
    m.threadEnd(1000);
    w.threadEnd(1000);
    return Analyzer.analyze(f.close(1000));
  }

  @Test
  void joinWaitExcludesTasksRunAndHelpingInsideTheJoin() {
    AnalysisResult r = joinWithHelping();
    // join 130..400 = 270, minus task 100 and help 20 = 150; of it 390..400 is join management
    assertEquals(140, onThread(r, "join_wait", "main"));
    assertEquals(
        140,
        atPath(
            r,
            "join_wait",
            label("solve", 10),
            label("IntStream.forEach", 50),
            label("ForkJoinTask.join", 52)));
    assertEquals(10, cause(r, "thread_management", "join_ns"));
    assertEquals(10, onThread(r, "thread_management", "main"));
  }

  @Test
  void forkStartUpIsCarvedOutOfTheWorkersIdleTime() {
    AnalysisResult r = joinWithHelping();
    // w idle 0..140: pool busy from the fork at 100; 100..140 is start-up of the region
    assertEquals(40, cause(r, "thread_management", "fork_ns"));
    assertEquals(40, onThread(r, "thread_management", "fj-1"));
    assertEquals(
        40, atPath(r, "thread_management", label("solve", 10), label("IntStream.forEach", 50)));
    // w idle 390..1000: in flight until the JOIN at 410
    assertEquals(20, onThread(r, "limited_parallelism", "fj-1"));
    assertEquals(100 + 590, Check.property(r, "idle_threads").thread("fj-1"));
    assertEquals(710, severity(r, "idle_threads"));
    Check.partition(r, Map.of("main", 1000L, "fj-1", 1000L));
  }

  @Test
  void tasksAreAttributedUnderTheCallSiteThatCreatedThem() {
    AnalysisResult r = joinWithHelping();
    String solve = label("solve", 10);
    String par = label("IntStream.forEach", 50);
    String submit = TraceFixture.task(51);
    // t1 ran on the worker (5 + 5 outside Main.chunk), t2 (100) on the master inside its join:
    // both in the frame of the tasks created at main's solve > forEach > fork site
    assertEquals(110, atPath(r, "execution", solve, par, submit));
    assertEquals(240, atPath(r, "execution", solve, par, submit, label("Main.chunk", 60)));
    assertEquals(250, onThread(r, "execution", "fj-1"));
    // helping is the master's execution at the help call site under the join
    assertEquals(
        20,
        atPath(
            r,
            "execution",
            solve,
            par,
            label("ForkJoinTask.join", 52),
            label("ForkJoinPool.helpQuiesce", 53)));
  }

  @Test
  void poolQueueWaitIsSubmissionToStartAtTheCreationSite() {
    AnalysisResult r = joinWithHelping();
    // t1 110 -> 140, t2 120 -> 150
    assertEquals(60, severity(r, "pool_queue_wait"));
    assertEquals(60, onThread(r, "pool_queue_wait", "main"));
    assertEquals(
        60,
        atPath(
            r,
            "pool_queue_wait",
            label("solve", 10),
            label("IntStream.forEach", 50),
            label("ForkJoinTask.fork", 51)));
    assertEquals(Map.of("fj-pool", 60L), Check.property(r, "pool_queue_wait").causes());
  }

  /**
   * A CountedCompleter forks itself while it runs and goes on with the other half (the JDK's
   * parallel streams do it at every other split): main submits task 1 (110), fj-1 runs it
   * (120..200) and forks it again (150) with a new task 2 (160); fj-2 runs task 1 again (230..300),
   * fj-1 runs task 2 (210..280); main's join ends at 310.
   */
  private AnalysisResult forkedAgainWhileRunning() {
    TraceFixture f = TraceFixture.create(tmp.resolve("refork"));
    int solve = f.region("solve", ConstructKind.USER_REGION, 10);
    int par = f.region("IntStream.forEach", ConstructKind.PARALLEL_STREAM, 50);
    int submit = f.region("ForkJoinTask.fork", ConstructKind.FORK_JOIN_TASK, 51);
    int joinSite = f.region("ForkJoinTask.join", ConstructKind.FORK_JOIN_TASK, 52);
    f.pool(POOL, "fj-pool", 2);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w1 = f.worker("fj-1", POOL, 0);
    StreamWriter w2 = f.worker("fj-2", POOL, 0);
    m.enter(50, solve);
    m.fork(100, par, POOL, 2);
    m.taskCreate(110, submit, 1, POOL);
    m.joinWaitEnter(115, joinSite, 1);
    w1.taskBegin(120, 1);
    w1.taskCreate(150, submit, 1, POOL);
    w1.taskCreate(160, submit, 2, POOL);
    w1.taskEnd(200, 1);
    w1.taskBegin(210, 2);
    w2.taskBegin(230, 1);
    w1.taskEnd(280, 2);
    w2.taskEnd(300, 1);
    m.joinWaitExit(310, joinSite);
    m.join(320, par, POOL);
    m.exit(400, solve);
    m.threadEnd(1000);
    w1.threadEnd(1000);
    w2.threadEnd(1000);
    return Analyzer.analyze(f.close(1000));
  }

  @Test
  void aTaskForkedAgainWhileItRunsRunsTwiceFromItsCreations() {
    AnalysisResult r = forkedAgainWhileRunning();
    assertEquals(List.of(), r.notes(), "no task began without a creation, no id reused");
    // queued 110 -> 120, 150 -> 230 (the second run), 160 -> 210
    assertEquals(10 + 80 + 50, severity(r, "pool_queue_wait"));
    assertEquals(10, onThread(r, "pool_queue_wait", "main"));
    assertEquals(130, onThread(r, "pool_queue_wait", "fj-1"));
    // both runs in the frame of the tasks created under solve > forEach, none of unknown origin
    String solve = label("solve", 10);
    String par = label("IntStream.forEach", 50);
    assertEquals(70, Check.property(r, "execution").thread("fj-2"));
    assertEquals(80 + 70 + 70, atPath(r, "execution", solve, par, TraceFixture.task(51)));
    // fj-2 idle 0..230 while task 1 was queued or running: in flight from the FORK on (100..230;
    // of it 100..230 before its first task in the region is start-up); after 300 the region is
    // still open until the JOIN at 320
    Check.partition(r, Map.of("main", 1000L, "fj-1", 1000L, "fj-2", 1000L));
  }

  /**
   * ForkJoinPool.invoke records FORK, JOIN_WAIT and TASK_CREATE at one call site; forks inside the
   * tasks are recorded inside the JDK. The call paths name no JDK frame: the root task and its
   * subtasks run in one task frame named by the user's call site, under {@code invoke @
   * Main.java:63}.
   */
  @Test
  void taskCallPathsNameUserCodeOnce() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int invoke = f.region("ForkJoinPool.invoke", ConstructKind.FORK_JOIN_POOL, 63);
    int fork =
        f.jdkRegion(
            "ForkJoinTask.fork",
            ConstructKind.FORK_JOIN_TASK,
            "java.util.concurrent.ForkJoinPool$WorkQueue");
    int joinSite = f.region("ForkJoinTask.join", ConstructKind.FORK_JOIN_TASK, 127);
    f.pool(POOL, "fj-pool", 1);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w = f.worker("fj-1", POOL, 0);
    m.fork(100, invoke, POOL, 1);
    m.joinWaitEnter(110, invoke, 1);
    m.taskCreate(120, invoke, 1, POOL);
    w.taskBegin(200, 1);
    w.taskCreate(210, fork, 2, POOL);
    w.joinWaitEnter(300, joinSite, 2);
    w.taskBegin(310, 2);
    w.taskEnd(400, 2);
    w.joinWaitExit(410, joinSite);
    w.taskEnd(500, 1);
    m.joinWaitExit(600, invoke);
    m.join(610, invoke, POOL);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    String site = label("ForkJoinPool.invoke", 63);
    // main in its fork frame (100..110, 600..610); the worker's task 1 (200..300, 410..500) and
    // task 2 (310..400), forked inside the JDK, in one frame named by the user's invoke
    assertEquals(20, atPath(r, "execution", site));
    assertEquals(280, atPath(r, "execution", site, TraceFixture.task(63)));
    assertEquals(
        10 + 10,
        atPath(r, "join_wait", site, TraceFixture.task(63), label("ForkJoinTask.join", 127)));
    for (AnalysisResult.PropertyResult p : r.properties()) {
      for (AnalysisResult.CallPathSeverity c : p.byCallpath()) {
        assertEquals(c.path().stream().distinct().count(), c.path().size(), c.path().toString());
        assertTrue(c.path().stream().noneMatch(l -> l.contains("java.util")), c.path().toString());
      }
    }
  }
}
