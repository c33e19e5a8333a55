package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agentit.apps.parallel.VirtualThreadsApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.PoolDef;
import dev.weft.trace.ThreadDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 10,000 virtual threads on JDK 25 trace on their carriers' streams: no event file per virtual
 * thread (a definition each, for its logical stream), a trace of bounded size, a small heap; the
 * virtual-thread-per-task executor's tasks.
 */
@Tag("child-jvm")
class VirtualThreadsIT {
  private static final int THREADS = 10_000;

  @TempDir Path tmp;

  @Test
  void virtualThreadsAreRecordedOnTheirCarriers() throws IOException {
    Path jdk =
        ChildJvm.jdks()
            .filter(j -> !j.equals(Path.of(System.getProperty("java.home"))))
            .findFirst()
            .orElse(null);
    assumeTrue(jdk != null, "JDK 25 not installed (weft.jdk25.home)");
    ParallelRun run =
        ParallelRun.of(jdk, tmp, "", List.of("-Xmx48m"), VirtualThreadsApp.class, "" + THREADS);
    run.assertSameOutput();
    assertEquals(THREADS, run.printed("virtual threads"));

    // A stream per platform thread only: main and the carriers, however many virtual threads ran.
    int main = ParallelRun.streamNamed(run, "main");
    PoolDef scheduler =
        run.trace.definitions.pools().stream()
            .filter(p -> p.kind() == ConstructKind.VIRTUAL_THREAD)
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "no scheduler pool: "
                            + run.trace.definitions.pools()
                            + " "
                            + run.trace.definitions.threads()));
    List<ThreadDef> threads =
        run.trace.definitions.threads().stream().filter(d -> !d.isCarried()).toList();
    long carried = run.trace.definitions.threads().stream().filter(ThreadDef::isCarried).count();
    assertTrue(carried >= THREADS, "a logical stream per virtual thread: " + carried);
    for (ThreadDef d : threads) {
      assertTrue(d.stream() == main || d.pool() == scheduler.id(), "only main and carriers: " + d);
    }
    assertTrue(threads.size() <= 1 + 2 * Runtime.getRuntime().availableProcessors() + 2);
    long bytes;
    try (Stream<Path> files = Files.list(tmp.resolve("trace").resolve("events"))) {
      bytes = files.mapToLong(f -> f.toFile().length()).sum();
    }
    assertTrue(bytes < 16L << 20, "event files stay small: " + bytes);

    // Each virtual thread's events follow a mount of it on the carrier that runs it (the recorder
    // writes VTHREAD_MOUNT before the first event of another virtual thread, after an UNMOUNT of
    // the previous one); each virtual thread begins and ends there; main joins every one.
    Set<Long> started = new HashSet<>();
    run.eventsOn(main, EventKind.THREAD_CREATE).forEach(e -> started.add(e.get(Field.THREAD)));
    assertEquals(THREADS, started.size());
    Set<Long> joined = new HashSet<>();
    run.eventsOn(main, EventKind.JOIN_WAIT_ENTER).forEach(e -> joined.add(e.get(Field.TARGET)));
    assertTrue(joined.containsAll(started), "main joins every virtual thread");
    Set<Long> begun = new HashSet<>();
    Set<Long> ended = new HashSet<>();
    long mounts = 0;
    long unmounts = 0;
    for (ThreadDef carrier : threads) {
      if (carrier.stream() == main) {
        continue;
      }
      long mountedId = -1;
      for (Event e : run.trace.eventsByStream.get(carrier.stream())) {
        switch (e.kind()) {
          case VTHREAD_MOUNT:
            assertEquals(-1, mountedId, "no nested mounts");
            mountedId = e.get(Field.THREAD);
            mounts++;
            break;
          case VTHREAD_UNMOUNT:
            assertEquals(mountedId, e.get(Field.THREAD));
            mountedId = -1;
            unmounts++;
            break;
          case THREAD_BEGIN:
            assertTrue(mountedId >= 0, "a virtual thread's event while it is mounted");
            begun.add(mountedId);
            break;
          case THREAD_END:
            assertTrue(mountedId >= 0, "a virtual thread's event while it is mounted");
            ended.add(mountedId);
            break;
          default:
            assertTrue(mountedId >= 0, "a virtual thread's event while it is mounted: " + e);
            break;
        }
      }
    }
    // The recorder skips (and counts) a virtual thread's event when its carrier's stream is held
    // by another virtual thread blocked inside the recorder (JDK 24+: e.g. while the carrier's
    // stream is opened, at the start).
    long skipped =
        Long.parseLong(
            run.trace
                .definitions
                .attributes()
                .getOrDefault("agent.virtual_thread_events_skipped", "0"));
    begun.retainAll(started); // the executor's virtual threads begin too
    ended.retainAll(started);
    assertTrue(begun.size() >= THREADS * 9 / 10, "most virtual threads' begins: " + begun.size());
    assertTrue(THREADS - begun.size() <= skipped, "the others were counted as skipped");
    assertTrue(begun.size() - ended.size() <= skipped, "ends: " + ended.size());
    assertTrue(mounts >= THREADS, "mounts: " + mounts);
    assertTrue(mounts - unmounts <= threads.size(), "at most one mount left open per carrier");

    // Tasks of the virtual-thread-per-task executor: created on main, run on virtual threads.
    List<Event> creates = run.eventsOn(main, EventKind.TASK_CREATE);
    assertEquals(200, creates.size());
    assertTrue(200 - run.events(EventKind.TASK_BEGIN).size() <= skipped);
    assertEquals(run.events(EventKind.TASK_BEGIN).size(), run.events(EventKind.TASK_END).size());
  }
}
