package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agentit.apps.parallel.ForkJoinApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A recursive fork-join computation: tasks, work stealing, joins and the region, on 17 and 25. */
@Tag("child-jvm")
class ForkJoinIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void everyTaskCreatedBeginsAndEndsOnce(Path jdk) {
    ParallelRun run = ParallelRun.of(jdk, tmp, "", ForkJoinApp.class, "22");
    run.assertSameOutput();
    long tasks = run.printed("tasks");
    assertTrue(tasks > 100, "a few hundred tasks: " + tasks);

    assertEquals(tasks, run.events(EventKind.TASK_CREATE).size(), "one create per task");
    assertEquals(tasks, run.events(EventKind.TASK_BEGIN).size(), "one begin per task");
    assertEquals(tasks, run.events(EventKind.TASK_END).size(), "one end per task");

    // Every begin follows the task's create; begins and ends nest properly on each stream.
    Map<Long, Event> created = new HashMap<>();
    for (Event e : run.events(EventKind.TASK_CREATE)) {
      created.put(e.get(Field.TASK), e);
    }
    assertEquals(tasks, created.size(), "task ids are distinct");
    int stolen = 0;
    for (Map.Entry<Integer, List<Event>> s : run.trace.eventsByStream.entrySet()) {
      Deque<Long> open = new ArrayDeque<>();
      for (Event e : s.getValue()) {
        if (e.kind() == EventKind.TASK_BEGIN) {
          Event c = created.get(e.get(Field.TASK));
          assertNotNull(c, "begin without create: " + e);
          assertTrue(c.time() <= e.time(), "created before it begins");
          if (c.stream() != e.stream()) {
            stolen++;
          }
          open.push(e.get(Field.TASK));
        } else if (e.kind() == EventKind.TASK_END) {
          assertEquals(open.pop(), e.get(Field.TASK), "end matches the innermost begin");
        }
      }
      assertTrue(open.isEmpty(), "tasks left open on stream " + s.getKey());
    }
    assertTrue(stolen > 0, "work stealing: some task begins on another thread than its creator");

    // The region: pool.invoke from main, at the line of the call, on a pool of parallelism 2.
    List<Event> forks = run.events(EventKind.FORK);
    assertEquals(1, forks.size(), forks.toString());
    Event fork = forks.get(0);
    RegionDef region = run.region(fork);
    assertEquals(ConstructKind.FORK_JOIN_POOL, region.kind());
    assertEquals("ForkJoinApp.java", region.file());
    assertEquals(ParallelRun.lineOf(ForkJoinApp.class, "// invoke site"), region.firstLine());
    assertEquals(2, fork.get(Field.PARALLELISM));
    assertEquals("main", run.thread(fork.stream()).name());
    PoolDef pool = run.trace.definitions.pool((int) fork.get(Field.POOL));
    assertEquals(ConstructKind.FORK_JOIN_POOL, pool.kind());
    assertEquals(2, pool.parallelism());
    List<Event> joins = run.events(EventKind.JOIN);
    assertEquals(1, joins.size());
    assertEquals(fork.get(Field.REGION), joins.get(0).get(Field.REGION));
    assertEquals(fork.stream(), joins.get(0).stream());

    // Workers are defined as members of the pool, and at most its parallelism of them did
    // recorded work. (Every worker that ran is defined, with its lifetime: on JDK 25 the pool
    // may start one more that ends without running a task, e.g. while it terminates.)
    long workers =
        run.trace.definitions.threads().stream()
            .filter(d -> d.pool() == pool.id())
            .filter(
                d ->
                    run.trace.eventsByStream.get(d.stream()).stream()
                        .anyMatch(
                            e ->
                                e.kind() != EventKind.THREAD_BEGIN
                                    && e.kind() != EventKind.THREAD_END))
            .count();
    assertTrue(workers >= 1 && workers <= 2, "workers of the pool that worked: " + workers);
    // Each worker's lifetime is recorded: the pool terminated before the program ended, so its
    // workers must not look alive (and idle) until the trace's end.
    run.trace.definitions.threads().stream()
        .filter(d -> d.pool() == pool.id())
        .forEach(
            d -> {
              List<EventKind> own =
                  run.trace.eventsByStream.get(d.stream()).stream().map(Event::kind).toList();
              assertEquals(EventKind.THREAD_BEGIN, own.get(0), d.name() + ": " + own);
              assertEquals(EventKind.THREAD_END, own.get(own.size() - 1), d.name() + ": " + own);
            });

    // Join waits at the user's join site: one per forked task, each with an exit.
    int joinLine = ParallelRun.lineOf(ForkJoinApp.class, "// join site");
    List<Event> waits =
        run.events(
            e -> e.kind() == EventKind.JOIN_WAIT_ENTER && run.region(e).firstLine() == joinLine);
    assertEquals(tasks - 1, waits.size(), "every forked task is joined once");
    int exits = 0;
    for (Event e : run.events(EventKind.JOIN_WAIT_EXIT)) {
      exits += run.region(e).firstLine() == joinLine ? 1 : 0;
    }
    assertEquals(waits.size(), exits);

    // Main waits in pool.invoke: a join wait of the region inside its FORK and JOIN.
    List<Event> mainEvents = run.trace.eventsByStream.get(fork.stream());
    List<EventKind> kinds = mainEvents.stream().map(Event::kind).toList();
    assertEquals(
        List.of(
            EventKind.FORK,
            EventKind.JOIN_WAIT_ENTER,
            EventKind.TASK_CREATE,
            EventKind.JOIN_WAIT_EXIT,
            EventKind.JOIN),
        kinds.subList(kinds.indexOf(EventKind.FORK), kinds.indexOf(EventKind.JOIN) + 1).stream()
            .filter(k -> k != EventKind.TASK_BEGIN && k != EventKind.TASK_END)
            .toList());
    assertEquals(
        run.events(EventKind.JOIN_WAIT_ENTER).size(),
        run.events(EventKind.JOIN_WAIT_EXIT).size(),
        "every join wait ends");
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void aggregatedTasksCountEveryTaskAndPlaceTheirBusyTime(Path jdk) {
    ParallelRun run = ParallelRun.of(jdk, tmp, "tasks=aggregate", ForkJoinApp.class, "22");
    run.assertSameOutput();
    long tasks = run.printed("tasks");
    assertEquals(0, run.events(EventKind.TASK_CREATE).size(), "no task recorded one by one");
    assertEquals(0, run.events(EventKind.TASK_BEGIN).size());
    assertEquals(0, run.events(EventKind.TASK_END).size());

    Event fork = run.events(EventKind.FORK).get(0);
    Event join = run.events(EventKind.JOIN).get(0);
    List<Event> summaries = run.events(EventKind.TASK_SUMMARY);
    assertTrue(!summaries.isEmpty());
    long counted = 0;
    for (Event e : summaries) {
      counted += e.get(Field.COUNT);
      assertEquals(fork.get(Field.REGION), e.get(Field.REGION), "in the region forked by main");
      assertEquals(fork.get(Field.POOL), e.get(Field.POOL));
      assertEquals(fork.get(Field.POOL), run.thread(e.stream()).pool(), "written by a worker");
    }
    assertEquals(tasks, counted, "every task is counted once");

    // Each summary's busy time lies after the previous event of its thread and inside the region:
    // blocked joins and other events are never counted as busy.
    for (Map.Entry<Integer, List<Event>> s : run.trace.eventsByStream.entrySet()) {
      long previous = Long.MIN_VALUE;
      for (Event e : s.getValue()) {
        if (e.kind() == EventKind.TASK_SUMMARY) {
          long start = e.time() - e.get(Field.DURATION);
          assertTrue(start >= previous, "busy time overlaps the previous event: " + e);
          assertTrue(start >= fork.time() && e.time() <= join.time(), "inside the region");
        }
        previous = e.time();
      }
    }
  }
}
