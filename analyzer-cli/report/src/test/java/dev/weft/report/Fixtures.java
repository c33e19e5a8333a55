package dev.weft.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.nio.file.Path;

/** Analysis JSON and traces with known content, for the report tests. */
final class Fixtures {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Origin of the small trace: its first event. */
  static final long T0 = 1_000_000;

  static final int R_MAIN = 1;
  static final int R_PAR = 2;
  static final int R_JOIN = 3;
  static final int R_LOCK = 4;
  static final int R_SUBMIT = 5;
  static final int R_SLEEP = 6;
  static final int R_SPIN = 7;
  static final int R_BAR = 8;
  static final int R_WORK = 9;

  private Fixtures() {}

  /**
   * The small trace: main and timer outside pools; two fork-join workers; one executor worker. 12
   * intervals (main 5, timer 2, fj-worker-1 3, fj-worker-2 1, pool-1-thread-1 1) and 3 arrows.
   */
  static Path smallTrace(Path dir) throws IOException {
    try (TraceWriter w =
        TraceWriter.create(dir, TraceWriter.Options.defaults().withWindows(4096, 8192))) {
      w.defineClock(new ClockDef(0, 0, 1));
      region(w, R_MAIN, ConstructKind.USER_REGION, "main", "App.java", 10);
      region(w, R_PAR, ConstructKind.PARALLEL_STREAM, "parallel stream", "App.java", 20);
      region(w, R_JOIN, ConstructKind.FORK_JOIN_TASK, "ForkJoinTask.join", "App.java", 21);
      region(w, R_LOCK, ConstructKind.REENTRANT_LOCK, "ReentrantLock.lock", "Worker.java", 33);
      region(w, R_SUBMIT, ConstructKind.EXECUTOR, "ExecutorService.submit", "App.java", 40);
      region(w, R_SLEEP, ConstructKind.SLEEP, "Thread.sleep", "App.java", 44);
      region(w, R_SPIN, ConstructKind.SPIN, "Thread.onSpinWait", "Timer.java", 7);
      region(w, R_BAR, ConstructKind.CYCLIC_BARRIER, "CyclicBarrier.await", "Worker.java", 50);
      region(w, R_WORK, ConstructKind.TRACED_METHOD, "Worker.compute", "Worker.java", 12);
      w.definePool(new PoolDef(1, ConstructKind.FORK_JOIN_POOL, "ForkJoinPool.commonPool", 2));
      w.definePool(new PoolDef(2, ConstructKind.EXECUTOR, "pool-1", 1));
      w.defineObject(
          new ObjectDef(
              77, ConstructKind.REENTRANT_LOCK, "java.util.concurrent.locks.ReentrantLock", 0));
      w.defineObject(
          new ObjectDef(88, ConstructKind.CYCLIC_BARRIER, "java.util.concurrent.CyclicBarrier", 2));
      StreamWriter main = w.openStream(1, "main", 0, 0, T0);
      StreamWriter timer = w.openStream(2, "timer", ThreadDef.DAEMON, 0, T0);
      StreamWriter w1 = w.openStream(3, "fj-worker-1", ThreadDef.DAEMON, 1, T0);
      StreamWriter w2 = w.openStream(4, "fj-worker-2", ThreadDef.DAEMON, 1, T0);
      StreamWriter ex = w.openStream(5, "pool-1-thread-1", 0, 2, T0);

      main.enter(T0, R_MAIN);
      main.fork(T0 + 100, R_PAR, 1, 2);
      main.taskCreate(T0 + 110, R_PAR, 11, 1);
      main.taskCreate(T0 + 120, R_PAR, 12, 1);
      main.joinWaitEnter(T0 + 130, R_JOIN, 11);
      main.joinWaitExit(T0 + 900, R_JOIN);
      main.join(T0 + 910, R_PAR, 1);
      main.lockRequest(T0 + 1000, R_LOCK, 77);
      main.lockAcquired(T0 + 1200, 77, 0);
      main.lockReleased(T0 + 1300, 77);
      main.taskCreate(T0 + 1400, R_SUBMIT, 21, 2);
      main.waitEnter(T0 + 1500, R_SLEEP, WaitKind.SLEEP);
      main.waitExit(T0 + 1800, R_SLEEP);
      main.exit(T0 + 2000, R_MAIN);

      timer.spinEnter(T0 + 200, R_SPIN);
      timer.spinExit(T0 + 400, R_SPIN);
      timer.barrierEnter(T0 + 500, R_BAR, 88, 1);
      timer.barrierExit(T0 + 800, R_BAR, 88, 1, 0);

      w1.taskBegin(T0 + 150, 11);
      w1.enter(T0 + 160, R_WORK);
      w1.exit(T0 + 600, R_WORK);
      w1.taskEnd(T0 + 610, 11);
      w1.barrierEnter(T0 + 620, R_BAR, 88, 1);
      w1.barrierExit(T0 + 800, R_BAR, 88, 1, 0);

      w2.taskBegin(T0 + 170, 12);
      w2.taskEnd(T0 + 850, 12);

      ex.taskBegin(T0 + 1450, 21);
      ex.taskEnd(T0 + 1700, 21);
      w.close(T0 + 2000);
    }
    return dir;
  }

  static void region(TraceWriter w, int id, ConstructKind kind, String name, String file, int line)
      throws IOException {
    String cls = file.replace(".java", "");
    w.defineRegion(new RegionDef(id, kind, name, "demo." + cls, "run", file, line, line));
  }

  /**
   * An analysis of four threads over 1 s (CPU allocation time 4 s). Inclusive values add up: time =
   * execution 2.5 s + idle_threads 0.5 s + thread_management 0.1 s + join_wait 0.3 s + barrier_wait
   * 0.2 s + lock_contention 0.35 s + spin_wait 0.05 s; by_thread and by_callpath hold exclusive
   * values (time and lock_contention have none of their own). lock_contention's children carry
   * per-call-path thread splits; barrier_wait's call paths do not.
   */
  static ObjectNode analysis() {
    ObjectNode a = JSON.createObjectNode();
    a.put("format", "weft-analysis/1");
    ObjectNode trace = a.putObject("trace");
    trace.put("path", "/tmp/demo-trace");
    trace.put("duration_ns", 1_000_000_000L);
    trace.put("threads", 4);
    trace.put("events", 123456);
    trace.put("dropped", 0);
    ObjectNode window = trace.putObject("window");
    window.put("start_ns", T0);
    window.put("end_ns", T0 + 2000);
    trace.put("complete", true);
    a.put("time_ns", 4_000_000_000L);
    ArrayNode props = a.putArray("properties");
    prop(props, "time", null, "Time", 4_000_000_000L, threads(0, 0, 0, 0));
    prop(
        props,
        "execution",
        "time",
        "Execution",
        2_500_000_000L,
        threads(700_000_000L, 600_000_000L, 600_000_000L, 600_000_000L));
    prop(
        props,
        "idle_threads",
        "time",
        "Idle threads",
        500_000_000L,
        threads(0, 100_000_000L, 100_000_000L, 100_000_000L));
    prop(
        props,
        "limited_parallelism",
        "idle_threads",
        "Limited parallelism",
        200_000_000L,
        threads(0, 100_000_000L, 100_000_000L, 0));
    prop(
        props,
        "thread_management",
        "time",
        "Thread management",
        100_000_000L,
        threads(100_000_000L, 0, 0, 0));
    prop(props, "join_wait", "time", "Join wait", 300_000_000L, threads(300_000_000L, 0, 0, 0));
    prop(
        props,
        "barrier_wait",
        "time",
        "Barrier wait",
        200_000_000L,
        threads(0, 50_000_000L, 50_000_000L, 100_000_000L));
    prop(props, "lock_contention", "time", "Lock contention", 350_000_000L, threads(0, 0, 0, 0));
    prop(
        props,
        "monitor_contention",
        "lock_contention",
        "Monitor contention",
        150_000_000L,
        threads(0, 100_000_000L, 50_000_000L, 0));
    prop(
        props,
        "lock_api_contention",
        "lock_contention",
        "Lock API contention",
        200_000_000L,
        threads(0, 50_000_000L, 50_000_000L, 100_000_000L));
    prop(props, "spin_wait", "time", "Spin wait", 50_000_000L, threads(0, 0, 0, 50_000_000L));
    prop(
        props,
        "pool_queue_wait",
        null,
        "Pool queue wait",
        80_000_000L,
        threads(0, 40_000_000L, 40_000_000L, 0));
    prop(
        props,
        "work_imbalance",
        null,
        "Work imbalance",
        120_000_000L,
        threads(0, 60_000_000L, 0, 60_000_000L));

    path(props, "execution", 2_500_000_000L, null, "main @ App.java:10");
    path(
        props,
        "idle_threads",
        300_000_000L,
        null,
        "main @ App.java:10",
        "Thread.sleep @ App.java:44");
    path(
        props,
        "limited_parallelism",
        200_000_000L,
        null,
        "main @ App.java:10",
        "parallel stream @ App.java:20");
    path(
        props,
        "barrier_wait",
        150_000_000L,
        null,
        "main @ App.java:10",
        "parallel stream @ App.java:20",
        "CyclicBarrier.await @ Worker.java:50");
    path(
        props,
        "barrier_wait",
        50_000_000L,
        null,
        "main @ App.java:10",
        "CyclicBarrier.await @ Worker.java:55");
    path(
        props,
        "monitor_contention",
        150_000_000L,
        threads(0, 100_000_000L, 50_000_000L, 0),
        "main @ App.java:10",
        "parallel stream @ App.java:20",
        "synchronized @ Worker.java:28");
    path(
        props,
        "lock_api_contention",
        120_000_000L,
        threads(0, 50_000_000L, 50_000_000L, 20_000_000L),
        "main @ App.java:10",
        "parallel stream @ App.java:20",
        "ReentrantLock.lock @ Worker.java:33");
    path(
        props,
        "lock_api_contention",
        80_000_000L,
        threads(0, 0, 0, 80_000_000L),
        "main @ App.java:10",
        "ReentrantLock.lock @ App.java:61");
    path(
        props,
        "work_imbalance",
        120_000_000L,
        null,
        "main @ App.java:10",
        "parallel stream @ App.java:20");
    path(
        props,
        "join_wait",
        300_000_000L,
        null,
        "main @ App.java:10",
        "ForkJoinTask.join @ App.java:21");

    ArrayNode regions = a.putArray("regions");
    ObjectNode r = regions.addObject();
    r.put("name", "parallel stream");
    r.put("location", "App.java:20");
    r.put("instances", 3);
    ObjectNode busy = r.putObject("busy_ns_by_thread");
    busy.put("main", 300_000_000L);
    busy.put("fj-worker-1", 240_000_000L);
    busy.put("fj-worker-2", 180_000_000L);
    r.put("imbalance", 0.25);
    r.put("lost_ns", 120_000_000L);
    ObjectNode r2 = regions.addObject();
    r2.put("name", "invokeAll");
    r2.put("location", "Worker.java:12");
    r2.put("instances", 1);
    ObjectNode busy2 = r2.putObject("busy_ns_by_thread");
    busy2.put("fj-worker-1", 100_000_000L);
    busy2.put("fj-worker-2", 100_000_000L);
    r2.put("imbalance", 0.0);
    r2.put("lost_ns", 0);
    a.putArray("notes")
        .add(
            "2 lock acquisitions at the start of the window could not be attributed"
                + " </script><b>x</b>");
    return a;
  }

  static final String[] THREADS = {"main", "fj-worker-1", "fj-worker-2", "timer"};

  static long[] threads(long... ns) {
    return ns;
  }

  private static void prop(
      ArrayNode props, String id, String parent, String name, long ns, long[] byThread) {
    ObjectNode p = props.addObject();
    p.put("id", id);
    if (parent == null) {
      p.putNull("parent");
    } else {
      p.put("parent", parent);
    }
    p.put("name", name);
    p.put("severity_ns", ns);
    p.put("percent", ns * 100.0 / 4_000_000_000L);
    ArrayNode bt = p.putArray("by_thread");
    for (int i = 0; i < byThread.length; i++) {
      if (byThread[i] > 0) {
        ObjectNode t = bt.addObject();
        t.put("thread", THREADS[i]);
        t.put("severity_ns", byThread[i]);
      }
    }
    p.putArray("by_callpath");
  }

  private static void path(ArrayNode props, String id, long ns, long[] byThread, String... frames) {
    for (int i = 0; i < props.size(); i++) {
      ObjectNode p = (ObjectNode) props.get(i);
      if (p.get("id").asText().equals(id)) {
        ObjectNode e = ((ArrayNode) p.get("by_callpath")).addObject();
        ArrayNode path = e.putArray("path");
        for (String f : frames) {
          path.add(f);
        }
        e.put("severity_ns", ns);
        if (byThread != null) {
          ArrayNode bt = e.putArray("by_thread");
          for (int k = 0; k < byThread.length; k++) {
            if (byThread[k] > 0) {
              bt.addObject().put("thread", THREADS[k]).put("severity_ns", byThread[k]);
            }
          }
        }
        return;
      }
    }
    throw new IllegalArgumentException(id);
  }
}
