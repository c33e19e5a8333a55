package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.CoroutineSchedulerApp;
import dev.weft.agentit.apps.sync.CoroutineSchedulerAttachApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kotlin coroutines' scheduler ({@link CoroutineSchedulerApp}) is recorded as a pool: each task
 * dispatched to it created in it and run by one of its workers, its workers announced as its
 * members, and their parks between tasks idle waits for a next task. Before, its tasks were not
 * seen and its workers' parks were waits for a signal, on the critical path.
 */
@Tag("child-jvm")
class CoroutineSchedulerIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void theSchedulersTasksAndIdleWorkersAreAPools(Path jdk) throws IOException {
    TraceFacts t = SyncTraces.runOn(libraries(), jdk, tmp, "", CoroutineSchedulerApp.class).trace();
    int tasks = CoroutineSchedulerApp.ROUNDS * CoroutineSchedulerApp.TASKS;

    List<Event> created = t.all().stream().filter(e -> e.kind() == EventKind.TASK_CREATE).toList();
    assertEquals(tasks, created.size(), "one creation per task");
    Set<Long> pools = new HashSet<>();
    for (Event e : created) {
      pools.add(e.get(Field.POOL));
    }
    assertEquals(1, pools.size(), "all in one pool: " + pools);
    long pool = pools.iterator().next();
    assertTrue(pool != 0);

    Set<Long> begun = new HashSet<>();
    Set<Long> ended = new HashSet<>();
    int parksAsIdle = 0;
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (!d.name().startsWith("DefaultDispatcher-worker-") || d.isSupplement()) {
        continue;
      }
      assertEquals(pool, d.pool(), d.name() + " is the scheduler's worker");
      for (Event e : t.eventsByStream.get(d.stream())) {
        if (e.kind() == EventKind.TASK_BEGIN) {
          begun.add(e.get(Field.TASK));
        } else if (e.kind() == EventKind.TASK_END) {
          ended.add(e.get(Field.TASK));
        } else if (e.kind() == EventKind.WAIT_ENTER || e.kind() == EventKind.WAIT_ENTER_ON) {
          long kind = e.get(Field.WAIT_KIND);
          assertFalse(kind == WaitKind.PARK, "a worker's park is no wait for a signal: " + e);
          if (kind == WaitKind.NEXT_TASK) {
            parksAsIdle++;
          }
        }
      }
    }
    for (Event e : created) {
      long id = e.get(Field.TASK);
      assertTrue(begun.contains(id) && ended.contains(id), "task " + id + " ran on a worker");
    }
    assertTrue(parksAsIdle > 0, "the workers parked between rounds, as idle waits");
  }

  /**
   * Attached while the scheduler's workers park idle ({@link CoroutineSchedulerAttachApp}): they
   * are put into the trace as the scheduler's workers, the parks open at the attach are idle waits,
   * and the tasks dispatched after it are recorded (their methods are called afresh, so the woven
   * code runs in the workers' loops that began before).
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void attachedWhileItsWorkersParkIdle(Path jdk) throws IOException {
    TraceFacts t =
        RunningWaitsIT.attachTo(
            libraries(),
            jdk,
            CoroutineSchedulerAttachApp.class,
            tmp.resolve("tasks.log"),
            "out=" + tmp.resolve("trace"),
            tmp);
    List<Event> created = t.all().stream().filter(e -> e.kind() == EventKind.TASK_CREATE).toList();
    int tasks = CoroutineSchedulerAttachApp.ROUNDS * CoroutineSchedulerAttachApp.TASKS;
    assertTrue(created.size() >= tasks - 2, created.size() + " tasks created of " + tasks);
    long pool = created.get(0).get(Field.POOL);
    int workers = 0;
    int idleAtAttach = 0;
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (!d.name().startsWith("DefaultDispatcher-worker-")) {
        continue;
      }
      if (!d.isSupplement()) {
        workers++;
        assertEquals(pool, d.pool(), d.name() + " is the scheduler's worker");
      }
      for (Event e : t.eventsByStream.get(d.stream())) {
        if (e.kind() == EventKind.WAIT_ENTER || e.kind() == EventKind.WAIT_ENTER_ON) {
          long kind = e.get(Field.WAIT_KIND);
          assertFalse(kind == WaitKind.PARK, "a worker's park is no wait for a signal: " + e);
          if (d.isSupplement() && kind == WaitKind.NEXT_TASK) {
            idleAtAttach++;
          }
        }
      }
    }
    assertTrue(workers >= 1, "the workers alive at the attach are in the trace");
    assertTrue(idleAtAttach >= 1, "their parks open at the attach are idle waits");
  }

  private static String libraries() throws IOException {
    return ChildJvm.classPath(
        ChildJvm.itLib("kotlinx-coroutines-core-jvm-"), ChildJvm.itLib("kotlin-stdlib-"));
  }
}
