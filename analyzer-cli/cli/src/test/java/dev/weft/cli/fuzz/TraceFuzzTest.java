package dev.weft.cli.fuzz;

import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.cli.fuzz.Mutation.Kind;
import dev.weft.cli.fuzz.Oracle.Command;
import dev.weft.cli.fuzz.Oracle.Outcome;
import dev.weft.trace.EventKind;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged, cut and foreign traces through {@code weft verify, summary, analyze, print, export}:
 * seeded mutations of two real recordings and a fixed regression corpus, each run in-process with a
 * time limit and judged by {@link Oracle}. RELIABILITY.md says what is promised and how to run,
 * replay and extend this test.
 *
 * <p>System properties: {@code weft.fuzz.cases} (random cases, default {@value #DEFAULT_CASES}),
 * {@code weft.fuzz.seed} (base seed; case i uses base + i), {@code weft.fuzz.replay} (only these
 * seeds, comma-separated), {@code weft.fuzz.traces} (a directory to record the two traces into, or
 * to reuse them from: the same recordings make a replay exact), {@code weft.fuzz.keep} (a directory
 * to keep the mutated traces of failing cases in), {@code weft.fuzz.timeout} (ms per run), {@code
 * weft.fuzz.report} (true: print counts per mutation kind, command and outcome instead of failing),
 * {@code weft.fuzz.threads} (cases run in parallel), {@code weft.fuzz.verbose} (a line per case).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TraceFuzzTest {
  static final int DEFAULT_CASES = 338;
  static final long DEFAULT_SEED = 20261126L;
  static final int DEEP_NESTING = 200_000;

  private static final boolean REPORT = Boolean.getBoolean("weft.fuzz.report");
  private static final int CASES = Integer.getInteger("weft.fuzz.cases", DEFAULT_CASES);
  private static final long SEED = Long.getLong("weft.fuzz.seed", DEFAULT_SEED);
  private static final String REPLAY = System.getProperty("weft.fuzz.replay", "").strip();
  private static final String TRACES = System.getProperty("weft.fuzz.traces", "").strip();
  private static final String KEEP = System.getProperty("weft.fuzz.keep", "").strip();
  private static final long TIMEOUT_MS = Long.getLong("weft.fuzz.timeout", 10_000L);
  private static final boolean VERBOSE = Boolean.getBoolean("weft.fuzz.verbose");
  private static final int THREADS =
      Integer.getInteger(
          "weft.fuzz.threads", Math.min(4, Runtime.getRuntime().availableProcessors()));

  /** Where the report and, after a failure, the recordings are kept. */
  private static final Path OUT = Path.of("target", "weft-fuzz");

  @TempDir static Path tmp;

  private static Mutator.Base clean;
  private static Mutator.Base cut;
  private static final Map<String, Map<Command, String>> baselines = new LinkedHashMap<>();
  private static final Map<String, Map<Command, WeftRunner.Run>> baselineRuns =
      new LinkedHashMap<>();
  private static WeftRunner runner;
  private static final List<CaseResult> results = Collections.synchronizedList(new ArrayList<>());
  private static final Set<String> skips = new LinkedHashSet<>();
  private static final long started = System.nanoTime();
  private static final AtomicInteger caseNumber = new AtomicInteger();

  /** One run's outcome; {@code difference}: the first line where its result differs, or null. */
  record RunResult(Command command, Outcome outcome, WeftRunner.Run run, String difference) {}

  /** One case: its name (a seed or a corpus entry), its mutation and its runs. */
  record CaseResult(String id, boolean corpus, Mutation mutation, List<RunResult> runs) {}

  @BeforeAll
  static void recordTraces() throws Exception {
    Path traces = TRACES.isEmpty() ? tmp.resolve("recorded") : Path.of(TRACES).toAbsolutePath();
    Path cleanDir = traces.resolve("clean");
    Path cutDir = traces.resolve("cut");
    long t0 = System.nanoTime();
    if (!Files.exists(cleanDir.resolve("defs.wdf")) || !Files.exists(cutDir.resolve("defs.wdf"))) {
      deleteTree(cleanDir);
      deleteTree(cutDir);
      Path logs = traces.resolve("logs");
      CompletableFuture<Path> c =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return Recordings.recordClean(cleanDir, logs);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      Recordings.recordCut(cutDir, logs);
      c.join();
    }
    clean = new Mutator.Base("clean", cleanDir);
    cut = new Mutator.Base("cut", cutDir);
    runner = new WeftRunner(TIMEOUT_MS);
    for (Mutator.Base b : List.of(clean, cut)) {
      Map<Command, String> results = new EnumMap<>(Command.class);
      Map<Command, WeftRunner.Run> runs = new EnumMap<>(Command.class);
      // A copy, as every case runs on one: the recording's own path is in its agent options.
      Path work = tmp.resolve("baseline-" + b.name);
      Path copy = work.resolve("trace");
      copyTree(b.dir, copy);
      for (Command c : Command.values()) {
        WeftRunner.Run r = runner.run(c.args(copy, work), null);
        runs.put(c, r);
        results.put(c, result(c, r, copy, work, null, true));
      }
      baselines.put(b.name, results);
      baselineRuns.put(b.name, runs);
    }
    System.out.printf(
        Locale.ROOT,
        "weft fuzz: traces in %s (%d ms): clean %s; cut %s%n",
        traces,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0),
        baselineRuns.get("clean").get(Command.VERIFY).out().strip(),
        baselineRuns.get("cut").get(Command.VERIFY).out().strip());
  }

  @AfterAll
  static void report() throws IOException {
    if (runner != null) {
      runner.close();
    }
    String table = table();
    Files.createDirectories(OUT);
    Files.writeString(OUT.resolve("report.txt"), table);
    long failed = results.stream().filter(r -> failures(r).size() > 0).count();
    if (failed > 0 && TRACES.isEmpty()) {
      Path kept = OUT.resolve("recorded");
      deleteTree(kept);
      copyTree(clean.dir, kept.resolve("clean"));
      copyTree(cut.dir, kept.resolve("cut"));
    }
    System.out.printf(
        Locale.ROOT,
        "weft fuzz: %d cases (%d failing), %d runs, %.1f s (%.1f s CPU); table in %s%n",
        results.size(),
        failed,
        results.stream().mapToInt(r -> r.runs().size()).sum(),
        (System.nanoTime() - started) / 1e9,
        cpuSeconds(),
        OUT.resolve("report.txt"));
    if (REPORT) {
      System.out.println(table);
    }
  }

  /**
   * The unmutated traces, which the oracle compares with: the clean one passes every command
   * without a word of being cut, the cut one ({@code kill -9}) passes every command with exit 0,
   * and verify, summary and analyze say it is cut. Every command gives the same result twice.
   */
  @Test
  @Order(1)
  void unmutatedTracesAreTheBaseline() throws Exception {
    List<String> problems = new ArrayList<>();
    for (Mutator.Base b : List.of(clean, cut)) {
      Path copy = tmp.resolve("again-" + b.name).resolve("trace");
      copyTree(b.dir, copy);
      for (Command c : Command.values()) {
        WeftRunner.Run r = baselineRuns.get(b.name).get(c);
        String where = b.name + " trace, " + c.label + ": ";
        if (r.exit() != 0 || r.hung() || r.thrown() != null) {
          problems.add(
              where + "exit " + r.exit() + ": " + (r.hung() ? r.hang() : r.firstErrLine()));
          continue;
        }
        boolean marked = Oracle.markedCut(c, r);
        if (b == clean && marked) {
          problems.add(where + "says cut, partial or incomplete of a clean trace");
        }
        if (b == cut && !marked && c != Command.PRINT && c != Command.EXPORT) {
          problems.add(where + "does not say that the trace is cut");
        }
        WeftRunner.Run again = runner.run(c.args(copy, copy.getParent()), null);
        if (!result(c, again, copy, copy.getParent(), null, true)
            .equals(baselines.get(b.name).get(c))) {
          problems.add(where + "another result the second time (the oracle needs the same)");
        }
      }
      deleteTree(copy.getParent());
    }
    check("the unmutated traces", problems);
  }

  /**
   * The fixed regression corpus (every example of the original report, and each mutation kind at
   * least once) and {@code weft.fuzz.cases} random cases, case i from seed {@code weft.fuzz.seed} +
   * i; all on one pool of threads, the slowest (the deep nesting) first.
   */
  @Test
  @Order(2)
  void mutatedTracesKeepTheInvariant() throws Exception {
    List<Callable<CaseResult>> cases = new ArrayList<>();
    if (REPLAY.isEmpty()) {
      cases.addAll(corpusCases());
    }
    int corpus = cases.size();
    List<Long> seeds = new ArrayList<>();
    if (REPLAY.isEmpty()) {
      for (int i = 0; i < CASES; i++) {
        seeds.add(SEED + i);
      }
    } else {
      for (String s : REPLAY.split(",")) {
        seeds.add(Long.parseLong(s.strip()));
      }
    }
    for (long seed : seeds) {
      Mutation m = Mutator.random(seed, clean, cut);
      Mutator.Base b = m.trace().equals("clean") ? clean : cut;
      Path other = (b == clean ? cut : clean).dir;
      cases.add(() -> runCase("seed " + seed, false, m, b.dir, other, baselines.get(b.name)));
    }
    List<CaseResult> done = runAll(cases);
    List<String> problems = new ArrayList<>();
    List<String> corpusFailures = failureLines(done.stream().filter(CaseResult::corpus).toList());
    List<String> seededFailures = failureLines(done.stream().filter(c -> !c.corpus()).toList());
    if (!corpusFailures.isEmpty()) {
      problems.add("-- regression corpus (" + corpus + " entries):");
      problems.addAll(corpusFailures);
    }
    if (!seededFailures.isEmpty()) {
      problems.add(
          "-- "
              + seeds.size()
              + (REPLAY.isEmpty() ? " seeded cases from " + SEED : " replayed seeded cases")
              + " (replay: -Dweft.fuzz.replay=SEED,... -Dweft.fuzz.traces="
              + (TRACES.isEmpty() ? OUT.resolve("recorded").toAbsolutePath() : TRACES)
              + " for the same recordings):");
      problems.addAll(seededFailures);
    }
    check("mutated traces", problems);
  }

  /** The regression corpus's cases, the deep nesting (slowest) first. */
  private static List<Callable<CaseResult>> corpusCases() throws IOException {
    List<Callable<CaseResult>> cases = new ArrayList<>();
    Path deep = null;
    for (Corpus.Entry e : Corpus.load()) {
      Corpus.Resolved r;
      Path base;
      Map<Command, String> baseline;
      Path other;
      if (e.trace().equals("deep")) {
        if (deep == null) {
          deep = Recordings.deepNesting(tmp.resolve("deep"), DEEP_NESTING);
        }
        r = Corpus.resolve(e, null, null);
        base = deep;
        other = deep;
        baseline = null;
      } else {
        Mutator.Base b = e.trace().equals("clean") ? clean : cut;
        r = Corpus.resolve(e, b, b == clean ? cut : clean);
        base = b.dir;
        other = (b == clean ? cut : clean).dir;
        baseline = baselines.get(b.name);
      }
      if (r.skip() != null) {
        skip("corpus " + e.name() + ": " + r.skip());
        continue;
      }
      Mutation m = r.mutation();
      Callable<CaseResult> c = () -> runCase("corpus " + e.name(), true, m, base, other, baseline);
      if (e.kind() == Kind.DEEP_NESTING) {
        cases.add(0, c);
      } else {
        cases.add(c);
      }
    }
    return cases;
  }

  /**
   * What a run's result is compared by: {@link Command#result}; for {@code verify}, whose output is
   * one line, that line and the trace's events, as the unlimited {@code weft print} lists them (a
   * trace whose events changed is not "the same" because its event count did not).
   */
  private static String result(
      Command c, WeftRunner.Run r, Path trace, Path work, Path fifo, boolean compared) {
    String result = c.result(r, trace, work);
    if (c != Command.VERIFY || r.exit() != 0 || !compared) {
      return result;
    }
    WeftRunner.Run events = runner.run(new String[] {"print", trace.toString()}, fifo);
    return result
        + "\n--- events (weft print: exit "
        + events.exit()
        + ")\n"
        + Command.PRINT.result(events, trace, work);
  }

  /** Runs cases on {@link #THREADS} threads; their results in order, skipped ones left out. */
  private static List<CaseResult> runAll(List<Callable<CaseResult>> cases) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<CaseResult> done = new ArrayList<>();
      for (Future<CaseResult> f : pool.invokeAll(cases)) {
        try {
          CaseResult c = f.get();
          if (c != null) {
            done.add(c);
          }
        } catch (ExecutionException e) {
          throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
      }
      return done;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Whether {@code m} changes only bytes of the killed recording's event files that no checksum
   * covers: the last block of a stream (its thread was still writing it) and the header's live drop
   * counter (RELIABILITY.md, "What no check can see").
   */
  static boolean inUnsealedTail(Mutation m, Path base) throws IOException {
    if (!"cut".equals(m.trace()) || m.file() == null || !m.file().endsWith(".wev")) {
      return false;
    }
    long[] changed; // the byte offsets the mutation changes
    switch (m.kind()) {
      case FLIP_BITS:
        changed = java.util.Arrays.stream(m.bits()).map(b -> b / 8).toArray();
        break;
      case ZERO_RANGE:
        changed = java.util.stream.LongStream.range(m.offset(), m.offset() + m.length()).toArray();
        break;
      case OVERWRITE:
        changed =
            java.util.stream.LongStream.range(m.offset(), m.offset() + m.bytes().length).toArray();
        break;
      case HUGE_VARINT:
      case SET_VARINT:
        changed = new long[] {m.offset()};
        break;
      default:
        return false;
    }
    Path file = base.resolve(m.file());
    if (!Files.isRegularFile(file)) {
      return false;
    }
    List<TraceLayout.Block> blocks = TraceLayout.events(Files.readAllBytes(file)).blocks();
    if (blocks.isEmpty()) {
      return false;
    }
    long tail = blocks.get(blocks.size() - 1).start();
    for (long b : changed) {
      boolean dropCounter = b >= 16 && b < 24; // the header's live drop counter
      if (!dropCounter && b < tail) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code m} left an event file of the killed recording exactly as a kill at an earlier
   * instant could have: the same bytes up to some offset and only zeros after it. A zeroed range
   * that reaches the end of the stream's data also unseals the block it starts in when it covers
   * that block's trailer, and then nothing in the file tells it from a writer killed before it
   * sealed the block (RELIABILITY.md, "What no check can see"). So does one that stops short of the
   * data's end by less than one event's length: what is left after it is what a writer killed
   * between storing an event's payload and its kind byte leaves, which the reader takes for a
   * killed writer's (FORMAT.md, "Valid end", 4).
   */
  static boolean endsEarlier(Mutation m, Path base, Path mutated) throws IOException {
    if (!"cut".equals(m.trace()) || m.file() == null || !m.file().endsWith(".wev")) {
      return false;
    }
    Path before = base.resolve(m.file());
    Path after = mutated.resolve(m.file());
    if (!Files.isRegularFile(before) || !Files.isRegularFile(after)) {
      return false;
    }
    byte[] was = Files.readAllBytes(before);
    byte[] is = Files.readAllBytes(after);
    if (was.length != is.length) {
      return false;
    }
    int first = java.util.Arrays.mismatch(was, is);
    if (first < 0 || is[first] != 0) {
      return false;
    }
    for (int i = first + ONE_EVENT; i < is.length; i++) {
      if (is[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** The longest event's bytes: a kind byte, a delta and four fields of ten bytes at most. */
  private static final int ONE_EVENT = 1 + 10 * (1 + EventKind.MAX_FIELDS);

  /** Copies {@code base}, applies {@code m}, runs every command and judges each run. */
  private static CaseResult runCase(
      String id, boolean corpus, Mutation m, Path base, Path other, Map<Command, String> baseline)
      throws Exception {
    Path work = tmp.resolve("case-" + caseNumber.getAndIncrement());
    Path trace = work.resolve("trace");
    copyTree(base, trace);
    try {
      String skip = m.apply(trace, other);
      if (skip != null) {
        skip(m.kind().label + ": " + skip);
        return null;
      }
      Path fifo = m.kind() == Kind.FIFO ? trace.resolve(m.file()) : null;
      // A truncation makes a cut trace; so does a change confined to the last block of a killed
      // recording's stream, which no checksum covers (FORMAT.md, Integrity): for both, exit 0 is
      // right when the output says the trace is cut.
      boolean tolerated =
          m.kind().truncation || inUnsealedTail(m, base) || endsEarlier(m, base, trace);
      List<RunResult> runs = new ArrayList<>();
      for (Command c : Command.values()) {
        WeftRunner.Run r = runner.run(c.args(trace, work), fifo);
        String expected = baseline == null ? null : baseline.get(c);
        String result = result(c, r, trace, work, fifo, expected != null);
        Outcome o = Oracle.judge(c, r, result, expected, tolerated);
        String difference =
            o == Outcome.SILENT_WRONG ? Oracle.firstDifference(result, expected) : null;
        runs.add(new RunResult(c, o, r, difference));
      }
      CaseResult result = new CaseResult(id, corpus, m, runs);
      results.add(result);
      if (VERBOSE) {
        StringBuilder b = new StringBuilder(id).append(" | ").append(m.describe());
        for (RunResult r : runs) {
          b.append(
              String.format(
                  Locale.ROOT,
                  " | %s %s %d ms",
                  r.command().label,
                  r.outcome().label,
                  TimeUnit.NANOSECONDS.toMillis(r.run().nanos())));
        }
        System.out.println(b);
      }
      if (!KEEP.isEmpty() && !failures(result).isEmpty()) {
        m.undo(trace);
        Path keep = Path.of(KEEP).resolve(id.replace(' ', '-'));
        deleteTree(keep);
        copyTree(trace, keep);
        Files.writeString(keep.resolve("MUTATION.txt"), m.describe() + "\n");
      }
      return result;
    } finally {
      m.undo(trace);
      deleteTree(work);
    }
  }

  private static List<RunResult> failures(CaseResult c) {
    return c.runs().stream().filter(r -> !r.outcome().ok).toList();
  }

  /** One line per failing run: case, mutation, command, outcome, what it said. */
  private static List<String> failureLines(List<CaseResult> cases) {
    List<String> lines = new ArrayList<>();
    for (CaseResult c : cases) {
      for (RunResult r : failures(c)) {
        WeftRunner.Run run = r.run();
        String said =
            r.difference() != null
                ? r.difference()
                : run.hung()
                    ? run.hang()
                    : run.thrown() != null
                        ? run.thrown().toString()
                        : !run.firstErrLine().isEmpty()
                            ? run.firstErrLine()
                            : "stdout: " + run.firstOutLine();
        lines.add(
            String.format(
                Locale.ROOT,
                "%s | %s | %s | %s (exit %d) | %s",
                c.id(),
                c.mutation().describe(),
                r.command().label,
                r.outcome().label,
                run.exit(),
                said.length() > 260 ? said.substring(0, 260) + "..." : said));
      }
    }
    return lines;
  }

  /** Fails with every problem, one per line, unless in report mode. */
  private static void check(String what, List<String> problems) {
    if (problems.isEmpty()) {
      return;
    }
    String message =
        what + ": " + problems.size() + " invariant violations\n" + String.join("\n", problems);
    if (REPORT) {
      System.out.println("weft fuzz (report mode, not failing): " + message);
    } else {
      fail(message);
    }
  }

  private static synchronized void skip(String why) {
    if (skips.add(why)) {
      System.out.println("weft fuzz: skipped: " + why);
    }
  }

  /** Counts per mutation kind, command and outcome, with totals per command. */
  static String table() {
    Map<String, Map<Outcome, Integer>> rows = new LinkedHashMap<>();
    Map<String, Map<Outcome, Integer>> totals = new LinkedHashMap<>();
    List<CaseResult> all;
    synchronized (results) {
      all = new ArrayList<>(results);
    }
    for (Kind k : Kind.values()) {
      for (Command c : Command.values()) {
        for (CaseResult r : all) {
          if (r.mutation().kind() != k) {
            continue;
          }
          for (RunResult rr : r.runs()) {
            if (rr.command() == c) {
              rows.computeIfAbsent(k.label + " " + c.label, x -> new EnumMap<>(Outcome.class))
                  .merge(rr.outcome(), 1, Integer::sum);
              totals
                  .computeIfAbsent("all " + c.label, x -> new EnumMap<>(Outcome.class))
                  .merge(rr.outcome(), 1, Integer::sum);
            }
          }
        }
      }
    }
    StringBuilder b = new StringBuilder();
    long cases = all.size();
    long corpus = all.stream().filter(CaseResult::corpus).count();
    b.append(
        String.format(
            Locale.ROOT,
            "weft fuzz: %d cases (%d random from seed %d, %d corpus), %d runs%n",
            cases,
            cases - corpus,
            SEED,
            corpus,
            all.stream().mapToInt(r -> r.runs().size()).sum()));
    b.append(String.format(Locale.ROOT, "%-28s", "kind / command"));
    for (Outcome o : Outcome.values()) {
      b.append(' ').append(pad(o.label, Math.max(5, o.label.length())));
    }
    b.append('\n');
    appendRows(b, rows);
    b.append('\n');
    appendRows(b, totals);
    return b.toString();
  }

  private static void appendRows(StringBuilder b, Map<String, Map<Outcome, Integer>> rows) {
    for (Map.Entry<String, Map<Outcome, Integer>> e : rows.entrySet()) {
      b.append(String.format(Locale.ROOT, "%-28s", e.getKey()));
      for (Outcome o : Outcome.values()) {
        int n = e.getValue().getOrDefault(o, 0);
        b.append(' ')
            .append(pad(n == 0 ? "." : Integer.toString(n), Math.max(5, o.label.length())));
      }
      b.append('\n');
    }
  }

  /** CPU time of this JVM so far (the machine may be shared: wall time says less). */
  private static double cpuSeconds() {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean
        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() / 1e9
        : Double.NaN;
  }

  private static String pad(String s, int width) {
    return " ".repeat(Math.max(0, width - s.length())) + s;
  }

  static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            Files.createDirectories(to.resolve(from.relativize(dir).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            if (attrs.isRegularFile()) {
              Files.copy(file, to.resolve(from.relativize(file).toString()));
            }
            return FileVisitResult.CONTINUE;
          }
        });
  }

  /** Deletes a tree without following links (a mutated trace may hold loops and FIFOs). */
  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            Files.deleteIfExists(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
            Files.delete(dir);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
