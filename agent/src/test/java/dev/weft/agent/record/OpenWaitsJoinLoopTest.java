package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agentit.apps.sync.JoinLoop;
import dev.weft.trace.Event;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread joining threads in a loop from a frame that ran before the attach goes from one join to
 * the next without recording an event: each join is followed as a wait of its own, for its own
 * thread, the next from where the previous ended. Before, the loop was one join, for the first
 * thread, until the last one ended, and its cause was the wrong thread.
 */
class OpenWaitsJoinLoopTest {
  @TempDir Path tmp;

  @Test
  void eachJoinOfALoopIsAWaitForItsOwnThread() throws Exception {
    List<CountDownLatch> releases = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    long[] ended = new long[3];
    for (int i = 0; i < 3; i++) {
      CountDownLatch release = new CountDownLatch(1);
      int n = i;
      Thread w =
          new Thread(
              () -> {
                try {
                  release.await();
                } catch (InterruptedException e) {
                  return;
                }
                ended[n] = System.nanoTime();
              },
              "worker-" + i);
      w.start();
      releases.add(release);
      workers.add(w);
    }
    Thread joiner = new Thread(() -> JoinLoop.joinAll(workers), "joiner");
    joiner.start();
    while (joiner.getState() != Thread.State.WAITING) {
      Thread.sleep(1);
    }

    Path dir = tmp.resolve("t");
    try (TraceWriter writer = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      OpenWaits waits = new OpenWaits(writer, new RegionRegistry(writer));
      assertTrue(waits.add(List.of(joiner), System.nanoTime(), OpenWaits.MARK));
      Thread poller = new Thread(waits::run, "poller");
      poller.start();
      for (CountDownLatch release : releases) {
        Thread.sleep(150);
        release.countDown();
      }
      joiner.join();
      Thread.sleep(100); // a poll sees its end
      waits.stop(System.nanoTime());
      poller.join(5_000);
    }

    List<Event> joins = new ArrayList<>();
    try (Trace t = Trace.open(dir)) {
      EventCursor c = t.events();
      while (c.next()) {
        if (c.kind() == EventKind.JOIN_WAIT_ENTER || c.kind() == EventKind.JOIN_WAIT_EXIT) {
          joins.add(c.snapshot());
        }
      }
    }
    assertEquals(6, joins.size(), joins.toString());
    for (int i = 0; i < 3; i++) {
      Event enter = joins.get(2 * i);
      Event exit = joins.get(2 * i + 1);
      assertEquals(EventKind.JOIN_WAIT_ENTER, enter.kind(), joins.toString());
      assertEquals(EventKind.JOIN_WAIT_EXIT, exit.kind(), joins.toString());
      assertEquals(workers.get(i).getId(), enter.get(Field.TARGET), "join " + i + ": " + joins);
      assertTrue(exit.time() >= ended[i], "join " + i + " ended after its thread: " + joins);
      if (i > 0) {
        assertEquals(joins.get(2 * i - 1).time(), enter.time(), "the next join starts there");
      }
    }
  }
}
