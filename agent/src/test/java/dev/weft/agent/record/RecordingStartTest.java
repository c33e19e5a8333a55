package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.agentit.apps.sync.Waiting;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Definitions;
import dev.weft.trace.Event;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An attached recording's start, in-process: between the attach and the moment the loaded classes
 * are woven (the recording's start) threads end and begin to wait unseen; at the start their ends
 * are written and their waits taken, and a join open at the attach waits for its thread.
 */
class RecordingStartTest {
  @TempDir Path tmp;

  private final List<Thread> threads = new ArrayList<>();

  private volatile boolean proceed;

  @AfterEach
  void uninstall() throws InterruptedException {
    WeftBridge.install(null);
    for (Thread t : threads) {
      t.join(10_000);
    }
  }

  private Thread start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
    return t;
  }

  private static void awaitState(Thread t, Thread.State state) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (t.getState() != state) {
      assertTrue(System.nanoTime() < deadline, t.getName() + " never " + state);
      Thread.sleep(1);
    }
  }

  /** A recorder into a new trace in {@code dir}, measuring from the start. */
  private static Recorder recorder(Path dir) throws java.io.IOException {
    TraceWriter writer = TraceWriter.create(dir, TraceWriter.Options.defaults());
    return new Recorder(writer, new RegionRegistry(writer), true, 0, null, false);
  }

  private static void startPoller(Recorder r, Runnable poller) {
    if (poller != null) {
      Thread p = new Thread(poller, "weft-open-waits");
      p.setDaemon(true);
      r.ignore(p);
      p.start();
    }
  }

  /** Events by stream, with the thread supplements' events under their owner's Java id. */
  private static final class Recorded {
    final Definitions defs;
    final Map<Long, List<Event>> own = new HashMap<>();
    final Map<Long, List<Event>> supplement = new HashMap<>();

    Recorded(Path dir) {
      try (Trace t = Trace.open(dir)) {
        defs = t.definitions();
        for (ThreadDef d : defs.streamDefinitions()) {
          List<Event> events = new ArrayList<>();
          EventCursor c = t.stream(d.stream());
          while (c.next()) {
            events.add(c.snapshot());
          }
          (d.isSupplement() ? supplement : own)
              .computeIfAbsent(d.javaId(), k -> new ArrayList<>())
              .addAll(events);
        }
      }
    }

    RegionDef region(long id) {
      for (RegionDef d : defs.regions()) {
        if (d.id() == id) {
          return d;
        }
      }
      throw new AssertionError("no region " + id);
    }
  }

  @Test
  void threadsThatEndedAndWaitsThatBeganBeforeTheRecordingStartAreTakenThen() throws Exception {
    Path dir = tmp.resolve("t");
    Recorder r = recorder(dir);
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch recorded = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    // Alive at the attach, ends before the recording starts, having recorded nothing.
    Thread quiet = start("quiet", () -> Waiting.await(go));
    // Alive at the attach, records an event, ends before the recording starts.
    Thread spoke =
        start(
            "spoke",
            () -> {
              Waiting.await(go);
              WeftBridge.install(r);
              WeftBridge.waitEnter(0, WaitKind.SLEEP);
              WeftBridge.waitExit(0);
              recorded.countDown();
            });
    // Running at the attach, then waits in a hook not yet woven: taken at the recording's start.
    Thread late =
        start(
            "late",
            () -> {
              while (!proceed) {
                Thread.onSpinWait();
              }
              Waiting.await(release);
            });
    awaitState(quiet, Thread.State.WAITING);
    awaitState(spoke, Thread.State.WAITING);
    assertEquals(Thread.State.RUNNABLE, late.getState());
    r.openExistingThreads();
    startPoller(r, r.waitsOpenAtAttach());
    go.countDown();
    proceed = true;
    quiet.join();
    spoke.join();
    assertTrue(recorded.await(10, TimeUnit.SECONDS));
    awaitState(late, Thread.State.WAITING);
    long at = System.nanoTime();
    startPoller(r, r.recordingStarts(at));
    release.countDown();
    late.join();
    Thread.sleep(50); // the poller sees late leave its wait
    Map<String, String> attributes = new HashMap<>();
    r.stopOpenWaits(System.nanoTime(), attributes);
    r.close(attributes);

    Recorded t = new Recorded(dir);
    List<Event> quietEvents = t.own.get(quiet.getId());
    assertNotNull(quietEvents, "quiet's stream, opened at the attach");
    assertEquals(1, quietEvents.size(), quietEvents.toString());
    assertEquals(EventKind.THREAD_END, quietEvents.get(0).kind());
    assertEquals(at, quietEvents.get(0).time(), "ended at the recording's start");
    List<Event> spokeEvents = t.own.get(spoke.getId());
    assertEquals(EventKind.THREAD_END, spokeEvents.get(spokeEvents.size() - 1).kind());
    assertEquals(at, spokeEvents.get(spokeEvents.size() - 1).time());
    // late's wait at the attach (on go) ended before the recording started; its second wait, begun
    // unseen, is taken from the recording's start, marked as such, and ends after the release.
    List<Event> lateWaits = t.supplement.get(late.getId());
    assertNotNull(lateWaits, "late's waits");
    Event enter = null;
    Event exit = null;
    for (Event e : lateWaits) {
      if (e.kind() == EventKind.WAIT_ENTER
          && t.region(e.get(Field.REGION)).name().endsWith(OpenWaits.MARK_WEAVING)) {
        enter = e;
      } else if (enter != null && exit == null && e.kind() == EventKind.WAIT_EXIT) {
        exit = e;
      }
    }
    assertNotNull(enter, "late's wait begun before the recording's start: " + lateWaits);
    assertEquals(at, enter.time());
    assertEquals(
        "CountDownLatch.await" + OpenWaits.MARK_WEAVING, t.region(enter.get(Field.REGION)).name());
    assertNotNull(exit, "its end");
    assertTrue(exit.time() > at);
  }

  @Test
  void aJoinOpenAtTheAttachWaitsForItsThreadAndEndsAfterIt() throws Exception {
    Path dir = tmp.resolve("t");
    Recorder r = recorder(dir);
    CountDownLatch release = new CountDownLatch(1);
    Thread worker =
        start(
            "worker",
            () -> {
              Waiting.await(release);
              WeftBridge.install(r);
              WeftBridge.threadExiting(); // as the hook of Thread.exit() does
            });
    Thread joiner = start("joiner", () -> Waiting.join(worker));
    awaitState(worker, Thread.State.WAITING);
    awaitState(joiner, Thread.State.WAITING);
    r.openExistingThreads();
    startPoller(r, r.waitsOpenAtAttach());
    startPoller(r, r.recordingStarts(System.nanoTime()));
    release.countDown();
    joiner.join();
    Thread.sleep(50); // the poller sees the join return
    Map<String, String> attributes = new HashMap<>();
    r.stopOpenWaits(System.nanoTime(), attributes);
    r.close(attributes);

    Recorded t = new Recorded(dir);
    List<Event> workerEvents = t.own.get(worker.getId());
    Event end = workerEvents.get(workerEvents.size() - 1);
    assertEquals(EventKind.THREAD_END, end.kind(), "written at Thread.exit(): " + workerEvents);
    Event enter = null;
    Event exit = null;
    for (Event e : t.supplement.get(joiner.getId())) {
      if (e.kind() == EventKind.JOIN_WAIT_ENTER) {
        enter = e;
      } else if (e.kind() == EventKind.JOIN_WAIT_EXIT) {
        exit = e;
      }
    }
    assertNotNull(enter, "the join open at the attach, as a join wait");
    RegionDef region = t.region(enter.get(Field.REGION));
    assertEquals("Thread.join" + OpenWaits.MARK, region.name());
    assertEquals(ConstructKind.THREAD_JOIN, region.kind());
    assertEquals(worker.getId(), enter.get(Field.TARGET), "waits for the worker");
    assertNotNull(exit);
    assertTrue(
        exit.time() > end.time(),
        "the join ends after the worker's THREAD_END: " + exit.time() + " vs " + end.time());
  }
}
