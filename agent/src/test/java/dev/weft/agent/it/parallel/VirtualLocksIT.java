package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agentit.apps.parallel.VirtualLocksApp;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceVerifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Virtual threads that unmount inside a lock section (JDK 25; JDK 17 has no virtual threads, so the
 * test is skipped where only 17 is installed): each virtual thread is one logical stream whose lock
 * requests and acquisitions pair up, whichever carriers ran it, the trace verifies without errors,
 * and each thread's lock waits in the trace are the ones it measured itself.
 */
@Tag("child-jvm")
class VirtualLocksIT {
  private static final int THREADS = 240;
  private static final int ROUNDS = 5;

  @TempDir Path tmp;

  @Test
  void virtualThreadsUnmountedInsideLocksKeepTheirPairsAndWaits() throws IOException {
    Path jdk =
        ChildJvm.jdks()
            .filter(j -> !j.equals(Path.of(System.getProperty("java.home"))))
            .findFirst()
            .orElse(null);
    assumeTrue(jdk != null, "JDK 25 not installed (weft.jdk25.home)");
    Path log = tmp.resolve("waits.txt");
    ParallelRun run =
        ParallelRun.of(
            jdk, tmp, "", VirtualLocksApp.class, "" + THREADS, "4", "" + ROUNDS, log.toString());
    run.assertSameOutput();
    assertEquals(THREADS * ROUNDS, run.printed("sections"));
    assertEquals(
        "0",
        run.trace.definitions.attributes().getOrDefault("agent.virtual_thread_events_skipped", "0"),
        "no virtual thread's event lost");

    Map<Long, Long> measured = new HashMap<>();
    for (String line : Files.readAllLines(log)) {
      String[] f = line.split(" ");
      measured.put(Long.parseLong(f[0]), Long.parseLong(f[1]));
    }
    assertEquals(THREADS, measured.size());

    Path dir = tmp.resolve("trace");
    try (Trace trace = Trace.open(dir)) {
      TraceVerifier.VerifyReport report = TraceVerifier.verify(trace);
      assertEquals(List.of(), report.errors(), "verify errors");

      // Lock waits per logical stream: from each lock_request to its lock_acquired.
      Map<Integer, Long> requested = new HashMap<>();
      Map<Integer, Long> waited = new HashMap<>();
      Map<Integer, Integer> acquisitions = new HashMap<>();
      EventCursor c = trace.events();
      while (c.next()) {
        if (c.kind() == EventKind.LOCK_REQUEST) {
          requested.put(c.stream(), c.time());
        } else if (c.kind() == EventKind.LOCK_ACQUIRED && (c.field(1) & LockFlags.REENTRANT) == 0) {
          Long asked = requested.remove(c.stream());
          if (asked != null) {
            waited.merge(c.stream(), c.time() - asked, Long::sum);
            acquisitions.merge(c.stream(), 1, Integer::sum);
          }
        }
      }
      int compared = 0;
      long ownTotal = 0;
      long tracedTotal = 0;
      for (ThreadDef t : trace.definitions().threads()) {
        Long own = measured.get(t.javaId());
        if (own == null || !t.isCarried()) {
          continue;
        }
        compared++;
        assertEquals(ROUNDS, acquisitions.getOrDefault(t.stream(), 0), "acquisitions of " + t);
        long traced = waited.getOrDefault(t.stream(), 0L);
        // The thread's own measurement holds the traced wait and the recorder's own time around
        // it (a few microseconds per round), so the trace may see at most 10 % (1 ms) more. It
        // may see less when the host deschedules a carrier between the thread's clock reading and
        // the recorder's: 10.2 % less at load average 20, so 25 % is allowed below, and at least
        // 5 ms: a free lock taken at the first try has one timestamp, after the try, and a carrier
        // preempted just before it (1.49 ms once on a fresh-clone CI run, with 0 ns traced) loses
        // up to a scheduler period of several ms. Over all threads, 25 % still holds (below).
        long above = Math.max(own / 10, 1_000_000);
        long below = Math.max(own / 4, 5_000_000);
        ownTotal += own;
        tracedTotal += traced;
        assertTrue(
            traced <= own + above && traced >= own - below,
            "virtual thread " + t.javaId() + ": traced " + traced + " ns, measured " + own + " ns");
      }
      assertEquals(THREADS, compared, "every virtual thread is a logical stream of its own");
      assertTrue(
          tracedTotal >= ownTotal - ownTotal / 4,
          "all virtual threads: traced " + tracedTotal + " ns, measured " + ownTotal + " ns");
    }
  }
}
