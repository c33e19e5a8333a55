package dev.weft.analysis;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes a synthetic but consistent trace of a chosen size, for benchmarking the analyzer.
 *
 * <p>The simulated program runs rounds; in each round every thread does nested user regions, takes
 * one of a few shared locks (acquisitions serialised, so some contend), meets the others at a
 * cyclic barrier, and the first thread forks a parallel region whose tasks the pool workers run
 * while it waits in a join. The {@code mix} weights say how many times per round each phase
 * repeats.
 *
 * <pre>
 * java -cp benchmarks.jar dev.weft.analysis.SyntheticTrace --out /tmp/t --events 10000000 --threads 8 \
 *     --mix regions=4,locks=1,barriers=1,tasks=1
 * </pre>
 */
public final class SyntheticTrace {
  private static final int POOL = 1;
  private static final int R_OUTER = 1;
  private static final int R_INNER = 2;
  private static final int R_LOCK = 3;
  private static final int R_BARRIER = 4;
  private static final int R_FORK = 5;
  private static final int R_SUBMIT = 6;
  private static final int R_JOIN = 7;
  private static final int R_TASK_BODY = 8;
  private static final long BARRIER = 1000;
  private static final long LOCK_BASE = 2000;
  private static final int LOCKS = 3;

  private final int threads;
  private final long targetEvents;
  private final int regions;
  private final int locks;
  private final int barriers;
  private final int tasks;

  private final long[] clock;
  private final StreamWriter[] out;
  private final long[] lockFree = new long[LOCKS];
  private long events;
  private long seed = 0x9E3779B97F4A7C15L;
  private long taskIds = 1;

  private SyntheticTrace(int threads, long targetEvents, int[] mix) {
    if (threads < 2) {
      throw new IllegalArgumentException("--threads must be at least 2");
    }
    this.threads = threads;
    this.targetEvents = targetEvents;
    this.regions = mix[0];
    this.locks = mix[1];
    this.barriers = mix[2];
    this.tasks = mix[3];
    this.clock = new long[threads];
    this.out = new StreamWriter[threads];
  }

  /**
   * Writes a trace of about {@code events} events (a round is never cut short) into {@code dir}.
   *
   * @param mix repetitions per round of regions, locks, barriers and fork-join tasks
   * @return the number of events written
   */
  public static long write(Path dir, int threads, long events, int[] mix) throws IOException {
    return new SyntheticTrace(threads, events, mix).run(dir);
  }

  private long run(Path dir) throws IOException {
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      region(w, R_OUTER, ConstructKind.USER_REGION, "solve", 10);
      region(w, R_INNER, ConstructKind.TRACED_METHOD, "Bench.kernel", 20);
      region(w, R_LOCK, ConstructKind.MONITOR, "synchronized", 30);
      region(w, R_BARRIER, ConstructKind.CYCLIC_BARRIER, "CyclicBarrier.await", 40);
      region(w, R_FORK, ConstructKind.PARALLEL_STREAM, "IntStream.forEach", 50);
      region(w, R_SUBMIT, ConstructKind.FORK_JOIN_TASK, "ForkJoinTask.fork", 51);
      region(w, R_JOIN, ConstructKind.FORK_JOIN_TASK, "ForkJoinTask.join", 52);
      region(w, R_TASK_BODY, ConstructKind.TRACED_METHOD, "Bench.chunk", 60);
      w.definePool(new PoolDef(POOL, ConstructKind.FORK_JOIN_POOL, "bench-pool", threads - 1));
      w.defineObject(
          new ObjectDef(BARRIER, ConstructKind.CYCLIC_BARRIER, "CyclicBarrier", threads));
      for (int l = 0; l < LOCKS; l++) {
        w.defineObject(new ObjectDef(LOCK_BASE + l, ConstructKind.MONITOR, "java.lang.Object", 0));
      }
      for (int i = 0; i < threads; i++) {
        clock[i] = 1_000 + i;
        out[i] =
            w.openStream(100 + i, i == 0 ? "main" : "worker-" + i, 0, i == 0 ? 0 : POOL, clock[i]);
        out[i].threadBegin(clock[i]);
        events++;
      }
      long generation = 0;
      while (events < targetEvents) {
        for (int k = 0; k < regions; k++) {
          regionsPhase();
        }
        for (int k = 0; k < locks; k++) {
          lockPhase();
        }
        for (int k = 0; k < barriers; k++) {
          barrierPhase(generation++);
        }
        for (int k = 0; k < tasks; k++) {
          taskPhase();
        }
      }
      long end = 0;
      for (int i = 0; i < threads; i++) {
        out[i].threadEnd(clock[i] += 10);
        events++;
        end = Math.max(end, clock[i]);
      }
      w.close(end + 1);
    }
    return events;
  }

  private static void region(TraceWriter w, int id, ConstructKind kind, String name, int line)
      throws IOException {
    w.defineRegion(new RegionDef(id, kind, name, "dev.bench.Bench", "run", "Bench.java", line, 0));
  }

  private long work(long mean) {
    seed ^= seed << 13;
    seed ^= seed >>> 7;
    seed ^= seed << 17;
    return 1 + mean / 2 + Math.floorMod(seed, mean);
  }

  private void regionsPhase() {
    for (int i = 0; i < threads; i++) {
      StreamWriter s = out[i];
      s.enter(clock[i] += work(50), R_OUTER);
      for (int j = 0; j < 3; j++) {
        s.enter(clock[i] += work(100), R_INNER);
        s.exit(clock[i] += work(400), R_INNER);
      }
      s.exit(clock[i] += work(50), R_OUTER);
      events += 8;
    }
  }

  private void lockPhase() {
    // Threads request in turn; each acquisition waits for the previous holder of that lock.
    for (int i = 0; i < threads; i++) {
      int l = (int) Math.floorMod(seed + i, LOCKS);
      long lock = LOCK_BASE + l;
      StreamWriter s = out[i];
      long request = clock[i] += work(200);
      s.lockRequest(request, R_LOCK, lock);
      long acquired = Math.max(request, lockFree[l]) + work(20);
      s.lockAcquired(acquired, lock, 0);
      long released = acquired + work(150);
      s.lockReleased(released, lock);
      lockFree[l] = released;
      clock[i] = released;
      events += 3;
    }
  }

  private void barrierPhase(long generation) {
    long last = 0;
    for (int i = 0; i < threads; i++) {
      clock[i] += work(300);
      out[i].barrierEnter(clock[i], R_BARRIER, BARRIER, generation);
      last = Math.max(last, clock[i]);
    }
    for (int i = 0; i < threads; i++) {
      long depart = last + work(30);
      int outcome = clock[i] == last ? BarrierOutcome.LAST : 0;
      out[i].barrierExit(depart, R_BARRIER, BARRIER, generation, outcome);
      clock[i] = depart;
    }
    events += 2L * threads;
  }

  private void taskPhase() {
    StreamWriter master = out[0];
    long fork = clock[0] += work(100);
    master.fork(fork, R_FORK, POOL, threads - 1);
    long firstTask = taskIds;
    for (int i = 1; i < threads; i++) {
      master.taskCreate(clock[0] += work(20), R_SUBMIT, taskIds++, POOL);
    }
    master.joinWaitEnter(clock[0] += work(10), R_JOIN, firstTask);
    long lastEnd = clock[0];
    for (int i = 1; i < threads; i++) {
      StreamWriter s = out[i];
      long task = firstTask + i - 1;
      clock[i] = Math.max(clock[i], clock[0]) + work(40);
      s.taskBegin(clock[i], task);
      s.enter(clock[i] += work(20), R_TASK_BODY);
      s.exit(clock[i] += work(800), R_TASK_BODY);
      s.taskEnd(clock[i] += work(10), task);
      lastEnd = Math.max(lastEnd, clock[i]);
    }
    master.joinWaitExit(clock[0] = lastEnd + work(30), R_JOIN);
    master.join(clock[0] += work(10), R_FORK, POOL);
    events += 4L + (threads - 1) * 5L;
  }

  /** {@code --out DIR --events N [--threads T] [--mix regions=4,locks=1,barriers=1,tasks=1]}. */
  public static void main(String[] args) throws IOException {
    Path dir = null;
    long n = 1_000_000;
    int threads = 8;
    int[] mix = {4, 1, 1, 1};
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (a) {
        case "--out":
          dir = Path.of(v);
          i++;
          break;
        case "--events":
          n = parseCount(v);
          i++;
          break;
        case "--threads":
          threads = Integer.parseInt(v);
          i++;
          break;
        case "--mix":
          mix = parseMix(v);
          i++;
          break;
        default:
          System.err.println(
              "usage: SyntheticTrace --out DIR --events N [--threads T] [--mix ...]");
          System.exit(2);
      }
    }
    if (dir == null) {
      System.err.println("usage: SyntheticTrace --out DIR --events N [--threads T] [--mix ...]");
      System.exit(2);
    }
    long t0 = System.nanoTime();
    long written = write(dir, threads, n, mix);
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        Locale.ROOT, "wrote %d events (%d threads) to %s in %.1f s%n", written, threads, dir, s);
  }

  private static long parseCount(String v) {
    String s = v.toUpperCase(Locale.ROOT).replace("_", "");
    long mult = 1;
    if (s.endsWith("M")) {
      mult = 1_000_000;
      s = s.substring(0, s.length() - 1);
    } else if (s.endsWith("K")) {
      mult = 1_000;
      s = s.substring(0, s.length() - 1);
    }
    return Long.parseLong(s) * mult;
  }

  private static int[] parseMix(String v) {
    int[] mix = new int[4];
    for (String part : v.split(",")) {
      String[] kv = part.split("=");
      int w = Integer.parseInt(kv[1].trim());
      switch (kv[0].trim()) {
        case "regions":
          mix[0] = w;
          break;
        case "locks":
          mix[1] = w;
          break;
        case "barriers":
          mix[2] = w;
          break;
        case "tasks":
          mix[3] = w;
          break;
        default:
          throw new IllegalArgumentException("unknown mix part: " + kv[0]);
      }
    }
    if (mix[0] + mix[1] + mix[2] + mix[3] == 0) {
      throw new IllegalArgumentException("--mix must have a positive weight");
    }
    return mix;
  }
}
