package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.RunningPoolApp;
import dev.weft.trace.EventKind;
import dev.weft.trace.ThreadDef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The workers of a {@code ThreadPoolExecutor} started before the attach run the JDK's original
 * {@code runWorker} loop for the whole recording: they are in the trace as their pool's workers,
 * also when their thread factory wrapped the worker, and the hooks in {@code beforeExecute} and
 * {@code afterExecute} record each of their tasks once; a pool started after the attach runs the
 * woven loop, which records its tasks itself, once.
 */
@Tag("child-jvm")
class RunningPoolWorkersIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void workersRunningBeforeTheAttachHaveTheirTasksRecordedOnce(Path jdk) throws IOException {
    TraceFacts t =
        RunningWaitsIT.attachTo(
            jdk, RunningPoolApp.class, tmp.resolve("done.log"), "out=" + tmp.resolve("trace"), tmp);
    String facts = t.definitions.attributes().toString();
    assertTrue(
        t.definitions.attributes().get("agent.running_frames").endsWith(",pool_workers"), facts);
    for (String pool : List.of("before-", "wrapped-", "after-")) {
      List<ThreadDef> workers =
          t.definitions.threads().stream().filter(d -> d.name().startsWith(pool)).toList();
      assertEquals(2, workers.size(), pool + " " + t.definitions.threads());
      long begins = 0;
      long ends = 0;
      for (ThreadDef w : workers) {
        assertTrue(w.pool() != 0, w + " is its pool's worker");
        begins += count(t, w.stream(), EventKind.TASK_BEGIN);
        ends += count(t, w.stream(), EventKind.TASK_END);
      }
      assertEquals(RunningPoolApp.TASKS, begins, pool + " tasks begun, each once\n" + facts);
      assertEquals(RunningPoolApp.TASKS, ends, pool + " tasks ended, each once\n" + facts);
    }
  }

  private static long count(TraceFacts t, int stream, EventKind kind) {
    return t.eventsByStream.getOrDefault(stream, List.of()).stream()
        .filter(e -> e.kind() == kind)
        .count();
  }
}
