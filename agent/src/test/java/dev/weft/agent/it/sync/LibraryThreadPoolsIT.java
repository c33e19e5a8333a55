package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.JBossThreadPoolApp;
import dev.weft.agentit.apps.sync.JBossThreadPoolAttachApp;
import dev.weft.agentit.apps.sync.JettyThreadPoolApp;
import dev.weft.agentit.apps.sync.JettyThreadPoolAttachApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Libraries' own pools, each woven as a pool: jboss-threads' {@code EnhancedQueueExecutor} (XNIO's
 * and so Undertow's; {@link JBossThreadPoolApp}) and Jetty's {@code QueuedThreadPool} ({@link
 * JettyThreadPoolApp}). Their workers are the pool's members, every task submitted to it begins and
 * ends on one of them, a task it rejects is withdrawn, and a worker's wait for its next task is
 * idle, not a park; attached, the same for the workers alive then. Before, an Undertow server's
 * workers spent 41 % of a recording in condition_wait (their park for a next task), and neither
 * server's requests were tasks: no pool queue wait, no hand-over from the thread that dispatched
 * them.
 */
@Tag("child-jvm")
class LibraryThreadPoolsIT {
  @TempDir Path tmp;

  /**
   * A library's pool and its two apps: {@code prefix} names its workers; {@code idleAtAttach} says
   * whether a worker's wait for its next task open at an attach is recorded as one (else it is left
   * out, as an idle worker's time is).
   */
  record Pool(
      String name,
      Class<?> app,
      Class<?> attachApp,
      String prefix,
      int maxThreads,
      int tasks,
      int attachThreads,
      boolean idleAtAttach,
      String createdAt,
      List<String> libraries) {
    @Override
    public String toString() {
      return name;
    }

    String classPath() throws IOException {
      List<Path> jars = new ArrayList<>();
      for (String prefix : libraries) {
        jars.add(ChildJvm.itLib(prefix));
      }
      return ChildJvm.classPath(jars.toArray(Path[]::new));
    }
  }

  static final Pool JBOSS =
      new Pool(
          "jboss-threads",
          JBossThreadPoolApp.class,
          JBossThreadPoolAttachApp.class,
          "eqe-worker-",
          JBossThreadPoolApp.MAX_THREADS,
          JBossThreadPoolApp.TASKS,
          JBossThreadPoolAttachApp.THREADS,
          true,
          "org.jboss.threads.EnhancedQueueExecutor.execute",
          List.of(
              "jboss-threads-",
              "jboss-logging-",
              "smallrye-common-constraint-",
              "smallrye-common-cpu-"));

  static final Pool JETTY =
      new Pool(
          "jetty",
          JettyThreadPoolApp.class,
          JettyThreadPoolAttachApp.class,
          "qtp-",
          JettyThreadPoolApp.MAX_THREADS,
          JettyThreadPoolApp.TASKS,
          JettyThreadPoolAttachApp.THREADS,
          false,
          "org.eclipse.jetty.util.thread.QueuedThreadPool.execute",
          List.of("jetty-util-", "slf4j-api-"));

  static List<Arguments> pools() {
    List<Arguments> out = new ArrayList<>();
    for (Path jdk : SyncTraces.jdks()) {
      for (Pool p : List.of(JBOSS, JETTY)) {
        out.add(Arguments.of(p, jdk));
      }
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("pools")
  void tasksRunOnThePoolsWorkersWhichIdleBetweenThem(Pool p, Path jdk) throws IOException {
    SyncTraces.Run run = SyncTraces.runOn(p.classPath(), jdk, tmp, "", p.app());
    assertTrue(run.stdout().contains("rejected\nran " + p.tasks()), run.stdout());
    ranOnItsWorkers(run.trace(), p);
  }

  @ParameterizedTest
  @MethodSource("pools")
  void attachedWhileItsWorkersRunTasks(Pool p, Path jdk) throws IOException {
    Path log = tmp.resolve("ran.log");
    TraceFacts t =
        RunningWaitsIT.attachTo(
            p.classPath(), jdk, p.attachApp(), log, "out=" + tmp.resolve("trace"), tmp);
    assertTrue(Files.readString(log).startsWith("ran "));
    ranOnItsWorkersAttached(t, p.prefix(), p.attachThreads(), p.idleAtAttach());
  }

  /**
   * Recorded from the start: the threads named {@code prefix}… (at most {@code maxThreads}) are one
   * pool's workers; {@code tasks} tasks of a millisecond each were created in it (at its {@code
   * execute}, as the region of their creation says) and ran on them, and one more, which it
   * rejected, was withdrawn on the thread that submitted it; the workers waited for their next task
   * as idle waits, never as parks or spin waits.
   */
  private static void ranOnItsWorkers(TraceFacts t, Pool p) {
    String prefix = p.prefix();
    int maxThreads = p.maxThreads();
    int tasks = p.tasks();
    Set<Integer> workers = new HashSet<>();
    long pool = SyncTraces.poolOfThreads(t, n -> n.startsWith(prefix), workers);
    assertTrue(workers.size() <= maxThreads, "the workers: " + workers);

    Set<Long> created = SyncTraces.tasksCreatedIn(t, pool);
    for (Event e : t.all()) {
      if (e.kind() == EventKind.TASK_CREATE && e.get(Field.POOL) == pool) {
        RegionDef site = SyncTraces.regionOf(t, e);
        assertEquals(
            p.createdAt(), site.declaringClass() + "." + site.method(), "where tasks are made");
      }
    }
    // Where each task began and ended: on a worker, or (withdrawn) on the rejecting thread.
    Map<Long, Integer> begunOn = new HashMap<>();
    Set<Long> ended = new HashSet<>();
    long inTasks = 0;
    int idleWaits = 0;
    int parks = 0;
    int spins = 0;
    int uncreated = 0;
    for (Map.Entry<Integer, List<Event>> s : t.eventsByStream.entrySet()) {
      boolean worker = workers.contains(s.getKey());
      for (Event e : s.getValue()) {
        if (e.kind() == EventKind.TASK_BEGIN && !created.contains(e.get(Field.TASK))) {
          uncreated++;
        } else if (e.kind() == EventKind.TASK_BEGIN) {
          begunOn.put(e.get(Field.TASK), s.getKey());
          inTasks -= worker ? e.time() : 0;
        } else if (e.kind() == EventKind.TASK_END && created.contains(e.get(Field.TASK))) {
          ended.add(e.get(Field.TASK));
          inTasks += worker ? e.time() : 0;
        } else if (worker
            && (e.kind() == EventKind.WAIT_ENTER || e.kind() == EventKind.WAIT_ENTER_ON)) {
          idleWaits += e.get(Field.WAIT_KIND) == WaitKind.NEXT_TASK ? 1 : 0;
          parks += e.get(Field.WAIT_KIND) == WaitKind.PARK ? 1 : 0;
        } else if (worker && e.kind() == EventKind.SPIN_ENTER) {
          spins++; // the tasks compute without spinning
        }
      }
    }
    assertEquals(tasks + 1, created.size(), "tasks created in the pool");
    assertEquals(created, ended, "every task ended");
    assertEquals(
        0, uncreated, "tasks begun that no one created (the pool's own wake-ups at its stop)");
    long onWorkers = begunOn.values().stream().filter(workers::contains).count();
    assertEquals(tasks, onWorkers, "tasks run on the workers: " + begunOn);
    assertEquals(created, begunOn.keySet(), "the rejected task is withdrawn, begun at once");
    assertTrue(idleWaits > 0, "the workers waited for their next task, as idle waits");
    assertEquals(0, parks, "a worker's wait for its next task is no park");
    assertEquals(0, spins, "a worker spinning for its next task is idle, not in a spin wait");
    assertTrue(
        inTasks >= tasks * 1_000_000L,
        "the tasks' millisecond each ran in tasks: " + inTasks + " ns");
  }

  /**
   * Attached while the workers ran tasks: the {@code threads} threads named {@code prefix}… alive
   * at the attach are one pool's, the tasks created in it after the attach began on them (but for
   * one per worker and the one being submitted at the detach), and no wait of theirs, open at the
   * attach or after, is a park. With {@code idleAtAttach}, a worker's wait for its next task open
   * at the attach is recorded as one (in its supplement stream); else such a wait is left out, as
   * an idle worker's time is.
   */
  private static void ranOnItsWorkersAttached(
      TraceFacts t, String prefix, int threads, boolean idleAtAttach) {
    Set<Integer> workers = new HashSet<>();
    long pool = SyncTraces.poolOfThreads(t, n -> n.startsWith(prefix), workers);
    assertEquals(threads, workers.size(), "the workers: " + workers);

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
    int idleOpen = 0;
    int otherOpen = 0;
    int parks = 0;
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (!d.name().startsWith(prefix)) {
        continue;
      }
      for (Event e : t.eventsByStream.getOrDefault(d.stream(), List.of())) {
        if (e.kind() == EventKind.WAIT_ENTER || e.kind() == EventKind.WAIT_ENTER_ON) {
          boolean idle = e.get(Field.WAIT_KIND) == WaitKind.NEXT_TASK;
          parks += e.get(Field.WAIT_KIND) == WaitKind.PARK ? 1 : 0;
          idleOpen += d.isSupplement() && idle ? 1 : 0;
          otherOpen += d.isSupplement() && !idle ? 1 : 0;
        }
      }
    }
    Set<Long> notBegun = new HashSet<>(created);
    notBegun.removeAll(begun);
    assertTrue(created.size() > 100, created.size() + " tasks created in two seconds");
    assertTrue(
        notBegun.size() <= threads + 1,
        notBegun.size() + " of " + created.size() + " tasks never begun on the pool's workers");
    assertEquals(0, parks, "a worker's wait for its next task is no park, at the attach or after");
    assertEquals(0, otherOpen, "the workers' waits open at the attach were waits for a task");
    if (idleAtAttach) {
      assertTrue(idleOpen > 0, "a worker was parked for its next task at the attach: idle");
    } else {
      assertEquals(0, idleOpen, "an idle worker's wait at the attach is its idle time");
    }
  }
}
