package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agentit.apps.parallel.NestedApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Parallel streams point at the user's line; nested regions and tasks have the right parents. */
@Tag("child-jvm")
class NestedIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void regionsPointAtTheCallAndNestedTasksHaveTheirParents(Path jdk) {
    ParallelRun run = ParallelRun.of(jdk, tmp, "", NestedApp.class);
    run.assertSameOutput();
    int main = ParallelRun.streamNamed(run, "main");
    Map<Long, Event> created = new HashMap<>();
    for (Event c : run.events(EventKind.TASK_CREATE)) {
      created.put(c.get(Field.TASK), c);
    }
    for (Event b : run.events(EventKind.TASK_BEGIN)) {
      assertNotNull(created.get(b.get(Field.TASK)), "every task begun was created: " + b);
    }

    // The outer stream: a region on main at the line of the terminal call, on the common pool.
    RegionDef outer = region(run, "// outer stream");
    assertEquals(ConstructKind.PARALLEL_STREAM, outer.kind());
    assertEquals("NestedApp.java", outer.file());
    assertEquals("main", outer.method());
    List<Event> outerForks = forksOf(run, outer);
    assertEquals(1, outerForks.size());
    assertEquals(main, outerForks.get(0).stream());
    PoolDef common = run.trace.definitions.pool((int) outerForks.get(0).get(Field.POOL));
    assertEquals("ForkJoinPool.commonPool", common.name());
    assertTrue(tasksCreatedWithin(run, outerForks.get(0)) > 0, "the stream forks tasks");

    // The stream inside a fork-join task: forked by a worker while it runs that task, in its pool.
    RegionDef inner = region(run, "// inner stream");
    List<Event> innerForks = forksOf(run, inner);
    assertEquals(1, innerForks.size());
    Event innerFork = innerForks.get(0);
    Long outerTask = run.openTaskAt(innerFork);
    assertNotNull(outerTask, "the inner stream is forked inside the task");
    assertEquals(main, created.get(outerTask).stream(), "that task was submitted by main");
    PoolDef pool = run.trace.definitions.pool((int) innerFork.get(Field.POOL));
    assertEquals(2, pool.parallelism(), "the inner stream runs in the task's pool");
    assertEquals(pool.id(), run.thread(innerFork.stream()).pool());
    assertTrue(tasksCreatedWithin(run, innerFork) > 0, "the inner stream forks tasks");

    // A fork-join computation inside a thread-pool task: its region and root task lie inside the
    // executor task, whose parent is main's submission.
    RegionDef invoke = region(run, "// executor fork");
    List<Event> invokes = forksOf(run, invoke);
    assertEquals(1, invokes.size());
    Event fork = invokes.get(0);
    Long executorTask = run.openTaskAt(fork);
    assertNotNull(executorTask, "forked inside the executor task");
    assertEquals(main, created.get(executorTask).stream());
    assertEquals(
        ConstructKind.EXECUTOR, run.region(created.get(executorTask)).kind(), "a pool task");
    List<Event> roots = tasksCreatedIn(run, fork);
    assertTrue(!roots.isEmpty());
    assertEquals(executorTask, run.openTaskAt(roots.get(0)), "the root task's parent");
  }

  private static RegionDef region(ParallelRun run, String marker) {
    int line = ParallelRun.lineOf(NestedApp.class, marker);
    List<RegionDef> found =
        run.trace.definitions.regions().stream()
            .filter(r -> r.firstLine() == line && r.kind() != ConstructKind.FUTURE_GET)
            .filter(r -> r.kind() != ConstructKind.EXECUTOR)
            .toList();
    assertEquals(1, found.size(), found::toString);
    return found.get(0);
  }

  private static List<Event> forksOf(ParallelRun run, RegionDef r) {
    return run.events(e -> e.kind() == EventKind.FORK && e.get(Field.REGION) == r.id());
  }

  /** Tasks created on the fork's stream between the fork and its join. */
  private static List<Event> tasksCreatedIn(ParallelRun run, Event fork) {
    List<Event> out = new java.util.ArrayList<>();
    boolean in = false;
    for (Event e : run.trace.eventsByStream.get(fork.stream())) {
      if (e.equals(fork)) {
        in = true;
      } else if (in
          && e.kind() == EventKind.JOIN
          && e.get(Field.REGION) == fork.get(Field.REGION)) {
        return out;
      } else if (in && e.kind() == EventKind.TASK_CREATE) {
        out.add(e);
      }
    }
    throw new AssertionError("fork without join: " + fork);
  }

  private static int tasksCreatedWithin(ParallelRun run, Event fork) {
    return tasksCreatedIn(run, fork).size();
  }
}
