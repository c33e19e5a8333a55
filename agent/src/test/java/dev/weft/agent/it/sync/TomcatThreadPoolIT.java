package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.TomcatThreadPoolApp;
import dev.weft.agentit.apps.sync.TomcatThreadPoolAttachApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
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
 * Tomcat's copy of {@code ThreadPoolExecutor} ({@link TomcatThreadPoolApp}) is a pool: its workers
 * (the connector's "exec" threads) are its members, every task created in that pool (a connection's
 * processing: one or more requests, as they come on the kept-alive connection) begins and ends on
 * one of them, and the requests are served inside those tasks (each computes for a millisecond).
 * Before, the requests were no tasks and the workers no pool's.
 */
@Tag("child-jvm")
class TomcatThreadPoolIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void requestsAreTasksOfTheConnectorsPool(Path jdk) throws IOException {
    SyncTraces.Run run = SyncTraces.runOn(libraries(), jdk, tmp, "", TomcatThreadPoolApp.class);
    int requests = TomcatThreadPoolApp.CLIENTS * TomcatThreadPoolApp.REQUESTS;
    assertTrue(run.stdout().contains("served " + requests), run.stdout());
    TraceFacts t = run.trace();

    Set<Integer> workers = new HashSet<>();
    long pool = SyncTraces.poolOfThreads(t, n -> n.contains("-exec-"), workers);
    assertTrue(
        workers.size() <= TomcatThreadPoolApp.MAX_THREADS, "the connector's workers: " + workers);

    List<Event> created =
        t.all().stream()
            .filter(e -> e.kind() == EventKind.TASK_CREATE && e.get(Field.POOL) == pool)
            .toList();
    assertTrue(
        created.size() >= TomcatThreadPoolApp.CLIENTS,
        created.size() + " tasks for " + TomcatThreadPoolApp.CLIENTS + " connections");
    long inTasks = 0;
    Set<Long> begun = new HashSet<>();
    Set<Long> ended = new HashSet<>();
    int idleWaits = 0;
    for (int stream : workers) {
      for (Event e : t.eventsByStream.get(stream)) {
        if (e.kind() == EventKind.TASK_BEGIN) {
          begun.add(e.get(Field.TASK));
          inTasks -= e.time();
        } else if (e.kind() == EventKind.TASK_END) {
          ended.add(e.get(Field.TASK));
          inTasks += e.time();
        } else if ((e.kind() == EventKind.WAIT_ENTER || e.kind() == EventKind.WAIT_ENTER_ON)
            && e.get(Field.WAIT_KIND) == WaitKind.NEXT_TASK) {
          idleWaits++;
        }
      }
    }
    for (Event e : created) {
      long id = e.get(Field.TASK);
      assertTrue(begun.contains(id) && ended.contains(id), "task " + id + " ran on a worker");
    }
    assertTrue(idleWaits > 0, "the workers waited for their next task, as idle waits");
    assertTrue(
        inTasks >= requests * 1_000_000L,
        "the " + requests + " requests' millisecond each ran in tasks: " + inTasks + " ns");
  }

  /**
   * Attached while the workers serve requests ({@link TomcatThreadPoolAttachApp}): the workers
   * alive at the attach are the pool's, and the tasks created in it after the attach are begun and
   * ended on them, although their task loops began before it (the hooks in beforeExecute and
   * afterExecute report them). Before, those tasks were created and never begun: thousands of tasks
   * queued to the end of the recording.
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void attachedWhileItsWorkersServe(Path jdk) throws IOException {
    Path log = tmp.resolve("served.log");
    TraceFacts t =
        RunningWaitsIT.attachTo(
            libraries(),
            jdk,
            TomcatThreadPoolAttachApp.class,
            log,
            "out=" + tmp.resolve("trace"),
            tmp);
    assertTrue(java.nio.file.Files.readString(log).startsWith("served "));
    Set<Integer> workers = new HashSet<>();
    long pool = SyncTraces.poolOfThreads(t, n -> n.contains("-exec-"), workers);
    assertEquals(TomcatThreadPoolAttachApp.THREADS, workers.size(), "the workers: " + workers);

    Set<Long> created = SyncTraces.tasksCreatedIn(t, pool);
    Set<Long> begun = new HashSet<>();
    for (int stream : workers) {
      for (Event e : t.eventsByStream.get(stream)) {
        if (e.kind() == EventKind.TASK_BEGIN) {
          begun.add(e.get(Field.TASK));
        }
      }
    }
    Set<Long> notBegun = new HashSet<>(created);
    notBegun.removeAll(begun);
    assertTrue(created.size() > 20, created.size() + " tasks created in two seconds");
    // At most one per worker and client can be in flight at the detach.
    assertTrue(
        notBegun.size() <= TomcatThreadPoolAttachApp.THREADS + TomcatThreadPoolAttachApp.CLIENTS,
        notBegun.size() + " of " + created.size() + " tasks never begun on the pool's workers");
  }

  private static String libraries() throws IOException {
    return ChildJvm.classPath(
        ChildJvm.itLib("tomcat-embed-core-"), ChildJvm.itLib("tomcat-annotations-api-"));
  }
}
