package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.RunningCpuApp;
import dev.weft.trace.Event;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.ThreadJvmCounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Threads that were running when the agent attached measure their own CPU and run-queue times from
 * their first recorded event (THREAD_JVM_COUNTS' timesFromNs): with more busy threads than cores,
 * the time a thread spent waiting for a core is known, so the analysis names it as such instead of
 * as time off the CPU with the run queue unknown (CpuCrossCheckTest). Threads started during the
 * recording and alive at its end are read by the Linux thread id they named at their first event.
 * Before, both had the JVM's CPU time alone.
 */
@Tag("child-jvm")
class RunningCpuIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void threadsRunningAtTheAttachHaveTheirRunQueueTime(Path jdk) throws IOException {
    TraceFacts t =
        RunningWaitsIT.attachTo(
            jdk, RunningCpuApp.class, tmp.resolve("steps.log"), "out=" + tmp.resolve("trace"), tmp);
    assumeProc();
    String facts = "\n" + t.definitions.jvmCounts() + "\n" + t.definitions.attributes();
    int busy = 0;
    long queued = 0;
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (!d.name().startsWith("busy-") || d.isSupplement()) {
        continue;
      }
      busy++;
      ThreadJvmCounts c = t.definitions.jvmCounts(d.stream());
      assertTrue(c != null && c.hasCpu() && c.hasRunQueue() && c.hasOwnTimesFrom(), d + facts);
      List<Event> events = t.eventsByStream.get(d.stream());
      assertTrue(events != null && !events.isEmpty(), d + facts);
      long first = events.get(0).time();
      // Measured from the thread's first event (read as its stream is opened, by the thread).
      assertTrue(Math.abs(c.timesFromNs() - first) < 50_000_000L, d + " first " + first + facts);
      // Never blocked: on a core or waiting for one nearly all the time it was measured, up to the
      // close (half: a CPU quota's throttling counts as neither).
      long span = t.definitions.endTime() - c.timesFromNs();
      assertTrue(span > RunningCpuApp.RECORD_MS * 1_000_000L / 3, d + " span " + span + facts);
      assertTrue(c.cpuNs() + c.runQueueNs() >= span / 2, d + " span " + span + facts);
      assertTrue(c.cpuNs() + c.runQueueNs() <= span * 11 / 10, d + " span " + span + facts);
      queued += c.runQueueNs();
    }
    assertEquals(RunningCpuApp.busyThreads(), busy, facts);
    assertTrue(queued > 0, "more busy threads than cores wait for one" + facts);
    // Started in the recording, alive at its end: their whole lives, read by their thread ids.
    int late = 0;
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (d.name().startsWith("late-") && !d.isSupplement()) {
        late++;
        ThreadJvmCounts c = t.definitions.jvmCounts(d.stream());
        assertTrue(c != null && c.hasRunQueue() && !c.hasOwnTimesFrom(), d + facts);
        long span = t.definitions.endTime() - d.names().get(0).time();
        assertTrue(c.cpuNs() + c.runQueueNs() >= span / 2, d + " span " + span + facts);
        assertTrue(c.cpuNs() + c.runQueueNs() <= span * 11 / 10, d + " span " + span + facts);
      }
    }
    assertEquals(2, late, facts);
  }

  private static void assumeProc() {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isReadable(Path.of("/proc/thread-self/schedstat")), "Linux's schedstat");
  }
}
