package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agentit.apps.parallel.ExecutorApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Thread-pool tasks: queue waits, worker pool membership, Future.get join waits, on 17 and 25. */
@Tag("child-jvm")
class ExecutorIT {
  private static final long MS = 1_000_000;

  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void queueWaitsGrowLinearlyAndGetWaitsAreMeasured(Path jdk) throws IOException {
    Path waitedFile = tmp.resolve("waited");
    ParallelRun run = ParallelRun.of(jdk, tmp, "", ExecutorApp.class, waitedFile.toString());
    run.assertSameOutput();

    // The pool and its one worker, announced by main when the pool started it.
    List<PoolDef> pools =
        run.trace.definitions.pools().stream()
            .filter(p -> p.name().startsWith("java.util.concurrent.ThreadPoolExecutor"))
            .toList();
    assertEquals(1, pools.size(), run.trace.definitions.pools().toString());
    PoolDef pool = pools.get(0);
    assertEquals(ConstructKind.EXECUTOR, pool.kind());
    assertEquals(1, pool.parallelism());
    List<ThreadDef> workers =
        run.trace.definitions.threads().stream().filter(t -> t.pool() == pool.id()).toList();
    assertEquals(1, workers.size(), run.trace.definitions.threads().toString());
    int worker = workers.get(0).stream();
    int main = ParallelRun.streamNamed(run, "main");
    List<Event> threadCreates = run.eventsOn(main, EventKind.THREAD_CREATE);
    assertEquals(1, threadCreates.size());
    assertEquals(workers.get(0).javaId(), threadCreates.get(0).get(Field.THREAD));
    assertEquals(EventKind.THREAD_BEGIN, run.trace.eventsByStream.get(worker).get(0).kind());

    // Every submitted task: created on main, begun and ended on the worker.
    List<Event> creates = run.eventsOn(main, EventKind.TASK_CREATE);
    int submitted = ExecutorApp.TASKS + 2;
    assertEquals(submitted, creates.size());
    Map<Long, Event> begins = new HashMap<>();
    for (Event e : run.eventsOn(worker, EventKind.TASK_BEGIN)) {
      begins.put(e.get(Field.TASK), e);
    }
    assertEquals(submitted, begins.size());
    assertEquals(submitted, run.eventsOn(worker, EventKind.TASK_END).size());

    // Each submission is a region at the user's line, within which the task is created.
    RegionDef submit = regionAt(run, "// submit site");
    assertEquals(ConstructKind.EXECUTOR, submit.kind());
    assertEquals("ExecutorService.submit", submit.name());
    int open = 0;
    int inside = 0;
    for (Event e : run.trace.eventsByStream.get(main)) {
      if (e.kind() == EventKind.ENTER && e.get(Field.REGION) == submit.id()) {
        open++;
      } else if (e.kind() == EventKind.EXIT && e.get(Field.REGION) == submit.id()) {
        open--;
      } else if (e.kind() == EventKind.TASK_CREATE && open == 1) {
        inside++;
      }
    }
    assertEquals(0, open);
    assertEquals(ExecutorApp.TASKS, inside, "the tasks submitted at that line are created there");

    // Queue wait (create → begin) of the first TASKS tasks grows by about one sleep per task.
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < ExecutorApp.TASKS; i++) {
      Event c = creates.get(i);
      assertEquals(pool.id(), c.get(Field.POOL));
      waits.add(begins.get(c.get(Field.TASK)).time() - c.time());
    }
    // The worker runs them one after the other: each begins a sleep or more after the previous.
    for (int i = 1; i < waits.size(); i++) {
      long beginStep =
          waits.get(i) + creates.get(i).time() - waits.get(i - 1) - creates.get(i - 1).time();
      assertTrue(beginStep >= (ExecutorApp.SLEEP_MS - 2) * MS, "tasks run one by one: " + waits);
      // a submitter stalled by the host creates the next task late, which shortens its queue wait
      long createGap = creates.get(i).time() - creates.get(i - 1).time();
      if (createGap < ExecutorApp.SLEEP_MS * MS / 2) {
        assertTrue(waits.get(i) > waits.get(i - 1), "queue waits grow: " + waits);
      }
    }
    // Least-squares slope of wait over position: one sleep per task (a loaded machine may stall
    // the submitting thread or the worker, hence the tolerance). The first task is left out: its
    // wait also holds the worker's start, which a loaded host can delay by 100 ms and more.
    double slope = slope(waits.subList(1, waits.size())) / MS;
    assertTrue(
        slope > ExecutorApp.SLEEP_MS * 0.8 && slope < ExecutorApp.SLEEP_MS * 1.6,
        "queue waits grow by about " + ExecutorApp.SLEEP_MS + " ms per task: " + waits);

    // The slow get: one join wait at the user's line, as long as main measured it (± 5 ms).
    RegionDef slowGet = regionAt(run, "// slow get site");
    assertEquals(ConstructKind.FUTURE_GET, slowGet.kind());
    List<long[]> spans = run.spans(main, slowGet.id());
    assertEquals(1, spans.size());
    long traced = spans.get(0)[1] - spans.get(0)[0];
    long measured = Long.parseLong(Files.readString(waitedFile).trim()) * 1000;
    assertTrue(traced >= (ExecutorApp.SLOW_MS - 20) * MS, "waits for the slow task: " + traced);
    assertTrue(
        Math.abs(traced - measured) <= 5 * MS,
        "join wait " + traced / 1000 + " µs, measured by the program " + measured / 1000 + " µs");

    // Each queued get, a failing get (which throws) and awaitTermination: balanced waits.
    assertEquals(
        ExecutorApp.TASKS, run.spans(main, regionAt(run, "// queued get site").id()).size());
    assertEquals(1, run.spans(main, regionAt(run, "// failing get site").id()).size());
    RegionDef await = regionAt(run, "// await site");
    assertEquals(ConstructKind.AWAIT_TERMINATION, await.kind());
    assertEquals(1, run.spans(main, await.id()).size());
  }

  /** The least-squares slope of {@code ys} over 0, 1, 2, ... */
  private static double slope(List<Long> ys) {
    int n = ys.size();
    double mx = (n - 1) / 2.0;
    double my = ys.stream().mapToLong(Long::longValue).average().orElse(0);
    double num = 0;
    double den = 0;
    for (int i = 0; i < n; i++) {
      num += (i - mx) * (ys.get(i) - my);
      den += (i - mx) * (i - mx);
    }
    return num / den;
  }

  private static RegionDef regionAt(ParallelRun run, String marker) {
    return run.regionAtLine(ParallelRun.lineOf(ExecutorApp.class, marker));
  }
}
