package dev.weft.bench;

import dev.weft.trace.StreamCursor;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What does it cost to encode one event into a thread's mapped window, and how many bytes does it
 * take?
 *
 * <p>This is the innermost part of the agent's hot path: after the advice has taken its timestamp and
 * found the thread's {@link StreamWriter}, the event is varint-encoded into the mapped window and
 * committed (kind byte last). The timestamp itself ({@code System.nanoTime()}, about 25 ns) is not
 * part of this measurement: times come from a precomputed table of deltas between 100 ns and 50 µs,
 * log-uniformly distributed, so the delta varints have realistic lengths (mostly 2 bytes, some 3).
 * Region, lock and pool ids are small registry ids; task ids grow like a counter.
 *
 * <p>Windows are large (4 MiB first, 64 MiB at most) and prepared by the writer's background thread,
 * as in the agent; each iteration writes into a fresh trace that is deleted afterwards. Every
 * benchmark method writes {@link #BATCH} events per invocation, so the reported score is ns/event.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class EncodeBenchmark {
  /** Events per benchmark invocation (a multiple of every pattern's length). */
  static final int BATCH = 960;

  private static final int DELTAS = 4096;
  private static final int R_WORK = 1;
  private static final int R_INNER = 2;
  private static final int R_LOCK = 3;
  private static final int R_SUBMIT = 4;
  private static final int POOL = 1;

  private final long[] deltas = deltas(DELTAS, 42);
  private int next;
  private long now = 1_000_000_000L;
  private long task = 1_000;
  private Path dir;
  private TraceWriter writer;
  private StreamWriter stream;

  @Setup(Level.Iteration)
  public void open() throws IOException {
    dir = Files.createTempDirectory("weft-encode-");
    writer =
        TraceWriter.create(
            dir, TraceWriter.Options.defaults().withWindows(4 << 20, 64 << 20));
    stream = writer.openStream(1, "bench", 0, 0, now);
  }

  @TearDown(Level.Iteration)
  public void close() throws IOException {
    writer.close();
    writer = null;
    stream = null;
    deleteTree(dir);
    System.gc(); // unmaps the deleted windows instead of letting them pile up across iterations
  }

  /**
   * Baseline: the loop and the timestamp arithmetic alone, each time sunk into the blackhole. What
   * the other methods cost above this is the encoding and the store into the window.
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void baseline(Blackhole bh) {
    for (int i = 0; i < BATCH; i++) {
      bh.consume(tick());
    }
  }

  /** The commonest pair: a traced method or user region entered and left. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void enterExit() {
    StreamWriter s = stream;
    for (int i = 0; i < BATCH; i += 2) {
      s.enter(tick(), R_WORK);
      s.exit(tick(), R_WORK);
    }
  }

  /** An uncontended lock and unlock: request, acquired, released (three events). */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void lock() {
    StreamWriter s = stream;
    for (int i = 0; i < BATCH; i += 3) {
      long lock = 1 + (i & 3);
      s.lockRequest(tick(), R_LOCK, lock);
      s.lockAcquired(tick(), lock, 0);
      s.lockReleased(tick(), lock);
    }
  }

  /** A task's life as one thread records it: submitted, run, ended. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void task() {
    StreamWriter s = stream;
    for (int i = 0; i < BATCH; i += 3) {
      long t = task++;
      s.taskCreate(tick(), R_SUBMIT, t, POOL);
      s.taskBegin(tick(), t);
      s.taskEnd(tick(), t);
    }
  }

  /**
   * The realistic mix the format is sized for: regions entered and left, a lock taken inside,
   * a task submitted and run (12 events).
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void mix() {
    writeMix(stream, BATCH);
  }

  private void writeMix(StreamWriter s, int events) {
    for (int i = 0; i < events; i += 12) {
      long lock = 1 + (i & 3);
      long t = task++;
      s.enter(tick(), R_WORK);
      s.lockRequest(tick(), R_LOCK, lock);
      s.lockAcquired(tick(), lock, 0);
      s.lockReleased(tick(), lock);
      s.taskCreate(tick(), R_SUBMIT, t, POOL);
      s.enter(tick(), R_INNER);
      s.exit(tick(), R_INNER);
      s.taskBegin(tick(), t);
      s.enter(tick(), R_INNER);
      s.exit(tick(), R_INNER);
      s.taskEnd(tick(), t);
      s.exit(tick(), R_WORK);
    }
  }

  private long tick() {
    now += deltas[next];
    next = (next + 1) & (DELTAS - 1);
    return now;
  }

  /** Deltas between 100 ns and 50 µs, log-uniform: as many short gaps per decade as long ones. */
  static long[] deltas(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] d = new long[n];
    double lo = Math.log(100);
    double hi = Math.log(50_000);
    for (int i = 0; i < n; i++) {
      d[i] = Math.round(Math.exp(lo + random.nextDouble() * (hi - lo)));
    }
    return d;
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  /**
   * Prints bytes/event of each pattern: writes a million events with the same generator as the
   * benchmark methods, reads them back and divides the encoded bytes by the events read. Run with
   * {@code java -cp benchmarks/target/benchmarks.jar dev.weft.bench.EncodeBenchmark}.
   */
  public static void main(String[] args) throws IOException {
    System.out.println("pattern,bytes_per_event");
    for (String pattern : new String[] {"enterExit", "lock", "task", "mix"}) {
      EncodeBenchmark b = new EncodeBenchmark();
      b.open();
      for (int i = 0; i < 1_000_000 / BATCH; i++) {
        switch (pattern) {
          case "enterExit":
            b.enterExit();
            break;
          case "lock":
            b.lock();
            break;
          case "task":
            b.task();
            break;
          default:
            b.mix();
            break;
        }
      }
      b.writer.close();
      long events = 0;
      long bytes = 0;
      try (Trace trace = Trace.open(b.dir)) {
        StreamCursor c = trace.stream(b.stream.id());
        while (c.next()) {
          // counting only
        }
        events = c.eventCount();
        bytes = c.eventBytes();
      }
      b.writer = null;
      deleteTree(b.dir);
      System.out.printf("%s,%.2f%n", pattern, (double) bytes / events);
    }
  }

  /*
   * How to run: benchmarks/encode.sh (builds, runs briefly, prints a table), or
   *   mvn -B -q -pl benchmarks -am package -DskipTests
   *   java -jar benchmarks/target/benchmarks.jar EncodeBenchmark -f 3 -wi 3 -i 5
   *   java -cp benchmarks/target/benchmarks.jar dev.weft.bench.EncodeBenchmark   # bytes/event
   *
   * What to expect: baseline is a few ns/event (the loop and the blackhole). Each event method should
   * cost at most about 10 ns/event above nothing, and the mix should average at most 6 bytes/event
   * (a one-byte kind, a 2-3 byte time delta, one-byte ids, 2-3 byte task ids). A score far above that
   * usually means the writer's background thread fell behind and windows were allocated on the
   * benchmark thread (the machine's other cores were busy): look at the error bars and rerun.
   */
}
