package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.RunningTimerApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@code java.util.Timer}'s thread whose loop was running when the agent attached keeps the JDK's
 * original code, whose {@code Object.wait} no hook can see: its waits come from the JVM's monitor
 * events, as the woven loop's would be recorded (timer_due, at {@code Timer.waitUntilDue}); a timer
 * started after the attach runs the woven loop, which records its waits once, in its own stream.
 */
@Tag("child-jvm")
class RunningTimerIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void aTimerRunningAtTheAttachHasItsWaitsRecordedOnce(Path jdk) throws IOException {
    TraceFacts t =
        RunningWaitsIT.attachTo(
            jdk,
            RunningTimerApp.class,
            tmp.resolve("ticks.log"),
            "out=" + tmp.resolve("trace"),
            tmp);
    String facts = t.definitions.attributes().toString();
    long monitorsFrom = Long.parseLong(t.definitions.attributes().get("agent.monitor_events_from"));

    // The running loop: from the JVM's events, in its supplement stream; one wait every 10 ms.
    List<Event> running = timerWaits(t, "running-timer");
    long afterEvents = running.stream().filter(e -> e.time() >= monitorsFrom).count();
    assertTrue(afterEvents >= 50, afterEvents + " timer waits after the events began\n" + facts);
    // The woven loop: from its own code, each wait once.
    List<Event> started = timerWaits(t, "new-timer");
    assertTrue(started.size() >= 100, started.size() + " waits of the new timer\n" + facts);
    for (Event e : started) {
      assertFalse(
          t.definitions.thread(e.stream()).isSupplement(),
          "a woven loop's waits are not taken from the JVM's events as well");
    }
  }

  /** The timer_due WAIT_ENTERs of a thread, in its own and its supplement streams. */
  private static List<Event> timerWaits(TraceFacts t, String thread) {
    return t.ofThread(thread).stream()
        .filter(e -> e.kind() == EventKind.WAIT_ENTER)
        .filter(e -> e.get(Field.WAIT_KIND) == WaitKind.TIMER_DUE)
        .filter(e -> "Timer.waitUntilDue".equals(regionName(t, e)))
        .toList();
  }

  private static String regionName(TraceFacts t, Event e) {
    RegionDef r = t.definitions.region((int) e.get(Field.REGION));
    return r == null ? null : r.name();
  }
}
