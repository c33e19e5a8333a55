package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agentit.apps.parallel.ThreadsApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Thread start, begin, end and join, on 17 and 25. */
@Tag("child-jvm")
class ThreadsIT {
  private static final List<String> WORKERS =
      List.of("runnable-worker", "subclass-worker", "failing-worker");

  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void startedThreadsHaveLifetimesAndJoinsWaitForThem(Path jdk) {
    ParallelRun run = ParallelRun.of(jdk, tmp, "", ThreadsApp.class);
    run.assertSameOutput();
    assertEquals("ran: 4", run.traced.stdout().trim());
    int main = ParallelRun.streamNamed(run, "main");

    List<Event> creates = run.eventsOn(main, EventKind.THREAD_CREATE);
    assertEquals(3, creates.size());
    RegionDef start = run.region(creates.get(0));
    assertEquals(ConstructKind.THREAD_START, start.kind());
    assertEquals(ParallelRun.lineOf(ThreadsApp.class, "// start site"), start.firstLine());
    Set<Long> created = new HashSet<>();
    creates.forEach(e -> created.add(e.get(Field.THREAD)));

    Set<Long> joined = new HashSet<>();
    for (Event e : run.eventsOn(main, EventKind.JOIN_WAIT_ENTER)) {
      assertEquals(ConstructKind.THREAD_JOIN, run.region(e).kind());
      joined.add(e.get(Field.TARGET));
    }
    assertEquals(created, joined, "each join waits for a started thread, by its Java id");
    assertEquals(3, run.eventsOn(main, EventKind.JOIN_WAIT_EXIT).size());

    for (String name : WORKERS) {
      int stream = ParallelRun.streamNamed(run, name);
      ThreadDef d = run.thread(stream);
      assertTrue(created.contains(d.javaId()), name + " was created by main");
      List<Event> events = run.trace.eventsByStream.get(stream);
      assertEquals(EventKind.THREAD_BEGIN, events.get(0).kind(), name);
      assertEquals(EventKind.THREAD_END, events.get(events.size() - 1).kind(), name);
      assertEquals(2, events.size(), name + ": " + events);
    }
    // Main's own start was not seen: it has no THREAD_BEGIN.
    assertTrue(run.eventsOn(main, EventKind.THREAD_BEGIN).isEmpty());
  }
}
