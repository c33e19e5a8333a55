package dev.weft.bench;

import dev.weft.trace.StreamCursor;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
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
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * What does it cost to encode one event into a thread's mapped window, and how many bytes does it
 * take?
 *
 * <p>This is the innermost part of the agent's hot path: after the advice has taken its timestamp
 * and found the thread's {@link StreamWriter}, the event is varint-encoded into the mapped window
 * and committed (kind byte last). The timestamp itself ({@code System.nanoTime()}, about 25 ns) is
 * not part of this measurement: times come from a precomputed table of deltas between 100 ns and 50
 * µs, log-uniformly distributed, so the delta varints have realistic lengths (mostly 2 bytes, some
 * 3). Region, lock and pool ids are small registry ids; task ids grow like a counter.
 *
 * <p>Windows are large (4 MiB first, 64 MiB at most) and prepared by the writer's background
 * thread, as in the agent; each iteration writes into a fresh trace that is deleted afterwards.
 * Every benchmark method writes {@link #BATCH} events per invocation, so the reported score is
 * ns/event.
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
    task = 1_000; // task ids count up within an iteration, as an agent's would within a run
    dir = Files.createTempDirectory("weft-encode-");
    writer = TraceWriter.create(dir, TraceWriter.Options.defaults().withWindows(4 << 20, 64 << 20));
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
   * The realistic mix the format is sized for: regions entered and left, a lock taken inside, a
   * task submitted and run (12 events).
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

  private void run(String pattern) {
    switch (pattern) {
      case "enterExit":
        enterExit();
        break;
      case "lock":
        lock();
        break;
      case "task":
        task();
        break;
      default:
        mix();
        break;
    }
  }

  /** Bytes per event of one pattern: writes a million events and reads them back. */
  static double bytesPerEvent(String pattern) throws IOException {
    EncodeBenchmark b = new EncodeBenchmark();
    b.open();
    for (int i = 0; i < 1_000_000 / BATCH; i++) {
      b.run(pattern);
    }
    b.writer.close();
    try (Trace trace = Trace.open(b.dir)) {
      StreamCursor c = trace.stream(b.stream.id());
      while (c.next()) {
        // counting only
      }
      return (double) c.eventBytes() / c.eventCount();
    } finally {
      deleteTree(b.dir);
    }
  }

  /**
   * CPU time per event of one pattern, measured with the thread's CPU clock in a fresh JVM (so
   * patterns do not share JIT profiles; median of seven rounds of about 10 million events, after
   * three rounds of warm-up). Unlike JMH's wall-clock score it does not count time the thread spent
   * waiting for a core, so it stays meaningful on a busy machine; it does count the cache and
   * memory effects of other processes.
   */
  static double cpuNanosPerEvent(String pattern) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                EncodeBenchmark.class.getName(),
                "--cpu",
                pattern)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
    if (p.waitFor() != 0) {
      throw new IOException("CPU measurement of " + pattern + " failed");
    }
    return Double.parseDouble(out);
  }

  private static double measureCpuHere(String pattern) throws IOException {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    int invocations = 10_000;
    double[] rounds = new double[7];
    for (int r = -3; r < rounds.length; r++) {
      EncodeBenchmark b = new EncodeBenchmark();
      b.open();
      long start = mx.getCurrentThreadCpuTime();
      for (int i = 0; i < invocations; i++) {
        b.run(pattern);
      }
      long cpu = mx.getCurrentThreadCpuTime() - start;
      b.close();
      if (r >= 0) {
        rounds[r] = (double) cpu / ((long) invocations * BATCH);
      }
    }
    Arrays.sort(rounds);
    return rounds[rounds.length / 2];
  }

  /**
   * Runs the benchmark and prints a table: JMH's median ns/event over all measured iterations and
   * the 99.9% confidence error it gives for the mean; CPU ns/event from {@link #cpuNanosPerEvent};
   * bytes/event. JMH's own progress goes to stderr. Arguments: forks (default 3), measured
   * iterations per fork (default 5); forks 0 skips JMH and prints only the last two columns.
   */
  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--cpu")) {
      System.out.println(measureCpuHere(args[1]));
      return;
    }
    int forks = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Options options =
        new OptionsBuilder()
            .include(EncodeBenchmark.class.getName() + "\\.")
            .forks(forks)
            .warmupIterations(3)
            .warmupTime(TimeValue.seconds(1))
            .measurementIterations(iterations)
            .measurementTime(TimeValue.seconds(1))
            .build();
    Collection<RunResult> results =
        forks == 0
            ? List.of()
            : new Runner(
                    options,
                    OutputFormatFactory.createFormatInstance(System.err, VerboseMode.NORMAL))
                .run();
    System.out.printf(
        "%-10s %10s %9s %14s %12s%n",
        "events", "ns/event", "± error", "cpu ns/event", "bytes/event");
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      String pattern = name.substring(name.lastIndexOf('.') + 1);
      Result<?> score = r.getPrimaryResult();
      boolean baseline = pattern.equals("baseline");
      System.out.printf(
          "%-10s %10.2f %9.2f %14s %12s%n",
          pattern,
          score.getStatistics().getPercentile(50),
          score.getScoreError(),
          baseline ? "-" : String.format("%.2f", cpuNanosPerEvent(pattern)),
          baseline ? "-" : String.format("%.2f", bytesPerEvent(pattern)));
    }
    if (forks == 0) {
      for (String pattern : List.of("enterExit", "lock", "task", "mix")) {
        System.out.printf(
            "%-10s %10s %9s %14.2f %12.2f%n",
            pattern, "-", "-", cpuNanosPerEvent(pattern), bytesPerEvent(pattern));
      }
    }
  }

  /*
   * How to run: benchmarks/encode.sh [forks] [iterations] (builds, runs, prints the table), or
   *   mvn -B -q -pl benchmarks -am package -DskipTests
   *   java -cp benchmarks/target/benchmarks.jar dev.weft.bench.EncodeBenchmark 3 5
   *   java -jar benchmarks/target/benchmarks.jar EncodeBenchmark -f 3 -wi 3 -i 5   # JMH only
   *
   * What to expect: baseline is about 1 ns/event (the loop and the blackhole). Each event method
   * should cost at most about 10 ns/event (task a little more: four numbers, task ids of 3-4
   * bytes), and the mix should average at most 6 bytes/event (a one-byte kind, a 2-3 byte time
   * delta, one-byte ids, 2-4 byte task ids). Measured on the 2-core development host while it ran
   * other builds (load 12-19), CPU ns/event: enterExit 9.6, lock 10.1, mix 11.6, task 14.2, and
   * 4.15 / 4.81 / 4.93 / 6.77 bytes/event; JMH's wall-clock medians were 4-6 times higher, because
   * the benchmark thread and the writer's background thread got a fraction of a core. A wall-clock
   * score far above the CPU column means exactly that (the benchmark thread waited for a core, or
   * for its next window): rerun on a quiet machine.
   */
}
