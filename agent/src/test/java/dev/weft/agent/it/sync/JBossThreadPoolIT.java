package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.JBossThreadPoolApp;
import dev.weft.agentit.apps.sync.JBossThreadPoolAttachApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * jboss-threads' {@code EnhancedQueueExecutor} ({@link JBossThreadPoolApp}) is a pool: its workers
 * are its members, every task submitted to it begins and ends on one of them, a task it rejects is
 * withdrawn, and a worker's park for its next task is idle, not a wait to be signalled. Before, an
 * Undertow server's workers spent 41 % of a recording in condition_wait (that park), and no request
 * was a task.
 */
@Tag("child-jvm")
class JBossThreadPoolIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void tasksRunOnThePoolsWorkersWhichIdleBetweenThem(Path jdk) throws IOException {
    SyncTraces.Run run = SyncTraces.runOn(libraries(), jdk, tmp, "", JBossThreadPoolApp.class);
    assertTrue(run.stdout().contains("rejected\nran " + JBossThreadPoolApp.TASKS), run.stdout());
    TraceFacts t = run.trace();

    Set<Integer> workers = new HashSet<>();
    long pool = SyncTraces.poolOfThreads(t, n -> n.startsWith("eqe-worker-"), workers);
    assertTrue(workers.size() <= JBossThreadPoolApp.MAX_THREADS, "the workers: " + workers);

    Set<Long> created = SyncTraces.tasksCreatedIn(t, pool);
    // Where each task began and ended: on a worker, or (withdrawn) on the rejecting thread.
    Map<Long, Integer> begunOn = new HashMap<>();
    Set<Long> ended = new HashSet<>();
    long inTasks = 0;
    int idleWaits = 0;
    int parks = 0;
    for (Map.Entry<Integer, List<Event>> s : t.eventsByStream.entrySet()) {
      boolean worker = workers.contains(s.getKey());
      for (Event e : s.getValue()) {
        if (e.kind() == EventKind.TASK_BEGIN && created.contains(e.get(Field.TASK))) {
          begunOn.put(e.get(Field.TASK), s.getKey());
          inTasks -= worker ? e.time() : 0;
        } else if (e.kind() == EventKind.TASK_END && created.contains(e.get(Field.TASK))) {
          ended.add(e.get(Field.TASK));
          inTasks += worker ? e.time() : 0;
        } else if (worker
            && (e.kind() == EventKind.WAIT_ENTER || e.kind() == EventKind.WAIT_ENTER_ON)) {
          idleWaits += e.get(Field.WAIT_KIND) == WaitKind.NEXT_TASK ? 1 : 0;
          parks += e.get(Field.WAIT_KIND) == WaitKind.PARK ? 1 : 0;
        }
      }
    }
    assertEquals(JBossThreadPoolApp.TASKS + 1, created.size(), "tasks created in the pool");
    assertEquals(created, ended, "every task ended");
    long onWorkers = begunOn.values().stream().filter(workers::contains).count();
    assertEquals(JBossThreadPoolApp.TASKS, onWorkers, "tasks run on the workers: " + begunOn);
    assertEquals(created, begunOn.keySet(), "the rejected task is withdrawn, begun at once");
    assertTrue(idleWaits > 0, "the workers waited for their next task, as idle waits");
    assertEquals(0, parks, "a worker's wait for its next task is no park");
    assertTrue(
        inTasks >= JBossThreadPoolApp.TASKS * 1_000_000L,
        "the tasks' millisecond each ran in tasks: " + inTasks + " ns");
  }

  /**
   * Attached while the workers run tasks ({@link JBossThreadPoolAttachApp}): the workers alive at
   * the attach are the pool's, the tasks submitted after it begin and end on them, and a worker
   * parked for its next task at the attach is idle, not parked.
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void attachedWhileItsWorkersRunTasks(Path jdk) throws IOException {
    Path log = tmp.resolve("ran.log");
    TraceFacts t =
        RunningWaitsIT.attachTo(
            libraries(),
            jdk,
            JBossThreadPoolAttachApp.class,
            log,
            "out=" + tmp.resolve("trace"),
            tmp);
    assertTrue(Files.readString(log).startsWith("ran "));
    Set<Integer> workers = new HashSet<>();
    long pool = SyncTraces.poolOfThreads(t, n -> n.startsWith("eqe-worker-"), workers);
    assertEquals(JBossThreadPoolAttachApp.THREADS, workers.size(), "the workers: " + workers);

    Set<Long> created = SyncTraces.tasksCreatedIn(t, pool);
    Set<Long> begun = new HashSet<>();
    for (int stream : workers) {
      for (Event e : t.eventsByStream.get(stream)) {
        if (e.kind() == EventKind.TASK_BEGIN) {
          begun.add(e.get(Field.TASK));
        }
      }
    }
    // The waits open at the attach are in the workers' supplement streams (OpenWaits).
    int idleAtAttach = 0;
    int parks = 0;
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (!d.name().startsWith("eqe-worker-")) {
        continue;
      }
      for (Event e : t.eventsByStream.getOrDefault(d.stream(), List.of())) {
        if (e.kind() == EventKind.WAIT_ENTER || e.kind() == EventKind.WAIT_ENTER_ON) {
          parks += e.get(Field.WAIT_KIND) == WaitKind.PARK ? 1 : 0;
          idleAtAttach += d.isSupplement() && e.get(Field.WAIT_KIND) == WaitKind.NEXT_TASK ? 1 : 0;
        }
      }
    }
    assertTrue(idleAtAttach > 0, "a worker was parked for its next task at the attach: idle");
    Set<Long> notBegun = new HashSet<>(created);
    notBegun.removeAll(begun);
    assertTrue(created.size() > 100, created.size() + " tasks created in two seconds");
    // At most one per worker, and the one being submitted, can be in flight at the detach.
    assertTrue(
        notBegun.size() <= JBossThreadPoolAttachApp.THREADS + 1,
        notBegun.size() + " of " + created.size() + " tasks never begun on the pool's workers");
    assertEquals(0, parks, "a worker's wait for its next task is no park, at the attach or after");
  }

  private static String libraries() throws IOException {
    return ChildJvm.classPath(
        ChildJvm.itLib("jboss-threads-"),
        ChildJvm.itLib("jboss-logging-"),
        ChildJvm.itLib("smallrye-common-constraint-"),
        ChildJvm.itLib("smallrye-common-cpu-"));
  }
}
