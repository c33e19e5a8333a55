package dev.weft.agent.it.sync;

import static dev.weft.agent.it.sync.RunningWaitsIT.TOLERANCE;
import static dev.weft.agent.it.sync.RunningWaitsIT.brackets;
import static dev.weft.agent.it.sync.RunningWaitsIT.compare;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agent.it.sync.RunningWaitsIT.Truth;
import dev.weft.agentit.apps.sync.RunningForkJoinApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fork-join joins and phaser arrivals in loops that were running when the agent attached ({@link
 * RunningForkJoinApp}): recorded through the hooks in {@code ForkJoinTask} and {@code Phaser} as
 * their call sites record them (a join wait with the tasks the joining thread ran nested in it, an
 * {@code invoke} from outside any pool as a region, an arrival at the phase it returned), with the
 * waits the application measured itself; those in a method called afresh once. With {@code
 * attach.skip_running=true} the classes running at the attach are not woven, and the hooks still
 * record their waits.
 */
@Tag("child-jvm")
class RunningForkJoinIT {
  private static final Class<?> APP = RunningForkJoinApp.class;

  /** The JVM's monitor events are left off: their start perturbs the program for seconds. */
  private static final String CONSTRUCTS = "constructs=-monitors,-waits";

  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void forkJoinJoinsAndArrivalsInFramesRunningBeforeTheAttachAreRecordedOnce(Path jdk)
      throws IOException {
    Path log = tmp.resolve("waits.log");
    TraceFacts t =
        RunningWaitsIT.attachTo(
            jdk, APP, log, "out=" + tmp.resolve("trace") + "," + CONSTRUCTS, tmp);
    assertEquals(
        "locks,barriers,semaphores,read_write_locks,stamped_locks,latches,phasers,joins,futures,"
            + "phaser_arrivals,forkjoin,thread_starts,selects,accepts,pool_workers",
        t.definitions.attributes().get("agent.running_frames"));
    assertNull(t.definitions.attributes().get("agent.skipped_running_classes"));
    Truth truth = Truth.read(log);
    assertRecorded(t, truth);
    // The method called afresh runs woven code: its spin is recorded at its call site.
    assertTrue(
        events(t, "worker-0", EventKind.SPIN_ENTER, regionsAt(t, "// spin in helper")) > 20,
        "the spin in the woven helper is recorded");
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void classesRunningAtTheAttachAreLeftAloneWithSkipRunning(Path jdk) throws IOException {
    Path log = tmp.resolve("waits.log");
    TraceFacts t =
        RunningWaitsIT.attachTo(
            jdk,
            APP,
            log,
            "out=" + tmp.resolve("trace") + "," + CONSTRUCTS + ",attach.skip_running=true",
            tmp);
    String skipped = t.definitions.attributes().get("agent.skipped_running_classes");
    assertTrue(skipped.contains(APP.getName() + "$Worker"), skipped);
    assertTrue(skipped.contains(APP.getName() + "$Server"), skipped);
    assertTrue(
        skipped.contains(APP.getName() + ",") || skipped.contains(APP.getName() + ")"), skipped);
    // Not woven: the spin in the method called afresh, which only a call site records, is not.
    assertEquals(List.of(), regionsAt(t, "// spin in helper"), "the skipped class was not woven");
    // Its waits, also those of the method called afresh, come from the hooks, once each.
    assertRecorded(t, Truth.read(log));
  }

  /** The workers' and the server's joins and arrivals against the application's log. */
  private static void assertRecorded(TraceFacts t, Truth truth) {
    for (int i = 0; i < RunningForkJoinApp.WORKERS; i++) {
      String worker = "worker-" + i;
      int stream = SyncTraces.stream(t, worker);
      compare(
          worker, "join", truth, joins(t, stream, "// fork-join join in running frame"), TOLERANCE);
      compare(
          worker, "get", truth, joins(t, stream, "// fork-join get in running frame"), TOLERANCE);
      compareInvokes(t, truth, worker, stream, "invoke", "// fork-join invoke in running frame");
      compareInvokes(t, truth, worker, stream, "poolInvoke", "// pool invoke in running frame");
      compare(worker, "arrive", truth, arrivals(t, stream, "// arrive in running frame"), -1);
      compare(
          worker, "deregister", truth, arrivals(t, stream, "// deregister in running frame"), -1);
      compare(worker, "helperJoin", truth, joins(t, stream, "// fork-join join in helper"), -1);
      List<Integer> helperInvoke = regionsAt(t, "// fork-join invoke in helper");
      compare(
          worker,
          "helperInvoke",
          truth,
          brackets(t, stream, helperInvoke, EventKind.JOIN_WAIT_ENTER, EventKind.JOIN_WAIT_EXIT),
          -1);
      compare(worker, "helperArrive", truth, arrivals(t, stream, "// arrive in helper"), -1);
    }
    int server = SyncTraces.stream(t, "server");
    compare(
        "server",
        "serverJoinOther",
        truth,
        joins(t, server, "// server join of another pool's task in running frame"),
        TOLERANCE);
    List<Integer> own = regionsAt(t, "// server join of its own task in running frame");
    compare(
        "server",
        "serverJoin",
        truth,
        brackets(t, server, own, EventKind.JOIN_WAIT_ENTER, EventKind.JOIN_WAIT_EXIT),
        -1);
    assertHelpingIsNotWaiting(t, truth, server, own);
  }

  /**
   * The server's join of the task it forked runs that task itself (its pool has no other worker):
   * the recorded join wait has the task nested in it, as at a call site, so that the time it ran
   * the task is not counted as waiting. Recorded waiting (join waits minus the tasks nested in
   * them) and logged waiting (joins minus the logged runs of the tasks inside them) agree within
   * TOLERANCE of the joins' total.
   */
  private static void assertHelpingIsNotWaiting(
      TraceFacts t, Truth truth, int stream, List<Integer> regions) {
    long recordedJoins = 0;
    long recordedTasks = 0;
    long enter = -1;
    int depth = 0;
    long taskBegin = 0;
    for (Event e : t.eventsByStream.get(stream)) {
      boolean ours = e.kind().hasRegion() && regions.contains((int) e.get(Field.REGION));
      if (e.kind() == EventKind.JOIN_WAIT_ENTER && ours && truth.inWindow(new long[] {e.time()})) {
        enter = e.time();
      } else if (e.kind() == EventKind.JOIN_WAIT_EXIT && ours && enter >= 0) {
        recordedJoins += e.time() - enter;
        enter = -1;
      } else if (enter >= 0 && e.kind() == EventKind.TASK_BEGIN && depth++ == 0) {
        taskBegin = e.time();
      } else if (enter >= 0 && e.kind() == EventKind.TASK_END && --depth == 0) {
        recordedTasks += e.time() - taskBegin;
      }
    }
    long loggedJoins = 0;
    long loggedTasks = 0;
    List<long[]> leaves = truth.all("server", "leaf");
    for (long[] j : truth.inWindow("server", "serverJoin")) {
      loggedJoins += j[1] - j[0];
      for (long[] l : leaves) {
        if (l[0] >= j[0] && l[1] <= j[1]) {
          loggedTasks += l[1] - l[0];
        }
      }
    }
    long recordedWaiting = recordedJoins - recordedTasks;
    long loggedWaiting = loggedJoins - loggedTasks;
    System.out.printf(
        "server own joins: logged %.3f ms (tasks run inside %.3f ms), recorded %.3f ms (tasks"
            + " nested %.3f ms); waiting logged %.3f ms, recorded %.3f ms%n",
        loggedJoins / 1e6,
        loggedTasks / 1e6,
        recordedJoins / 1e6,
        recordedTasks / 1e6,
        loggedWaiting / 1e6,
        recordedWaiting / 1e6);
    assertTrue(loggedTasks > loggedJoins / 2, "the server ran its own tasks inside its joins");
    assertTrue(recordedTasks > recordedJoins / 2, "the tasks run inside the joins are nested");
    assertTrue(
        Math.abs(recordedWaiting - loggedWaiting) <= TOLERANCE * loggedJoins,
        "waiting in the server's own joins: recorded "
            + recordedWaiting
            + ", logged "
            + loggedWaiting);
  }

  private static List<long[]> joins(TraceFacts t, int stream, String marker) {
    return brackets(
        t, stream, regionsAt(t, marker), EventKind.JOIN_WAIT_ENTER, EventKind.JOIN_WAIT_EXIT);
  }

  private static List<long[]> arrivals(TraceFacts t, int stream, String marker) {
    return brackets(
        t, stream, regionsAt(t, marker), EventKind.BARRIER_ENTER, EventKind.BARRIER_EXIT);
  }

  /** The regions at the marked line of the app (none when nothing was recorded there). */
  private static List<Integer> regionsAt(TraceFacts t, String marker) {
    int line = SyncTraces.lineOf(APP, marker);
    List<Integer> out = new ArrayList<>();
    for (RegionDef r : t.definitions.regions()) {
      if (r.file().equals(APP.getSimpleName() + ".java") && r.firstLine() == line) {
        out.add(r.id());
      }
    }
    return out;
  }

  /** How many events of {@code kind} in one of {@code regions} the thread's stream has. */
  private static long events(TraceFacts t, String thread, EventKind kind, List<Integer> regions) {
    return t.eventsByStream.get(SyncTraces.stream(t, thread)).stream()
        .filter(e -> e.kind() == kind && regions.contains((int) e.get(Field.REGION)))
        .count();
  }

  /**
   * The invokes at {@code marker}: their join waits against the logged ones, and, as at the call
   * site, a region on the pool with a FORK and a JOIN per invoke (one more or less at the ends of
   * the recording: an invoke under way at the detach has its FORK and no JOIN).
   */
  private static void compareInvokes(
      TraceFacts t, Truth truth, String worker, int stream, String site, String marker) {
    List<Integer> invoke = regionsAt(t, marker);
    List<long[]> invokes =
        brackets(t, stream, invoke, EventKind.JOIN_WAIT_ENTER, EventKind.JOIN_WAIT_EXIT);
    compare(worker, site, truth, invokes, TOLERANCE);
    long forks = events(t, worker, EventKind.FORK, invoke);
    long joins = events(t, worker, EventKind.JOIN, invoke);
    assertTrue(
        Math.abs(forks - invokes.size()) <= 1 && Math.abs(joins - invokes.size()) <= 1,
        worker + " " + site + ": " + forks + " forks, " + joins + " joins, " + invokes.size());
  }
}
