package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.NettyEventLoopApp;
import dev.weft.agentit.apps.sync.NettyEventLoopAttachApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Netty's event loops as pools of one thread ({@link NettyEventLoopApp}, on Netty 4.2 and 4.1):
 * every task given to the loop (executed from outside it, scheduled and come due, periodic, queued
 * for the end of its round) is created in the loop's pool and begins and ends on the loop's thread;
 * a task it rejects is withdrawn; a task's wait in the loop's queue is what the program measures
 * itself; the loop's thread is no pool worker (it handles I/O between tasks). Attached to a {@code
 * DefaultEventLoop} ({@link NettyEventLoopAttachApp}), whose {@code run()} keeps the code it began
 * with, the tasks given to the loop after the attach are its tasks too, begun and ended on it.
 * Before, no task of an event loop was recorded: its lag was invisible.
 */
@Tag("child-jvm")
class NettyEventLoopsIT {
  private static final String EXECUTE =
      "io.netty.util.concurrent.SingleThreadEventExecutor.execute";
  private static final String DUE =
      "io.netty.util.concurrent.AbstractScheduledEventExecutor.schedule";
  private static final String TAIL =
      "io.netty.channel.SingleThreadEventLoop.executeAfterEventLoopIteration";

  @TempDir Path tmp;

  /** A Netty version: the directory of its jars under the test libraries ("" for the newest). */
  record Netty(String name, String dir) {
    @Override
    public String toString() {
      return name;
    }

    String classPath() throws IOException {
      List<Path> jars = new ArrayList<>();
      for (String jar :
          List.of("netty-common-", "netty-buffer-", "netty-resolver-", "netty-transport-")) {
        jars.add(
            dir.isEmpty()
                ? ChildJvm.itLib(jar)
                : ChildJvm.itLib(ChildJvm.IT_LIBS.resolve(dir), jar));
      }
      return ChildJvm.classPath(jars.toArray(Path[]::new));
    }
  }

  static List<Arguments> versions() {
    List<Arguments> out = new ArrayList<>();
    for (Path jdk : SyncTraces.jdks()) {
      for (Netty n : List.of(new Netty("netty-4.2", ""), new Netty("netty-4.1", "netty-4.1"))) {
        out.add(Arguments.of(n, jdk));
      }
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("versions")
  void everyTaskGivenToTheLoopIsItsTask(Netty netty, Path jdk) throws IOException {
    Path waits = tmp.resolve("waits.txt");
    SyncTraces.Run run =
        SyncTraces.runOn(
            netty.classPath(), jdk, tmp, "", NettyEventLoopApp.class, waits.toString());
    assertTrue(
        run.stdout().endsWith("rejected\nran " + NettyEventLoopApp.BURST + "\n"), run.stdout());
    long measured = Long.parseLong(Files.readString(waits).trim());
    TraceFacts t = run.trace();

    int loop = loopStream(t);
    int main = SyncTraces.stream(t, "main");
    long pool = theLoopsPool(t);
    Lives lives = new Lives(t, pool);
    assertEquals(0, lives.begunUncreated, "tasks begun on the loop that no one created");
    assertEquals(0, lives.endedUnbegun, "tasks ended that had not begun");
    assertEquals(List.of(), lives.stillQueued(), "tasks created in the loop and never run");

    // The burst: the tasks main executed after the first (which started the loop), in order.
    List<long[]> fromMain = new ArrayList<>();
    for (long[] r : lives.runs) {
      if (r[RUN_CREATOR] == main && EXECUTE.equals(lives.regions.get(r))) {
        fromMain.add(r);
      }
    }
    fromMain.sort(Comparator.comparingLong(r -> r[RUN_CREATE]));
    List<long[]> burst = fromMain.subList(1, 1 + NettyEventLoopApp.BURST);
    for (long[] r : burst) {
      assertEquals(loop, r[RUN_STREAM], "the burst ran on the loop");
      assertTrue(r[RUN_END] - r[RUN_BEGIN] >= NettyEventLoopApp.BURST_TASK_NS, "a task's run");
    }
    long recorded = 0;
    for (long[] r : burst) {
      recorded += r[RUN_BEGIN] - r[RUN_CREATE];
    }
    // The program's measure brackets the recorded one: its first clock read is before the create,
    // its second after the begin. The agent's own time in between is microseconds per task.
    assertTrue(recorded <= measured, "recorded " + recorded + " ns, measured " + measured);
    assertTrue(
        recorded >= measured - measured / 20 - NettyEventLoopApp.BURST * 200_000L,
        "recorded " + recorded + " ns, measured " + measured);

    Map<String, Integer> createdAt = new HashMap<>();
    Map<String, Integer> ranOnLoop = new HashMap<>();
    for (long[] r : lives.runs) {
      createdAt.merge(lives.regions.get(r), 1, Integer::sum);
      if (r[RUN_STREAM] == loop) {
        ranOnLoop.merge(lives.regions.get(r), 1, Integer::sum);
      }
    }
    int due = createdAt.getOrDefault(DUE, 0);
    assertTrue(
        due >= NettyEventLoopApp.SCHEDULED + NettyEventLoopApp.PERIODIC_RUNS,
        "scheduled tasks created as they came due: " + createdAt);
    assertEquals(due, ranOnLoop.getOrDefault(DUE, 0), "scheduled tasks run on the loop");
    assertEquals(
        NettyEventLoopApp.TAIL, createdAt.getOrDefault(TAIL, 0), "tail tasks: " + createdAt);
    assertEquals(NettyEventLoopApp.TAIL, ranOnLoop.getOrDefault(TAIL, 0), "tail tasks on the loop");
    int withdrawn = 0;
    for (long[] r : lives.runs) {
      if (r[RUN_STREAM] != loop) {
        assertEquals(main, r[RUN_STREAM], "a task not run on the loop");
        assertEquals(r[RUN_BEGIN], r[RUN_END], "withdrawn at once, not run");
        withdrawn++;
      }
    }
    assertEquals(1, withdrawn, "the task the shut-down loop rejected is withdrawn");
  }

  @ParameterizedTest
  @MethodSource("versions")
  void attachedWhileTheLoopRunsTasks(Netty netty, Path jdk) throws IOException {
    Path log = tmp.resolve("ran.log");
    TraceFacts t =
        RunningWaitsIT.attachTo(
            netty.classPath(),
            jdk,
            NettyEventLoopAttachApp.class,
            log,
            "out=" + tmp.resolve("trace"),
            tmp);
    assertTrue(Files.readString(log).startsWith("ran "));
    int loop = loopStream(t);
    long pool = theLoopsPool(t);
    Lives lives = new Lives(t, pool);
    int onLoop = 0;
    for (long[] r : lives.runs) {
      onLoop += r[RUN_STREAM] == loop ? 1 : 0;
    }
    assertTrue(onLoop > 500, onLoop + " tasks created and run on the loop in two seconds");
    List<Event> loopEvents = t.eventsByStream.get(loop);
    assertTrue(
        lives.stillQueued().size() <= 2,
        "tasks never begun (but the one queued at the detach), created at "
            + lives.stillQueuedSince()
            + " ns; the loop's events from "
            + loopEvents.get(0).time()
            + " to "
            + loopEvents.get(loopEvents.size() - 1).time());
    // The loop runs its queue in order: the tasks queued before the attach (while the agent wove,
    // the loop may fall behind) all begin before the first task created after it.
    assertTrue(
        lives.lastUncreatedBegin < lives.firstCreatedBegin,
        lives.begunUncreated
            + " tasks begun without a create, the last at "
            + lives.lastUncreatedBegin
            + " ns, after the first created task began at "
            + lives.firstCreatedBegin);
  }

  /** The stream of the loop's thread ("loop-…"), which is no pool worker. */
  private static int loopStream(TraceFacts t) {
    List<Integer> loops = new ArrayList<>();
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (d.name().startsWith("loop-") && !d.isSupplement()) {
        loops.add(d.stream());
        assertEquals(0, d.pool(), "the loop's thread handles I/O between tasks: no pool worker");
      }
    }
    assertEquals(1, loops.size(), "one loop thread");
    return loops.get(0);
  }

  /** The one pool the tasks executed in a loop are created in. */
  private static long theLoopsPool(TraceFacts t) {
    Set<Long> pools = new HashSet<>();
    for (Event e : t.all()) {
      if (e.kind() == EventKind.TASK_CREATE && EXECUTE.equals(site(SyncTraces.regionOf(t, e)))) {
        pools.add(e.get(Field.POOL));
      }
    }
    assertEquals(1, pools.size(), "one loop: " + pools);
    assertTrue(pools.iterator().next() != 0);
    return pools.iterator().next();
  }

  private static String site(RegionDef r) {
    return r == null ? null : r.declaringClass() + "." + r.method();
  }

  private static final int RUN_CREATE = 0;
  private static final int RUN_BEGIN = 1;
  private static final int RUN_END = 2;
  private static final int RUN_STREAM = 3;
  private static final int RUN_CREATOR = 4;

  /**
   * Each life of a task created in {@code pool}, in time order: create, begin, end (a task object
   * may live again: a periodic task, a recycled one).
   */
  private static final class Lives {
    final List<long[]> runs = new ArrayList<>();
    final Map<long[], String> regions = new HashMap<>();
    final Map<Long, long[]> open = new HashMap<>();
    int begunUncreated;
    int endedUnbegun;
    long lastUncreatedBegin = Long.MIN_VALUE;
    long firstCreatedBegin = Long.MAX_VALUE;

    Lives(TraceFacts t, long pool) {
      List<long[]> order = new ArrayList<>(); // time, stream, index
      List<Event> events = new ArrayList<>();
      for (Map.Entry<Integer, List<Event>> s : t.eventsByStream.entrySet()) {
        for (Event e : s.getValue()) {
          order.add(new long[] {e.time(), s.getKey(), events.size()});
          events.add(e);
        }
      }
      order.sort(Comparator.comparingLong(o -> o[0]));
      Map<Long, long[]> begun = new HashMap<>();
      for (long[] o : order) {
        Event e = events.get((int) o[2]);
        int stream = (int) o[1];
        if (e.kind() == EventKind.TASK_CREATE && e.get(Field.POOL) == pool) {
          long[] life = {e.time(), -1, -1, -1, stream};
          open.put(e.get(Field.TASK), life);
          regions.put(life, site(SyncTraces.regionOf(t, e)));
        } else if (e.kind() == EventKind.TASK_BEGIN) {
          long[] life = open.remove(e.get(Field.TASK));
          if (life == null) {
            if (stream == loopOf(t)) {
              begunUncreated++;
              lastUncreatedBegin = e.time();
            }
            continue;
          }
          if (stream == loopOf(t)) {
            firstCreatedBegin = Math.min(firstCreatedBegin, e.time());
          }
          life[RUN_BEGIN] = e.time();
          life[RUN_STREAM] = stream;
          begun.put(e.get(Field.TASK), life);
        } else if (e.kind() == EventKind.TASK_END) {
          long[] life = begun.remove(e.get(Field.TASK));
          if (life == null) {
            endedUnbegun += stream == loopOf(t) ? 1 : 0;
            continue;
          }
          life[RUN_END] = e.time();
          runs.add(life);
        }
      }
    }

    List<Long> stillQueued() {
      return List.copyOf(open.keySet());
    }

    /** When the tasks still queued at the end were created, in time order. */
    List<Long> stillQueuedSince() {
      return open.values().stream().map(life -> life[RUN_CREATE]).sorted().toList();
    }

    private Integer loop;

    private int loopOf(TraceFacts t) {
      if (loop == null) {
        loop = loopStream(t);
      }
      return loop;
    }
  }
}
