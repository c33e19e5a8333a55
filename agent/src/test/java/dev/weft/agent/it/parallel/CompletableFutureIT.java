package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agentit.apps.parallel.CompletableFutureApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** supplyAsync(...).thenApplyAsync(...) chains appear as linked tasks, on 17 and 25. */
@Tag("child-jvm")
class CompletableFutureIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void dependentStageIsCreatedInsideItsSource(Path jdk) {
    ParallelRun run = ParallelRun.of(jdk, tmp, "", CompletableFutureApp.class);
    run.assertSameOutput();
    assertEquals("ab\ncd\n", run.traced.stdout().replace("\r", ""));
    int main = ParallelRun.streamNamed(run, "main");

    // Two chains of two tasks: each source is created on main, each dependent inside its source.
    List<Event> creates = run.events(EventKind.TASK_CREATE);
    assertEquals(4, creates.size(), creates.toString());
    Map<Long, Event> createdBy = new HashMap<>();
    for (Event c : creates) {
      createdBy.put(c.get(Field.TASK), c);
    }
    int linked = 0;
    for (Event c : creates) {
      if (c.stream() == main) {
        continue;
      }
      // The creating thread's current task is the parent: find the task open around the create.
      Long parent = run.openTaskAt(c);
      assertNotNull(parent, "dependent created outside a task: " + c);
      Event parentCreate = createdBy.get(parent);
      assertNotNull(parentCreate, "the parent is a traced task");
      assertEquals(main, parentCreate.stream(), "the source was submitted by main");
      Event begin = beginOf(run, c.get(Field.TASK));
      assertNotNull(begin, "the dependent runs");
      assertTrue(begin.time() >= c.time());
      linked++;
    }
    assertEquals(2, linked, "both dependents are linked to their sources");
    assertEquals(2, run.eventsOn(main, EventKind.TASK_CREATE).size());

    for (String marker : List.of("// pool join site", "// default join site")) {
      RegionDef join = run.regionAtLine(ParallelRun.lineOf(CompletableFutureApp.class, marker));
      assertEquals(ConstructKind.COMPLETABLE_FUTURE, join.kind());
      assertEquals("CompletableFuture.join", join.name());
      List<long[]> spans = run.spans(main, join.id());
      assertEquals(1, spans.size());
      assertTrue(spans.get(0)[1] - spans.get(0)[0] >= 80_000_000L, "waits for the sleeping chain");
    }
    assertNotEquals(0, run.events(EventKind.TASK_END).size());
  }

  /**
   * With the common pool's parallelism at 1, JDK 17 runs each async stage without an executor on a
   * thread of its own: the thread's start is recorded where the stage is submitted, so the thread
   * has a lifetime (THREAD_BEGIN before the stage begins) and the analysis a hand-over into it.
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void aThreadStartedPerStageIsStartedWhereTheStageIsSubmitted(Path jdk) {
    ParallelRun run =
        ParallelRun.of(
            jdk,
            tmp,
            "",
            List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=1"),
            CompletableFutureApp.class);
    run.assertSameOutput();
    List<Event> perTask =
        run.events(
            e ->
                e.kind() == EventKind.TASK_CREATE
                    && run.region(e).declaringClass().endsWith("$ThreadPerTaskExecutor"));
    if (ChildJvm.featureVersion(jdk) >= 25) {
      assertEquals(List.of(), perTask, "JDK 25 runs async stages on a pool");
      return;
    }
    assertEquals(2, perTask.size(), "the default chain's two stages: " + perTask);
    for (Event create : perTask) {
      List<Event> starts = run.eventsOn(create.stream(), EventKind.THREAD_CREATE);
      Event start =
          starts.stream()
              .filter(s -> s.time() >= create.time())
              .findFirst()
              .orElseThrow(() -> new AssertionError("no thread started for " + create));
      long child = start.get(Field.THREAD);
      Event begin = beginOf(run, create.get(Field.TASK));
      assertNotNull(begin, "the stage runs");
      assertEquals(child, run.thread(begin.stream()).javaId(), "on the thread started for it");
      List<Event> lifetime = run.eventsOn(begin.stream(), EventKind.THREAD_BEGIN);
      assertEquals(1, lifetime.size(), "the started thread's THREAD_BEGIN");
      assertTrue(lifetime.get(0).time() <= begin.time());
    }
  }

  private static Event beginOf(ParallelRun run, long task) {
    for (Event e : run.events(EventKind.TASK_BEGIN)) {
      if (e.get(Field.TASK) == task) {
        return e;
      }
    }
    return null;
  }
}
