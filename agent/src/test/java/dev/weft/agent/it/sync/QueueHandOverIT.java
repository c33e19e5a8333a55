package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.QueueHandOverApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hand-overs through queues ({@link QueueHandOverApp}): a consumer's take names its queue
 * (WAIT_ENTER_ON), and the producer's put that ended it is a NOTIFY of that queue, timed within the
 * take; a put while no consumer waits writes nothing. Before, the take was a wait without a waker,
 * and neither the analysis nor the critical path could say who the consumer waited for.
 */
@Tag("child-jvm")
class QueueHandOverIT {
  @TempDir Path tmp;

  /** A take shorter than this may have found its element already there (no wait to end). */
  private static final long WAITED_NS = 1_000_000;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void eachTakeIsEndedByItsProducersHandOver(Path jdk) {
    TraceFacts t = SyncTraces.run(jdk, tmp, "", QueueHandOverApp.class).trace();

    // No consumer waited while main filled and drained its queue: nothing recorded for it.
    assertEquals(List.of(), queueNotifies(t.ofThread("main")), "main's puts");

    assertHandOvers(t, "consumer", "producer");
    assertHandOvers(t, "borrower", "returner");
  }

  private static void assertHandOvers(TraceFacts t, String consumer, String producer) {
    List<Event> takes = new ArrayList<>();
    List<Event> own = t.ofThread(consumer);
    List<Event> notifies = queueNotifies(t.ofThread(producer));
    String facts = "\n" + consumer + ": " + own + "\n" + producer + ": " + notifies;
    int waited = 0;
    long queue = -1;
    for (int i = 0; i < own.size(); i++) {
      Event e = own.get(i);
      if (e.kind() != EventKind.WAIT_ENTER_ON) {
        continue;
      }
      takes.add(e);
      assertEquals(WaitKind.QUEUE, e.get(Field.WAIT_KIND), facts);
      long named = e.get(Field.OBJECT);
      assertTrue(named != 0 && (queue < 0 || named == queue), "one queue" + facts);
      queue = named;
      Event exit = own.get(i + 1);
      assertEquals(EventKind.WAIT_EXIT, exit.kind(), facts);
      if (exit.time() - e.time() < WAITED_NS) {
        continue;
      }
      waited++;
      boolean ended = false;
      for (Event n : notifies) {
        ended |= n.get(Field.OBJECT) == named && n.time() >= e.time() && n.time() <= exit.time();
      }
      assertTrue(ended, "a hand-over within the take at " + e.time() + facts);
    }
    assertEquals(QueueHandOverApp.ROUNDS, takes.size(), "every take names its queue" + facts);
    assertTrue(waited >= QueueHandOverApp.ROUNDS / 2, "most takes waited " + waited + facts);
    // One hand-over per element put while the consumer waited; none for an offer that put nothing.
    assertTrue(
        notifies.size() >= waited && notifies.size() <= QueueHandOverApp.ROUNDS,
        notifies.size() + " hand-overs" + facts);
  }

  private static List<Event> queueNotifies(List<Event> events) {
    return events.stream()
        .filter(e -> e.kind() == EventKind.NOTIFY && e.get(Field.WAIT_KIND) == WaitKind.QUEUE)
        .toList();
  }
}
