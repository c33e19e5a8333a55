package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.AliveAtCloseApp;
import dev.weft.trace.Event;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.ThreadJvmCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A thread started during the recording, alive at the close with only a few events of its own
 * ({@link AliveAtCloseApp}), gets its CPU and run-queue times there: its Linux thread id comes from
 * the JVM's thread dump at the close. Before, a thread named its id at its 64th event, and one with
 * fewer had no run queue.
 */
@Tag("child-jvm")
class AliveAtCloseIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void aThreadWithFewEventsAliveAtTheCloseHasItsRunQueue(Path jdk) {
    TraceFacts t = SyncTraces.run(jdk, tmp, "", AliveAtCloseApp.class).trace();
    ThreadDef d =
        t.definitions.streamDefinitions().stream()
            .filter(x -> x.name().equals("busy") && !x.isSupplement())
            .findFirst()
            .orElseThrow();
    List<Event> events = t.eventsByStream.get(d.stream());
    ThreadJvmCounts c = t.definitions.jvmCounts(d.stream());
    String facts = "\n" + events + "\n" + t.definitions.jvmCounts();
    assertTrue(events.size() < 10, "a few events of its own" + facts);
    if (!Files.isReadable(Path.of("/proc/thread-self/schedstat"))) {
      return; // no system figures to read
    }
    assertTrue(c != null && c.hasCpu() && c.hasRunQueue(), "CPU and run queue read" + facts);
    assertFalse(c.hasOwnTimesFrom(), "its whole life: it began during the recording" + facts);
    long computeNs = AliveAtCloseApp.COMPUTE_MS * 1_000_000L;
    // It computed for COMPUTE_MS from its last event to the close: on a core or waiting for one.
    assertTrue(c.cpuNs() + c.runQueueNs() >= computeNs / 2, facts);
    // And not much more: the JVM's exit follows main's return within a second here.
    assertTrue(c.cpuNs() + c.runQueueNs() <= computeNs + 5_000_000_000L, facts);
  }
}
