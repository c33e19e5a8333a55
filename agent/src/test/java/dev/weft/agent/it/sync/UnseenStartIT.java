package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.UnseenStartApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
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
 * A thread started where the agent does not see it ({@link UnseenStartApp}) is in the trace from
 * its first event: its CPU and run-queue times count from there (THREAD_JVM_COUNTS' timesFromNs),
 * not from its start. Before, they spanned its whole life, 400 ms of computing before its stream
 * began, and the analysis compared them with a stream of a few microseconds. So do the JVM's counts
 * of its waits (five before its first event).
 */
@Tag("child-jvm")
class UnseenStartIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void aThreadWhoseStartWasNotSeenIsMeasuredFromItsFirstEvent(Path jdk) {
    TraceFacts t =
        SyncTraces.run(
                jdk,
                tmp,
                "exclude=dev.weft.agentit.apps.sync.UnseenStartApp$Starter",
                UnseenStartApp.class)
            .trace();
    ThreadDef d =
        t.definitions.streamDefinitions().stream()
            .filter(x -> x.name().equals("unseen") && !x.isSupplement())
            .findFirst()
            .orElseThrow();
    List<Event> events = t.eventsByStream.get(d.stream());
    String facts = "\n" + events + "\n" + t.definitions.jvmCounts();
    assertTrue(events.get(0).kind() != EventKind.THREAD_BEGIN, "its start was not seen" + facts);
    ThreadJvmCounts c = t.definitions.jvmCounts(d.stream());
    if (!Files.isReadable(Path.of("/proc/thread-self/schedstat"))) {
      return; // no system figures to span
    }
    assertTrue(c != null && c.hasOwnTimesFrom(), facts);
    assertTrue(Math.abs(c.timesFromNs() - events.get(0).time()) < 50_000_000L, facts);
    long span = events.get(events.size() - 1).time() - c.timesFromNs();
    // The 400 ms of computing came before: what is left is the lock and the end.
    assertTrue(c.cpuNs() < UnseenStartApp.COMPUTE_MS * 1_000_000L / 4, facts);
    assertTrue(c.cpuNs() + c.runQueueNs() <= span + 50_000_000L, span + facts);
    assertEquals(0, t.count(EventKind.THREAD_CREATE), "the start is not recorded" + facts);
    // The JVM's counts too: its waits before its first event are left out of its record.
    assertEquals(0, c.waitedCount(), facts);
  }
}
