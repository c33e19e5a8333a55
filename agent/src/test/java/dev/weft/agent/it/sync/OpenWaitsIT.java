package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.OpenWaitsApp;
import dev.weft.agentit.apps.sync.WrappedPoolWorkersAttachApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.LockFlags;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
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
 * Waits already in progress when the agent attaches ({@link OpenWaitsApp}): each is recorded from
 * the recording's start to its end, at the user's line, marked as begun before the attach, and ends
 * between main's release and the end the thread logged, give or take the uncertainty the agent
 * states for it; a wait still open at the detach lasts to it.
 */
@Tag("child-jvm")
class OpenWaitsIT {
  private static final Class<?> APP = OpenWaitsApp.class;

  /**
   * Largest uncertainty of an end the test accepts: polls are at most 10 ms apart when the poller
   * runs in time; on a host at load 25 it was once 228 ms late.
   */
  private static final long MAX_UNCERTAINTY_NS = 1_000_000_000;

  @TempDir Path tmp;

  /** When main was about to end each thread's wait: the wait ended after it. */
  private final Map<String, Long> released = new HashMap<>();

  /** When a thread's waiting call first returned, where the app logs it (Object.wait). */
  private final Map<String, Long> firstReturn = new HashMap<>();

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void waitsOpenAtTheAttachAreRecordedFromTheStartToTheirEnd(Path jdk) throws IOException {
    Path log = tmp.resolve("waits.log");
    TraceFacts t = RunningWaitsIT.attachTo(jdk, APP, log, "out=" + tmp.resolve("trace"), tmp);

    Map<String, long[]> logged = new HashMap<>();
    for (String line : Files.readAllLines(log)) {
      String[] f = line.split(" ");
      if (f[0].equals("released")) {
        released.put(f[1], Long.parseLong(f[2]));
        continue;
      }
      if (f[0].equals("returned")) {
        firstReturn.putIfAbsent(f[1], Long.parseLong(f[2]));
        continue;
      }
      logged.put(f[0], new long[] {Long.parseLong(f[1]), f.length > 2 ? Long.parseLong(f[2]) : 0});
    }
    // A sleep ends no earlier than its length after its start.
    released.put("sleep", logged.get("sleep")[0] + OpenWaitsApp.SLEEP_MS * 1_000_000);
    long attached = logged.get("attached")[0];
    long detached = logged.get("detached")[0];
    String summary = t.definitions.attributes().get("agent.waits_open_at_attach");
    assertNotNull(summary, t.definitions.attributes().toString());
    // The analysis starts once the loaded classes were woven: within the attach's call.
    long recordingFrom = Long.parseLong(t.definitions.attributes().get("agent.recording_from"));
    assertTrue(
        recordingFrom > t.definitions.clock().nanoBase() && recordingFrom <= attached,
        "recording from "
            + recordingFrom
            + ", trace started at "
            + t.definitions.clock().nanoBase()
            + ", attach returned at "
            + attached);

    check(
        t,
        summary,
        logged,
        "barrier",
        "CyclicBarrier.await",
        "// barrier open at attach",
        attached);
    check(t, summary, logged, "lock", "ReentrantLock.lock", "// lock open at attach", attached);
    check(t, summary, logged, "monitor", "synchronized", "// monitor open at attach", attached);
    check(
        t, summary, logged, "objectWait", "Object.wait", "// object wait open at attach", attached);
    if (logged.get("sleep")[1] > attached) {
      check(t, summary, logged, "sleep", "Thread.sleep", "// sleep open at attach", attached);
      // The join of the sleeping thread: a join wait for that thread, which ends after the
      // sleeping thread's THREAD_END (written as it exited: its run() began before the attach).
      released.put("join", logged.get("sleep")[1]);
      check(t, summary, logged, "join", "Thread.join", "// join open at attach", attached);
      long sleeperEnd = -1;
      for (Event e : t.eventsByStream.get(SyncTraces.stream(t, "sleep"))) {
        if (e.kind() == EventKind.THREAD_END) {
          sleeperEnd = e.time();
        }
      }
      assertTrue(
          sleeperEnd >= logged.get("sleep")[1],
          "the sleeping thread's THREAD_END, at its exit: " + sleeperEnd);
      long[] join = recorded(t, "join", "Thread.join", "// join open at attach");
      assertTrue(join[1] > sleeperEnd, "the join ends after the joined thread's THREAD_END");
    } else {
      System.out.println("sleep: ended before the attach returned; not compared");
    }
    // Still waiting at the detach: recorded from the recording's start and left open, as the
    // hooks leave theirs; the trace ends at the moment the recording stopped, inside the call.
    long[] forever = recorded(t, "forever", "CountDownLatch.await", "// latch open at attach");
    assertEquals(-1, forever[1], "forever: still open at the end");
    long stoppedAt = t.definitions.endTime();
    long detachReturned = logged.get("detachReturned")[0];
    assertTrue(
        stoppedAt >= detached && stoppedAt <= detachReturned,
        "trace end "
            + stoppedAt
            + ", detach called at "
            + detached
            + " and returned at "
            + detachReturned);
    assertTrue(summary.contains("1 lasted to the end"), summary);
    // A thread started in main's frame, which runs since before the attach (its call site is not
    // woven): the hook in Thread.start() records the start, so the thread's begin and end are.
    int started = SyncTraces.stream(t, "startedAfterAttach");
    long startedId = t.definitions.thread(started).javaId();
    List<Event> startedEvents = t.eventsByStream.get(started);
    assertEquals(EventKind.THREAD_BEGIN, startedEvents.get(0).kind(), startedEvents.toString());
    assertEquals(
        EventKind.THREAD_END,
        startedEvents.get(startedEvents.size() - 1).kind(),
        startedEvents.toString());
    int creates = 0;
    for (Event e : t.eventsByStream.get(SyncTraces.stream(t, "main"))) {
      if (e.kind() == EventKind.THREAD_CREATE && e.get(Field.THREAD) == startedId) {
        RegionDef region = t.definitions.region((int) e.get(Field.REGION));
        assertEquals("Thread.start", region.name());
        assertEquals(SyncTraces.lineOf(APP, "// start in a running frame"), region.firstLine());
        creates++;
      }
    }
    assertEquals(1, creates, "main's THREAD_CREATE of startedAfterAttach, once");
    // Threads whose run() began before the attach and returned during the recording, unseen: the
    // JVM's counts are taken as they terminate (Thread.exit), so the analysis can cross-check
    // them. objectWait ends four steps after the attach, well after the counts' baseline.
    assertNotNull(
        t.definitions.jvmCounts(SyncTraces.stream(t, "objectWait")),
        "objectWait's JVM counts; missed: "
            + t.definitions.attributes().get("agent.jvm_counts_missed"));
    // The trace ends at the stop, not after the detach restored the classes: nothing was
    // recorded meanwhile, and the analysis window must not count that time as the threads running.
    // The forever thread's open wait ended then: its latch opened after the detach returned.
    assertTrue(logged.get("forever")[1] > detachReturned, "forever waited through the detach");
  }

  /**
   * The recorded wait of {@code thread} against its logged one. The wait really ended between
   * main's release and the thread's own clock read after the call returned; a thread woken but not
   * yet running (descheduled, or held at a safepoint: JFR starts meanwhile) may log its end tens of
   * milliseconds after it left the wait, so the recorded end is compared with that interval.
   */
  /**
   * Pool workers idle at the attach whose threads wrap the JDK's worker in the application's
   * runnable ({@link WrappedPoolWorkersAttachApp}, as Tomcat's {@code TaskThread}) are idle workers
   * of their pool, not threads parked by the user: no wait open at the attach on them. Before, each
   * was a park begun before the attach (a scheduled executor's worker waiting for its task due
   * later read as 6 % of a Tomcat recording's time in condition_wait).
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void idleWorkersWrappedByTheApplicationAreNoOpenWaits(Path jdk) throws IOException {
    Path log = tmp.resolve("pools.log");
    TraceFacts t =
        RunningWaitsIT.attachTo(
            jdk, WrappedPoolWorkersAttachApp.class, log, "out=" + tmp.resolve("trace"), tmp);
    assertEquals("ok\n", Files.readString(log));
    int workers = 0;
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (!d.name().startsWith("wrapped-")) {
        continue;
      }
      if (!d.isSupplement()) {
        workers++;
        assertTrue(d.pool() != 0, d.name() + " is its pool's");
      }
      for (Event e : t.eventsByStream.get(d.stream())) {
        assertTrue(
            e.kind() != EventKind.WAIT_ENTER && e.kind() != EventKind.WAIT_ENTER_ON,
            d.name() + " idles in its pool, waits for nothing of the user's: " + e);
      }
    }
    assertEquals(2, workers, "the two workers");
  }

  private void check(
      TraceFacts t,
      String summary,
      Map<String, long[]> logged,
      String thread,
      String called,
      String marker,
      long attached) {
    long[] truth = logged.get(thread).clone();
    long[] w = recorded(t, thread, called, marker);
    // Begun before the attach: from the recording's start, which lies before loadAgent returned.
    assertTrue(w[0] > truth[0] && w[0] < attached, thread + ": starts at the recording's start");
    long release = released.get(thread);
    Long returned = firstReturn.get(thread);
    if (returned != null && returned < release) {
      // A spurious wake-up (Object.wait may return without a notification): the call the agent
      // followed ended then, and the loop around it waited again in a call of its own. When it
      // woke is known only from above.
      System.out.printf(
          "%s: woke %.3f ms before the release; compared with that return%n",
          thread, (release - returned) / 1e6);
      truth[1] = returned;
      release = attached;
    }
    // The agent says how far off the end may be: half the distance of the polls around it.
    Matcher m =
        Pattern.compile("\\b" + thread + " " + Pattern.quote(called) + " ±([0-9.]+) ms")
            .matcher(summary);
    assertTrue(m.find(), thread + ": its uncertainty in " + summary);
    // (The clock reads around a poll lie microseconds from its state reads; the text rounds.)
    long uncertainty = (long) (Double.parseDouble(m.group(1)) * 1e6) + 200_000;
    assertTrue(uncertainty < MAX_UNCERTAINTY_NS, thread + ": polled in time: " + summary);
    long error = w[1] - truth[1];
    System.out.printf(
        "%s: logged end %+.3f ms after the attach, %.3f ms after the release; recorded end"
            + " %+.3f ms from the logged one, %+.3f ms from the release%n",
        thread,
        (truth[1] - attached) / 1e6,
        (truth[1] - release) / 1e6,
        error / 1e6,
        (w[1] - release) / 1e6);
    assertTrue(
        w[1] >= release - uncertainty && w[1] <= truth[1] + uncertainty,
        thread
            + ": recorded end "
            + w[1]
            + ", released "
            + release
            + ", logged end "
            + truth[1]
            + " ("
            + error
            + " ns, uncertainty "
            + uncertainty
            + " ns)");
  }

  /** The one wait recorded for {@code thread} at the marked line, as start and end. */
  private static long[] recorded(TraceFacts t, String thread, String called, String marker) {
    int line = SyncTraces.lineOf(APP, marker);
    RegionDef region = null;
    for (RegionDef d : t.definitions.regions()) {
      // The line's woven call site has a region of its own.
      // A blocked entry's line is the one the JVM gives its frame: the statement's or the next.
      if (d.file().equals(APP.getSimpleName() + ".java")
          && (d.firstLine() == line || (called.equals("synchronized") && d.firstLine() == line + 1))
          && d.name().endsWith(" (begun before the attach)")) {
        assertEquals(null, region, thread + ": one region of a wait open at the attach");
        region = d;
      }
    }
    if (region == null) {
      StringBuilder marked = new StringBuilder();
      for (RegionDef d : t.definitions.regions()) {
        if (d.name().endsWith(" (begun before the attach)")) {
          marked.append(d).append('\n');
        }
      }
      throw new AssertionError(
          thread + ": no region of a wait open at the attach at line " + line + "; " + marked);
    }
    assertEquals(called + " (begun before the attach)", region.name());
    long javaId = t.definitions.thread(SyncTraces.stream(t, thread)).javaId();
    long start = -1;
    long end = -1;
    int waits = 0;
    for (ThreadDef s : t.definitions.supplements()) {
      if (s.javaId() != javaId) {
        continue;
      }
      for (Event e : t.eventsByStream.get(s.stream())) {
        if (e.kind() == EventKind.WAIT_ENTER && e.get(Field.REGION) == region.id()) {
          long kind = e.get(Field.WAIT_KIND);
          long expected =
              called.equals("Object.wait")
                  ? WaitKind.OBJECT_WAIT
                  : called.equals("Thread.sleep") ? WaitKind.SLEEP : WaitKind.PARK;
          assertEquals(expected, kind, thread + ": wait kind");
          start = e.time();
        } else if (e.kind() == EventKind.WAIT_EXIT && e.get(Field.REGION) == region.id()) {
          end = e.time();
          waits++;
        } else if (e.kind() == EventKind.JOIN_WAIT_ENTER && e.get(Field.REGION) == region.id()) {
          assertEquals(ConstructKind.THREAD_JOIN, region.kind());
          long sleeper = t.definitions.thread(SyncTraces.stream(t, "sleep")).javaId();
          assertEquals(sleeper, e.get(Field.TARGET), thread + ": joins the sleeping thread");
          start = e.time();
        } else if (e.kind() == EventKind.JOIN_WAIT_EXIT && e.get(Field.REGION) == region.id()) {
          end = e.time();
          waits++;
        } else if (e.kind() == EventKind.LOCK_REQUEST && e.get(Field.REGION) == region.id()) {
          assertEquals(ConstructKind.MONITOR, region.kind());
          start = e.time();
        } else if (e.kind() == EventKind.LOCK_ACQUIRED && start >= 0 && end < 0) {
          assertEquals(LockFlags.CONTENDED, e.get(Field.FLAGS));
          end = e.time();
          waits++;
        }
      }
    }
    assertTrue(start >= 0, thread + ": its wait recorded");
    assertTrue(waits <= 1, thread + ": one wait recorded");
    return new long[] {start, end};
  }
}
