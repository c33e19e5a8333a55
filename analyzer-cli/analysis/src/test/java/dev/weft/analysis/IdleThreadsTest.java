package dev.weft.analysis;

import static dev.weft.analysis.Check.cause;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.analysis.AnalysisResult.RegionResult;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Idle threads versus limited parallelism, with a team whose size changes between regions: pool
 * workers w1, w2, w3; w3 ends at 400. Region 1 (100..300) has a task for each worker, region 2
 * (500..700) one task for w1.
 */
class IdleThreadsTest {
  @TempDir Path tmp;

  private static final int POOL = 3;

  private AnalysisResult twoRegions() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int par1 = f.region("phase1", ConstructKind.FORK_JOIN_POOL, 70);
    int par2 = f.region("phase2", ConstructKind.FORK_JOIN_POOL, 80);
    int submit = f.region("submit", ConstructKind.FORK_JOIN_TASK, 71);
    int join = f.region("join", ConstructKind.FORK_JOIN_TASK, 72);
    f.pool(POOL, "team", 3);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w1 = f.worker("w1", POOL, 0);
    StreamWriter w2 = f.worker("w2", POOL, 0);
    StreamWriter w3 = f.worker("w3", POOL, 0);

    m.fork(100, par1, POOL, 3);
    m.taskCreate(100, submit, 1, POOL);
    m.taskCreate(100, submit, 2, POOL);
    m.taskCreate(100, submit, 3, POOL);
    m.joinWaitEnter(105, join, 0);
    w1.taskBegin(110, 1);
    w2.taskBegin(120, 2);
    w3.taskBegin(130, 3);
    w3.taskEnd(200, 3);
    w1.taskEnd(250, 1);
    w2.taskEnd(280, 2);
    m.joinWaitExit(290, join);
    m.join(300, par1, POOL);
    w3.threadEnd(400);

    m.fork(500, par2, POOL, 3);
    m.taskCreate(500, submit, 4, POOL);
    m.joinWaitEnter(505, join, 4);
    w1.taskBegin(520, 4);
    w1.taskEnd(650, 4);
    m.joinWaitExit(660, join);
    m.join(700, par2, POOL);

    m.threadEnd(1000);
    w1.threadEnd(1000);
    w2.threadEnd(1000);
    return Analyzer.analyze(f.close(1000));
  }

  @Test
  void idleWhileNothingInFlightIsIdleThreadsAndWhileInFlightLimitedParallelism() {
    AnalysisResult r = twoRegions();
    // exclusive idle_threads (pool has no work): w1 100+200+300, w2 100+500, w3 100+100
    assertEquals(600, Check.property(r, "idle_threads").thread("w1"));
    assertEquals(600, Check.property(r, "idle_threads").thread("w2"));
    assertEquals(200, Check.property(r, "idle_threads").thread("w3"));
    // limited parallelism: w1 250..300 and 650..700; w2 280..300 and all of region 2; w3 200..300
    assertEquals(100, onThread(r, "limited_parallelism", "w1"));
    assertEquals(220, onThread(r, "limited_parallelism", "w2"));
    assertEquals(100, onThread(r, "limited_parallelism", "w3"));
    assertEquals(1400 + 420, severity(r, "idle_threads"));
    assertEquals(420, severity(r, "limited_parallelism"));
    Check.partition(r, Map.of("main", 1000L, "w1", 1000L, "w2", 1000L, "w3", 400L));
    assertEquals(3400, r.timeNs());
  }

  @Test
  void threadManagementIsForkStartUpAndJoinWindDown() {
    AnalysisResult r = twoRegions();
    // fork: w1 10 + 20, w2 20, w3 30; join: 280..290 and 650..660 on main
    assertEquals(80, cause(r, "thread_management", "fork_ns"));
    assertEquals(20, cause(r, "thread_management", "join_ns"));
    assertEquals(30, onThread(r, "thread_management", "w1"));
    assertEquals(20, onThread(r, "thread_management", "main"));
    assertEquals(20, Check.atPath(r, "thread_management", label("phase2", 80)));
    // join waits: 185 - 10 and 155 - 10
    assertEquals(320, onThread(r, "join_wait", "main"));
  }

  @Test
  void workImbalanceUsesTheTeamOfEachRegion() {
    AnalysisResult r = twoRegions();
    RegionResult g1 = Check.region(r, "phase1");
    assertEquals(1, g1.instances());
    assertEquals(Map.of("main", 15L, "w1", 140L, "w2", 160L, "w3", 70L), g1.busyNsByThread());
    assertEquals(round((160 - 96.25) / 96.25), g1.imbalance(), 1e-9);
    assertEquals(4 * 160 - 385, g1.lostNs());
    RegionResult g2 = Check.region(r, "phase2");
    // w3 had ended: not in the second team
    assertEquals(Map.of("main", 45L, "w1", 130L, "w2", 0L), g2.busyNsByThread());
    assertEquals(round((130 - 175 / 3.0) / (175 / 3.0)), g2.imbalance(), 1e-9);
    assertEquals(3 * 130 - 175, g2.lostNs());
    assertEquals(255 + 215, severity(r, "work_imbalance"));
    // each member loses max - own busy: w2 0 in region 1 and 130 in region 2
    assertEquals(130, onThread(r, "work_imbalance", "w2"));
    assertEquals(20, onThread(r, "work_imbalance", "w1"));
    assertEquals(r.regions().get(0), g1); // most time lost first
  }

  @Test
  void taskSummariesAreBusyTimeTakenFromIdleTime() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int par = f.region("phase", ConstructKind.FORK_JOIN_POOL, 70);
    int tasks = f.region("tiny tasks", ConstructKind.FORK_JOIN_TASK, 75);
    f.pool(POOL, "team", 1);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w = f.worker("w", POOL, 0);
    m.fork(100, par, POOL, 1);
    w.taskSummary(300, tasks, POOL, 1000, 150); // 150 ns of short tasks since 0
    m.join(400, par, POOL);
    w.taskSummary(800, tasks, POOL, 10, 50);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    // 0..300: idle 300, 200 of it in flight; 150 busy comes out of the in-flight part first
    // 300..800: idle 500, 100 in flight; 50 busy out of it. 800..1000: 200 idle.
    assertEquals(200, Check.atPath(r, "execution", label("tiny tasks", 75)));
    assertEquals(50 + 50, onThread(r, "limited_parallelism", "w"));
    assertEquals(100 + 400 + 200, Check.property(r, "idle_threads").thread("w"));
    Check.partition(r, Map.of("main", 1000L, "w", 1000L));
  }

  /**
   * A pool that starts a worker per task and retires it after (RxJava's new-thread scheduler):
   * workers w-quick, w-parked and w-older each begin at 100, run one task 130..200 and end at 260.
   * The JVM counted no wait of w-quick: its 30 ns before the task were its start-up and its 60 ns
   * after it its way out, thread management. w-parked waited once somewhere (it could have waited
   * for work then: the trace cannot tell), and w-older has no JVM counts: both stay idle.
   */
  @Test
  void aWorkerThatNeverWaitedSpendsItsStartAndEndInThreadManagement() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int submit = f.region("submit", ConstructKind.EXECUTOR, 20);
    f.pool(POOL, "per-task", 3);
    StreamWriter m = f.thread("main", 0);
    StreamWriter[] workers = {
      f.worker("w-quick", POOL, 100),
      f.worker("w-parked", POOL, 100),
      f.worker("w-older", POOL, 100)
    };
    for (int i = 0; i < workers.length; i++) {
      m.taskCreate(90, submit, i + 1, POOL);
    }
    for (int i = 0; i < workers.length; i++) {
      workers[i].threadBegin(100);
      workers[i].taskBegin(130, i + 1);
      workers[i].taskEnd(200, i + 1);
      workers[i].threadEnd(260);
    }
    f.writer.defineThreadJvmCounts(workers[0].id(), 0, 0);
    f.writer.defineThreadJvmCounts(workers[1].id(), 0, 1);
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(30, cause(r, "thread_management", "worker_start_ns"));
    assertEquals(60, cause(r, "thread_management", "worker_exit_ns"));
    assertEquals(90, onThread(r, "thread_management", "w-quick"));
    assertEquals(30, Check.atPath(r, "thread_management", CallPathTree.WORKER_START_LABEL));
    assertEquals(60, Check.atPath(r, "thread_management", CallPathTree.WORKER_EXIT_LABEL));
    assertEquals(0, onThread(r, "idle_threads", "w-quick"));
    for (String idle : new String[] {"w-parked", "w-older"}) {
      assertEquals(0, onThread(r, "thread_management", idle), idle);
      // before the task: its own task in flight (limited parallelism); after it: nothing left
      assertEquals(30, onThread(r, "limited_parallelism", idle), idle);
      assertEquals(60, onThread(r, "idle_threads", idle), idle); // exclusive
    }
    Check.partition(r, Map.of("main", 1000L, "w-quick", 160L, "w-parked", 160L, "w-older", 160L));
  }

  /**
   * A worker that never waited but never began in the trace (its stream opened while it ran, as at
   * an attach) has no start-up to tell: its time before its first task stays idle; its way out is
   * thread management.
   */
  @Test
  void aWorkerRunningBeforeItsStreamHasNoStartUp() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int submit = f.region("submit", ConstructKind.EXECUTOR, 20);
    f.pool(POOL, "per-task", 1);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w = f.worker("w", POOL, 100);
    m.taskCreate(90, submit, 1, POOL);
    w.taskBegin(130, 1);
    w.taskEnd(200, 1);
    w.threadEnd(260);
    f.writer.defineThreadJvmCounts(w.id(), 0, 0);
    AnalysisResult r = Analyzer.analyze(f.close(1000));
    assertEquals(0, cause(r, "thread_management", "worker_start_ns"));
    assertEquals(60, cause(r, "thread_management", "worker_exit_ns"));
    assertEquals(30, onThread(r, "limited_parallelism", "w")); // its task was in flight
  }

  private static double round(double x) {
    return Math.round(x * 10_000) / 10_000.0;
  }
}
