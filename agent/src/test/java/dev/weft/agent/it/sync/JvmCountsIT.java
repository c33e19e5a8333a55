package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.HiddenMonitorApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.ThreadJvmCounts;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JVM's own counts (THREAD_JVM_COUNTS): four threads contend on a monitor taken inside a JDK
 * class ({@code Collections.synchronizedList}), which call-site weaving does not see: the JVM
 * counts their blocks, the trace records none. On a woven {@code synchronized} block, what the JVM
 * counted is what the trace recorded (the analysis-level check is {@code HiddenMonitorIT} in
 * analyzer-cli).
 */
@Tag("child-jvm")
class JvmCountsIT {
  private static final int THREADS = 4;

  /**
   * How long the contenders run, in ms: longer than the agent takes to load {@code java.management}
   * for its baseline on a loaded host (threads that end before it get no counts, which the trace's
   * {@code agent.jvm_counts_missed} says).
   */
  private static final String CONTENTION_MS = "1500";

  /** Blocks the JVM may count beyond the recorded waits on a fully woven monitor (see below). */
  private static final long SLACK = 3;

  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void monitorsInsideJdkClassesAreCountedByTheJvm(Path jdk) {
    TraceFacts t =
        SyncTraces.run(jdk, tmp, "", HiddenMonitorApp.class, "jdk", CONTENTION_MS).trace();
    long blocked = 0;
    for (int k = 0; k < THREADS; k++) {
      int stream = SyncTraces.stream(t, "contender-" + k);
      ThreadJvmCounts c = t.definitions.jvmCounts(stream);
      assertNotNull(
          c,
          "contender-"
              + k
              + " has its JVM counts; missed: "
              + t.definitions.attributes().get("agent.jvm_counts_missed"));
      assertEquals(0, recordedMonitorWaits(t, stream), "nothing of the JDK's monitor is recorded");
      blocked += c.blockedCount();
    }
    assertTrue(blocked > 0, "the JVM counted the contention: " + t.definitions.jvmCounts());
    for (ThreadDef d : t.definitions.threads()) {
      assertTrue(!d.name().startsWith("weft-"), d.name());
    }
  }

  /**
   * On a woven monitor every block of the JVM is a recorded wait: the JVM counts a block only when
   * spinning failed and the thread was queued, which takes longer than the 1 µs a recorded wait
   * must last to count here. {@link #SLACK} allows for blocks in JDK code the threads run besides
   * (class loading at their start).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void onAWovenMonitorTheJvmCountsNoMoreThanTheTraceRecords(Path jdk) {
    TraceFacts t =
        SyncTraces.run(jdk, tmp, "", HiddenMonitorApp.class, "woven", CONTENTION_MS).trace();
    long recorded = 0;
    for (int k = 0; k < THREADS; k++) {
      int stream = SyncTraces.stream(t, "contender-" + k);
      ThreadJvmCounts c = t.definitions.jvmCounts(stream);
      assertNotNull(
          c,
          "contender-"
              + k
              + " has its JVM counts; missed: "
              + t.definitions.attributes().get("agent.jvm_counts_missed"));
      long waits = recordedMonitorWaits(t, stream);
      recorded += waits;
      assertTrue(
          c.blockedCount() <= waits + SLACK,
          "contender-" + k + ": JVM " + c.blockedCount() + " blocks, recorded " + waits);
    }
    assertTrue(recorded > 0, "the contention was recorded");
  }

  /** Monitor acquisitions of a stream that waited at least 1 µs, plus its Object.wait exits. */
  private static long recordedMonitorWaits(TraceFacts t, int stream) {
    long n = 0;
    long request = -1;
    for (Event e : t.eventsByStream.get(stream)) {
      if (e.kind() == EventKind.LOCK_REQUEST
          && SyncTraces.regionOf(t, e).kind() == ConstructKind.MONITOR) {
        request = e.time();
      } else if (e.kind() == EventKind.LOCK_ACQUIRED && request >= 0) {
        if (e.time() - request >= 1_000) {
          n++;
        }
        request = -1;
      } else if (e.kind() == EventKind.WAIT_EXIT) {
        n++;
      }
    }
    return n;
  }
}
