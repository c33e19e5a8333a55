package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.NetworkWaitsAtAttachApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Network calls in progress at the attach, RUNNABLE to the JVM ({@link NetworkWaitsAtAttachApp}):
 * an accept, a select and a socket stream's read that last past the detach are recorded from the
 * recording's start to its end, at the user's line, of their kinds; an accept that returns during
 * the recording ends there, seen from the CPU its thread takes after it (it records no event).
 * Before, all four counted as execution.
 */
@Tag("child-jvm")
class NetworkWaitsAtAttachIT {
  /** As OpenWaitsIT: the poller may run late on a loaded host. */
  private static final long MAX_UNCERTAINTY_NS = 1_000_000_000;

  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void networkCallsInProgressAtTheAttachAreWaits(Path jdk) throws IOException {
    Path log = tmp.resolve("calls.log");
    TraceFacts t =
        RunningWaitsIT.attachTo(
            jdk, NetworkWaitsAtAttachApp.class, log, "out=" + tmp.resolve("trace"), tmp);
    Map<String, Long> logged = new HashMap<>();
    for (String line : Files.readAllLines(log)) {
      String[] f = line.split(" ");
      logged.put(f[0], Long.parseLong(f[1]));
    }
    String facts = "\n" + t.definitions.attributes().get("agent.waits_open_at_attach");

    expectOpen(t, "acceptor", WaitKind.ACCEPT, "ServerSocket.accept", facts);
    expectOpen(t, "selector", WaitKind.SELECT, "Selector.select", facts);
    expectOpen(t, "reader", WaitKind.SOCKET_READ, "SocketInputStream.read", facts);

    List<Event> early = waits(t, "early-acceptor");
    assertEquals(2, early.size(), early + facts);
    assertEquals(WaitKind.ACCEPT, early.get(0).get(Field.WAIT_KIND), facts);
    long end = early.get(1).time();
    assertEquals(EventKind.WAIT_EXIT, early.get(1).kind(), facts);
    // The end is the midpoint between the last poll that saw the call and the first that did not,
    // give or take the uncertainty the agent states for it.
    Matcher m = Pattern.compile("early-acceptor ServerSocket.accept ±([0-9.]+) ms").matcher(facts);
    assertTrue(m.find(), "the agent states the end's uncertainty" + facts);
    long uncertainty = (long) (Double.parseDouble(m.group(1)) * 1_000_000) + 1_000_000;
    assertTrue(
        end >= logged.get("released") - uncertainty, "ended after the client connected" + facts);
    assertTrue(
        end <= logged.get("early-acceptor") + MAX_UNCERTAINTY_NS,
        (end - logged.get("early-acceptor")) / 1e6 + " ms after the accept returned" + facts);
  }

  /** The thread's wait, of {@code kind} at {@code name}, open from the start to the end. */
  private static void expectOpen(TraceFacts t, String thread, int kind, String name, String facts) {
    List<Event> w = waits(t, thread);
    assertEquals(1, w.size(), thread + " " + w + facts);
    Event enter = w.get(0);
    assertEquals(EventKind.WAIT_ENTER, enter.kind(), thread + facts);
    assertEquals(kind, enter.get(Field.WAIT_KIND), thread + facts);
    RegionDef r = t.definitions.region((int) enter.get(Field.REGION));
    assertEquals(name + " (begun before the attach)", r.name(), thread + facts);
    assertEquals("NetworkWaitsAtAttachApp.java", r.file(), thread + facts);
  }

  /** The WAIT_ENTER and WAIT_EXIT events of a thread, in all its streams, in time order. */
  private static List<Event> waits(TraceFacts t, String thread) {
    return t.ofThread(thread).stream()
        .filter(e -> e.kind() == EventKind.WAIT_ENTER || e.kind() == EventKind.WAIT_EXIT)
        .toList();
  }
}
