package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.ScheduledAtAttachApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.ThreadJvmCounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tasks a scheduled executor held for later when the agent attached ({@link ScheduledAtAttachApp})
 * are created at the attach, at a {@code delayed_task} region marked as scheduled before it, on the
 * stream of the pool's worker: the worker's wait for them is then a wait for a timer, and their
 * runs have a creation. Before, both tasks began without one and the pool looked as if it had
 * nothing to do.
 */
@Tag("child-jvm")
class ScheduledAtAttachIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void tasksScheduledBeforeTheAttachAreCreatedAtIt(Path jdk) throws IOException {
    Path log = tmp.resolve("runs.log");
    TraceFacts t =
        RunningWaitsIT.attachTo(
            jdk, ScheduledAtAttachApp.class, log, "out=" + tmp.resolve("trace"), tmp);
    String ran = Files.readString(log);
    List<Event> evictor = t.ofThread("evictor");
    String facts = "\n" + ran + evictor;
    List<Event> created =
        evictor.stream()
            .filter(e -> e.kind() == EventKind.TASK_CREATE)
            .filter(e -> scheduledBeforeTheAttach(t, e))
            .toList();
    // The periodic task's next run and the one-shot task, both due after the attach.
    assertEquals(2, created.size(), "created at the attach" + facts);
    long first = evictor.get(0).time();
    for (Event e : created) {
      assertEquals(first, e.time(), "at the attach, first in the worker's stream" + facts);
    }
    Set<Long> ids = created.stream().map(e -> e.get(Field.TASK)).collect(Collectors.toSet());
    Set<Long> begun =
        evictor.stream()
            .filter(e -> e.kind() == EventKind.TASK_BEGIN)
            .map(e -> e.get(Field.TASK))
            .collect(Collectors.toSet());
    assertTrue(begun.containsAll(ids), "each ran after its creation" + facts);
    assertTrue(ran.contains("one-shot 1"), facts);
  }

  /**
   * The housekeeper's worker waited from before the attach to its end: the JVM's count of its waits
   * over the recording includes that wait (the baseline leaves a wait in progress out), so that the
   * analysis does not take its time for a worker's way out of a thread that never waited.
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void aWaitInProgressAtTheBaselineCountsInTheThreadsRecord(Path jdk) throws IOException {
    TraceFacts t =
        RunningWaitsIT.attachTo(
            jdk,
            ScheduledAtAttachApp.class,
            tmp.resolve("runs.log"),
            "out=" + tmp.resolve("trace"),
            tmp);
    ThreadDef d =
        t.definitions.streamDefinitions().stream()
            .filter(x -> x.name().equals("housekeeper") && !x.isSupplement())
            .findFirst()
            .orElseThrow();
    ThreadJvmCounts c = t.definitions.jvmCounts(d.stream());
    String facts = "\n" + t.ofThread("housekeeper") + "\n" + t.definitions.jvmCounts();
    assertTrue(c != null, "counted as it ended" + facts);
    assertTrue(c.waitedCount() >= 1, "its wait from before the attach" + facts);
  }

  private static boolean scheduledBeforeTheAttach(TraceFacts t, Event e) {
    RegionDef r = t.definitions.region((int) e.get(Field.REGION));
    return r != null
        && r.kind() == ConstructKind.DELAYED_TASK
        && r.name().endsWith(" (scheduled before the attach)");
  }
}
