package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.HiddenMonitorApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.ThreadJvmCounts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JVM's own counts (THREAD_JVM_COUNTS): four threads contend on a monitor taken by synchronized
 * methods of a JDK class ({@code Vector}), which the agent does not weave: the JVM counts their
 * blocks, the trace records none. On a woven {@code synchronized} block, what the JVM counted is
 * what the trace recorded (the analysis-level check is {@code HiddenMonitorIT} in analyzer-cli).
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
      assertEquals(0, monitorRequests(t, stream), "nothing of the JDK's monitor is recorded");
      blocked += c.blockedCount();
    }
    assertTrue(blocked > 0, "the JVM counted the contention: " + t.definitions.jvmCounts());
    // main ends after main() returns, outside any hooked run(): counted as it terminates.
    assertNotNull(
        t.definitions.jvmCounts(SyncTraces.stream(t, "main")), "main's JVM counts at its exit");
    for (ThreadDef d : t.definitions.threads()) {
      assertTrue(!d.name().startsWith("weft-"), d.name());
    }
  }

  /**
   * On a woven monitor every block of the JVM is a recorded wait: the JVM counts a block only when
   * another thread owned the monitor, so the trace shows that thread in the way (holding the
   * monitor at the request, or taking and releasing it while the request waited), or, when the
   * owner's release came between its timestamp and its exit, a wait of at least 1 µs. The JVM's
   * slow path can succeed at once, so a block alone may last under 1 µs (347 blocks against 180
   * waits of 1 µs or more once, at load 10). {@link #SLACK} allows for blocks in JDK code the
   * threads run besides (class loading at their start).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void onAWovenMonitorTheJvmCountsNoMoreThanTheTraceRecords(Path jdk) {
    jvmCountsNoMoreThanTheTraceRecords(jdk, "woven");
  }

  /**
   * The same inside the JDK's {@code Collections.synchronizedList} wrapper, whose synchronized
   * blocks the agent weaves (retransformed: the class is loaded before the agent).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void inTheJdksSynchronizedWrappersTheJvmCountsNoMoreThanTheTraceRecords(Path jdk) {
    jvmCountsNoMoreThanTheTraceRecords(jdk, "wrapper");
  }

  /**
   * The same for threads printing to one {@code PrintStream}, whose blocks the agent weaves (on JDK
   * 21 to 23 a plain {@code PrintStream} takes a lock of the JDK's own instead).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void printingThreadsContendOnTheStreamsRecordedMonitor(Path jdk) {
    int v = ChildJvm.featureVersion(jdk);
    assumeTrue(v < 21 || v > 23, "PrintStream locks without a monitor on JDK 21 to 23");
    jvmCountsNoMoreThanTheTraceRecords(jdk, "printstream");
  }

  private void jvmCountsNoMoreThanTheTraceRecords(Path jdk, String mode) {
    TraceFacts t =
        SyncTraces.run(jdk, tmp, "", HiddenMonitorApp.class, mode, CONTENTION_MS).trace();
    long recorded = 0;
    Map<Integer, Long> recordedWaits = recordedMonitorWaits(t);
    for (int k = 0; k < THREADS; k++) {
      int stream = SyncTraces.stream(t, "contender-" + k);
      ThreadJvmCounts c = t.definitions.jvmCounts(stream);
      assertNotNull(
          c,
          "contender-"
              + k
              + " has its JVM counts; missed: "
              + t.definitions.attributes().get("agent.jvm_counts_missed"));
      long waits = recordedWaits.get(stream);
      recorded += waits;
      assertTrue(
          c.blockedCount() <= waits + SLACK,
          "contender-" + k + ": JVM " + c.blockedCount() + " blocks, recorded " + waits);
    }
    assertTrue(recorded > 0, "the contention was recorded");
  }

  /**
   * Per contender stream: its monitor acquisitions that another thread was in the way of or that
   * waited at least 1 µs, plus its Object.wait exits. The contenders' events are replayed in time
   * order to know who held the monitor.
   */
  private static Map<Integer, Long> recordedMonitorWaits(TraceFacts t) {
    List<Event> events = new ArrayList<>();
    Map<Integer, Long> waits = new HashMap<>();
    for (int k = 0; k < THREADS; k++) {
      int stream = SyncTraces.stream(t, "contender-" + k);
      waits.put(stream, 0L);
      events.addAll(t.eventsByStream.get(stream));
    }
    events.sort(Comparator.comparingLong(Event::time)); // stable: each stream keeps its order
    Map<Integer, long[]> requests = new HashMap<>(); // stream -> {time, in the way (0/1)}
    int holder = -1;
    long lastRelease = Long.MIN_VALUE;
    int lastReleaser = -1;
    for (Event e : events) {
      int s = e.stream();
      if (e.kind() == EventKind.LOCK_REQUEST
          && SyncTraces.regionOf(t, e).kind() == ConstructKind.MONITOR) {
        requests.put(s, new long[] {e.time(), holder >= 0 && holder != s ? 1 : 0});
      } else if (e.kind() == EventKind.LOCK_ACQUIRED) {
        long[] r = requests.remove(s);
        if (r != null) {
          boolean inTheWay =
              r[1] == 1 || (lastReleaser >= 0 && lastReleaser != s && lastRelease >= r[0]);
          if (inTheWay || e.time() - r[0] >= 1_000) {
            waits.merge(s, 1L, Long::sum);
          }
        }
        holder = s;
      } else if (e.kind() == EventKind.LOCK_RELEASED) {
        if (holder == s) {
          holder = -1;
        }
        lastRelease = e.time();
        lastReleaser = s;
      } else if (e.kind() == EventKind.WAIT_EXIT) {
        waits.merge(s, 1L, Long::sum);
      }
    }
    return waits;
  }

  private static long monitorRequests(TraceFacts t, int stream) {
    long n = 0;
    for (Event e : t.eventsByStream.get(stream)) {
      if (e.kind() == EventKind.LOCK_REQUEST
          && SyncTraces.regionOf(t, e).kind() == ConstructKind.MONITOR) {
        n++;
      }
    }
    return n;
  }
}
