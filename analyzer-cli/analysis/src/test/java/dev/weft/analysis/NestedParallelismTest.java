package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NestedParallelismTest {
  @TempDir Path tmp;

  /**
   * main forks an outer region whose task runs on w1; inside it, w1 forks an inner region whose
   * task runs on w2, and waits for it. Everything is attributed under the creating call sites, in
   * the tasks' frames.
   */
  @Test
  void regionInsideATaskIsAttributedUnderTheTask() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int outer = f.region("outer", ConstructKind.PARALLEL_STREAM, 10);
    int inner = f.region("inner", ConstructKind.PARALLEL_STREAM, 20);
    int submitOuter = f.region("submitOuter", ConstructKind.FORK_JOIN_TASK, 11);
    int submitInner = f.region("submitInner", ConstructKind.FORK_JOIN_TASK, 21);
    int joinOuter = f.region("joinOuter", ConstructKind.FORK_JOIN_TASK, 12);
    int joinInner = f.region("joinInner", ConstructKind.FORK_JOIN_TASK, 22);
    f.pool(1, "pool", 2);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w1 = f.worker("w1", 1, 0);
    StreamWriter w2 = f.worker("w2", 1, 0);
    m.fork(100, outer, 1, 2);
    m.taskCreate(100, submitOuter, 1, 1);
    m.joinWaitEnter(100, joinOuter, 1);
    w1.taskBegin(110, 1);
    w1.fork(120, inner, 1, 2);
    w1.taskCreate(130, submitInner, 2, 1);
    w1.joinWaitEnter(140, joinInner, 2);
    w2.taskBegin(150, 2);
    w2.taskEnd(350, 2);
    w1.joinWaitExit(360, joinInner);
    w1.join(370, inner, 1);
    w1.taskEnd(400, 1);
    m.joinWaitExit(410, joinOuter);
    m.join(420, outer, 1);
    AnalysisResult r = Analyzer.analyze(f.close(500));

    String o = label("outer", 10);
    String so = TraceFixture.task(11);
    String i = label("inner", 20);
    String si = TraceFixture.task(21);
    assertEquals(200, atPath(r, "execution", o, so, i, si));
    assertEquals(200, onThread(r, "execution", "w2"));
    // w1 waits for the inner task 140..350, then join management 350..360 (it is the inner master)
    assertEquals(210, atPath(r, "join_wait", o, so, i, label("joinInner", 22)));
    // w1: start-up of the outer region (100..110) and wind-down of the inner one it forked
    assertEquals(20, onThread(r, "thread_management", "w1"));
    assertEquals(10, atPath(r, "thread_management", o, so, i, label("joinInner", 22)));
    // fork start-up: w1 100..110 at outer, w2 120..150 at inner (under the outer task)
    assertEquals(10, atPath(r, "thread_management", o));
    assertEquals(30, atPath(r, "thread_management", o, so, i));
    // main: outer join 100..410, last task ended at 400
    assertEquals(300, onThread(r, "join_wait", "main"));
    assertEquals(10, atPath(r, "thread_management", o, label("joinOuter", 12)));
    // busy in the outer region: main 410..420; w1 its task outside the inner region (10 + 30)
    assertEquals(
        Map.of("main", 10L, "w1", 40L, "w2", 0L), Check.region(r, "outer").busyNsByThread());
    // busy in the inner region: its master w1 (120..140, 360..370) and w2's task; main is not in
    // the team (it is not the pool's worker and did not fork it)
    assertEquals(Map.of("w1", 30L, "w2", 200L), Check.region(r, "inner").busyNsByThread());
    Check.partition(r, Map.of("main", 500L, "w1", 500L, "w2", 500L));
  }
}
