package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.QuartzThreadPoolApp;
import dev.weft.agentit.apps.sync.QuartzThreadPoolAttachApp;
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
 * Quartz's own pool ({@link QuartzThreadPoolApp}) is a pool: every job the scheduler hands to a
 * worker is a task created in the pool and run on one of its workers, the workers are its members,
 * their waits for a job are idle ({@code next_task}), and the scheduler thread's waits for its next
 * trigger are a timer's ({@code timer_due}). Before, the workers' waits were waits for a signal,
 * charged to the scheduler thread, and no job was a task.
 */
@Tag("child-jvm")
class QuartzThreadPoolIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void jobsAreTasksOfThePoolAndItsThreadsWaitIdle(Path jdk) throws IOException {
    TraceFacts t = SyncTraces.runOn(libraries(), jdk, tmp, "", QuartzThreadPoolApp.class).trace();
    int runs = QuartzThreadPoolApp.JOBS * QuartzThreadPoolApp.FIRINGS;

    List<Event> created = t.all().stream().filter(e -> e.kind() == EventKind.TASK_CREATE).toList();
    assertEquals(runs, created.size(), "one task per firing");
    Set<Long> pools = new HashSet<>();
    for (Event e : created) {
      pools.add(e.get(Field.POOL));
    }
    assertEquals(1, pools.size(), "all in one pool: " + pools);
    long pool = pools.iterator().next();
    assertTrue(pool != 0);

    Set<Long> begun = new HashSet<>();
    Set<Long> ended = new HashSet<>();
    int workers = 0;
    int idleWaits = 0;
    int timerWaits = 0;
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      boolean worker = d.name().startsWith("weftit_Worker-");
      boolean scheduler = d.name().equals("weftit_QuartzSchedulerThread");
      if (!(worker || scheduler) || d.isSupplement()) {
        continue;
      }
      if (worker) {
        workers++;
        assertEquals(pool, d.pool(), d.name() + " is the pool's worker");
      }
      for (Event e : t.eventsByStream.get(d.stream())) {
        if (e.kind() == EventKind.TASK_BEGIN) {
          begun.add(e.get(Field.TASK));
        } else if (e.kind() == EventKind.TASK_END) {
          ended.add(e.get(Field.TASK));
        } else if (e.kind() == EventKind.WAIT_ENTER && worker) {
          assertEquals(WaitKind.NEXT_TASK, e.get(Field.WAIT_KIND), "a worker's wait: " + e);
          idleWaits++;
        } else if (e.kind() == EventKind.WAIT_ENTER
            && e.get(Field.WAIT_KIND) == WaitKind.TIMER_DUE) {
          timerWaits++;
        }
      }
    }
    assertEquals(QuartzThreadPoolApp.WORKERS, workers, "the pool's workers");
    for (Event e : created) {
      long id = e.get(Field.TASK);
      assertTrue(begun.contains(id) && ended.contains(id), "task " + id + " ran on a worker");
    }
    assertTrue(idleWaits > 0, "the workers waited for jobs, as idle waits");
    assertTrue(timerWaits > 0, "the scheduler thread waited for its triggers' times");
  }

  /**
   * Attached while the pool runs ({@link QuartzThreadPoolAttachApp}): the workers alive at the
   * attach are the pool's, and their waits for a job, which run in loops that began before the
   * attach and come from the JVM's monitor events, are idle waits (next_task), not waits for a
   * signal.
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void attachedWhileItsWorkersWaitForJobs(Path jdk) throws IOException {
    TraceFacts t =
        RunningWaitsIT.attachTo(
            libraries(),
            jdk,
            QuartzThreadPoolAttachApp.class,
            tmp.resolve("jobs.log"),
            "out=" + tmp.resolve("trace"),
            tmp);
    int workers = 0;
    int idleWaits = 0;
    long pool = -1;
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (!d.name().startsWith("weftattach_Worker-")) {
        continue;
      }
      if (!d.isSupplement()) {
        workers++;
        assertTrue(d.pool() != 0 && (pool < 0 || d.pool() == pool), d.name() + " is the pool's");
        pool = d.pool();
      }
      for (Event e : t.eventsByStream.get(d.stream())) {
        if (e.kind() == EventKind.WAIT_ENTER) {
          assertEquals(WaitKind.NEXT_TASK, e.get(Field.WAIT_KIND), d.name() + "'s wait: " + e);
          idleWaits++;
        }
      }
    }
    assertEquals(QuartzThreadPoolAttachApp.WORKERS, workers, "the workers alive at the attach");
    // One open at the attach per worker, then those the JVM's monitor events report.
    assertTrue(
        idleWaits > QuartzThreadPoolAttachApp.WORKERS,
        idleWaits + " idle waits: the workers' waits for jobs, from the JVM's monitor events");
  }

  private static String libraries() throws IOException {
    return ChildJvm.classPath(ChildJvm.itLib("quartz-"), ChildJvm.itLib("slf4j-api-"));
  }
}
