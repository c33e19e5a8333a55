package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskNamesTest {
  private static RegionDef site(String cls, String method, String file, int line) {
    return new RegionDef(
        1, ConstructKind.FORK_JOIN_TASK, "ForkJoinTask.fork", cls, method, file, line, 0);
  }

  @Test
  void userCodeIsAnyClassOutsideTheJdkAndTheAgent() {
    assertTrue(TaskNames.isUserCode(site("org.example.Fib", "compute", "Fib.java", 31)));
    assertFalse(
        TaskNames.isUserCode(site("java.util.concurrent.ForkJoinPool$WorkQueue", "push", "", 0)));
    assertFalse(TaskNames.isUserCode(site("jdk.internal.misc.X", "m", "", 0)));
    assertFalse(TaskNames.isUserCode(site("dev.weft.agent.Hooks", "m", "", 0)));
    assertFalse(TaskNames.isUserCode(site("", "", "", 0)));
    assertFalse(TaskNames.isUserCode(null));
  }

  @Test
  void aTaskIsNamedByTheSimpleClassMethodAndLineOfItsSite() {
    assertEquals(
        "task Fib.compute:31",
        TaskNames.taskName(site("org.example.Fib", "compute", "Fib.java", 31)));
    assertEquals("task Fib", TaskNames.taskName(site("Fib", "", "", 0)));
    assertEquals("task", TaskNames.taskName(null));
  }

  /**
   * A recursive task forks its subtasks inside the JDK, at no user line: each level is named by the
   * task that forked it, so the whole recursion shares one frame, and a task created outside any
   * user code is named by its creation site.
   */
  @Test
  void recursiveForksShareTheFrameOfTheTaskThatForkedThem(@TempDir Path tmp) {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int invoke = f.region("ForkJoinPool.invoke", ConstructKind.FORK_JOIN_POOL, 41);
    int fork =
        f.jdkRegion(
            "ForkJoinTask.fork",
            ConstructKind.FORK_JOIN_TASK,
            "java.util.concurrent.ForkJoinPool$WorkQueue");
    f.pool(1, "fj", 1);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w = f.worker("w", 1, 0);
    m.fork(100, invoke, 1, 1);
    m.joinWaitEnter(100, invoke, 1);
    m.taskCreate(100, invoke, 1, 1);
    w.taskBegin(110, 1);
    w.taskCreate(120, fork, 2, 1); // level 2, forked by task 1
    w.taskBegin(130, 2);
    w.taskCreate(140, fork, 3, 1); // level 3, forked by task 2
    w.taskBegin(150, 3);
    w.taskEnd(250, 3);
    w.taskEnd(300, 2);
    w.taskEnd(400, 1);
    m.joinWaitExit(410, invoke);
    m.join(420, invoke, 1);
    m.taskCreate(500, fork, 4, 1); // outside any user code
    w.taskBegin(510, 4);
    w.taskEnd(600, 4);
    AnalysisResult r = Analyzer.analyze(f.close(700));
    String site = TraceFixture.label("ForkJoinPool.invoke", 41);
    assertEquals(290, Check.atPath(r, "execution", site, TraceFixture.task(41)));
    assertEquals(90, Check.atPath(r, "execution", "task ForkJoinPool$WorkQueue.push"));
  }

  /**
   * A chain of tasks, each submitted from the previous one's run through the same call (a reactive
   * pipeline hopping threads): every task of the chain shares the first one's frame, and the
   * submitting call inside it one frame, however long the chain; the path does not grow by a level
   * per link.
   */
  @Test
  void aChainOfTasksSubmittingTheNextSharesOneFrame(@TempDir Path tmp) {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int submit = f.region("ExecutorService.submit", ConstructKind.EXECUTOR, 142);
    int queue =
        f.jdkRegion(
            "ThreadPoolExecutor.execute",
            ConstructKind.EXECUTOR,
            "java.util.concurrent.ThreadPoolExecutor");
    f.pool(1, "hop", 2);
    StreamWriter m = f.thread("main", 0);
    StreamWriter[] w = {f.worker("w1", 1, 0), f.worker("w2", 1, 0)};
    m.enter(100, submit);
    m.taskCreate(105, queue, 1, 1);
    m.exit(110, submit);
    for (int link = 1; link <= 4; link++) {
      long t = 100 + 100L * link;
      StreamWriter on = w[link % 2];
      on.taskBegin(t, link);
      on.enter(t + 10, submit); // 10 ns of the task's own before it submits the next
      on.taskCreate(t + 15, queue, link + 1, 1);
      on.exit(t + 20, submit);
      on.taskEnd(t + 50, link);
    }
    w[1].taskBegin(600, 5);
    w[1].taskEnd(660, 5);
    AnalysisResult r = Analyzer.analyze(f.close(700));
    String call = TraceFixture.label("ExecutorService.submit", 142);
    String task = TraceFixture.task(142);
    assertEquals(4 * 40 + 60, Check.atPath(r, "execution", call, task));
    assertEquals(4 * 10, Check.atPath(r, "execution", call, task, call));
    assertEquals(0, Check.atPath(r, "execution", call, task, call, task));
  }

  /**
   * An executor that wraps another (Pekko's dispatcher over its fork-join pool, a context-passing
   * wrapper) calls the wrapped one's execute inside its own: one submission, so the inner calls
   * keep the outer call's path, and the task is named by the outer call site, not one frame per
   * layer. A submission inside the task's run is a new one and gets a frame of its own.
   */
  @Test
  void aSubmissionHandedOnByAWrappingExecutorKeepsTheOuterCallsPath(@TempDir Path tmp) {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int outer = f.region("ExecutorService.execute", ConstructKind.EXECUTOR, 143);
    int wrapper = f.region("ExecutorService.execute", ConstructKind.EXECUTOR, 263);
    int inner = f.region("ExecutorService.execute", ConstructKind.EXECUTOR, 47);
    int other = f.region("Work.run", ConstructKind.USER_REGION, 60);
    int queue =
        f.jdkRegion(
            "ForkJoinTask.fork", ConstructKind.FORK_JOIN_TASK, "java.util.concurrent.ForkJoinPool");
    f.pool(1, "dispatcher", 1);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w = f.worker("w", 1, 0);
    m.enter(100, outer);
    m.enter(110, wrapper);
    m.enter(130, inner);
    m.taskCreate(160, queue, 1, 1);
    m.exit(170, inner);
    m.exit(180, wrapper);
    m.exit(200, outer);
    w.taskBegin(300, 1);
    w.enter(310, other); // a region between: the submission inside it is its own
    w.enter(320, outer);
    w.taskCreate(330, queue, 2, 1);
    w.exit(340, outer);
    w.exit(350, other);
    w.taskEnd(400, 1);
    AnalysisResult r = Analyzer.analyze(f.close(500));
    String call = TraceFixture.label("ExecutorService.execute", 143);
    String task = TraceFixture.task(143);
    assertEquals(100, Check.atPath(r, "execution", call));
    assertEquals(
        0, Check.atPath(r, "execution", call, TraceFixture.label("ExecutorService.execute", 263)));
    assertEquals(60, Check.atPath(r, "execution", call, task));
    String work = TraceFixture.label("Work.run", 60);
    assertEquals(20, Check.atPath(r, "execution", call, task, work));
    assertEquals(20, Check.atPath(r, "execution", call, task, work, call));
  }
}
