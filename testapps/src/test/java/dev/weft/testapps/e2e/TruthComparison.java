package dev.weft.testapps.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.AnalysisResult.PropertyResult;
import dev.weft.analysis.AnalysisResult.RegionResult;
import dev.weft.analysis.AnalysisResult.ThreadSeverity;
import dev.weft.trace.EventKind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compares one traced run's analysis with the scenario's own truth from the same run, per thread
 * (and per pool and region where the truth is), and says which comparisons fail.
 *
 * <p>Each comparison allows {@link #RELATIVE} of the truth plus {@link #STEP_NS} per boundary the
 * compared time depends on (a wait's start or end, a task's begin or end, a round of a pool's work
 * starting or ending), counted from the trace. Why a boundary needs an allowance at all: the
 * scenario reads {@code System.nanoTime()} outside the call it times (before its truth bookkeeping
 * and the call, after the call returns), the recorder reads it inside the woven call. Between the
 * two run tens of microseconds of CPU work (the truth's own bookkeeping, the hook and its
 * re-entrancy guard, a lock or barrier object's first-sight definition, a future's completion
 * before TASK_END), and a host with several runnable threads per core stretches that CPU time to a
 * few hundred microseconds of wall time. {@code Thread.sleep} granularity does not enter: both
 * clocks see the same sleep.
 */
final class TruthComparison {
  /** Relative allowance: 2 % of the truth. */
  static final double RELATIVE = 0.02;

  /** Absolute allowance per boundary: 0.5 ms (see the class comment). */
  static final long STEP_NS = 500_000;

  /**
   * One compared value; with {@code upperBound}, the truth times more than the property measures,
   * so only an analysis above the truth (plus the allowance) fails.
   */
  record Check(
      String what, long truthNs, long analysisNs, long allowedNs, int steps, boolean upperBound) {
    boolean passed() {
      long d = analysisNs - truthNs;
      return upperBound ? d <= allowedNs : Math.abs(d) <= allowedNs;
    }

    long deviationNs() {
      return analysisNs - truthNs;
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%-48s truth %10.3f ms  analysis %10.3f ms  deviation %+9.3f ms  allowed %s%.3f ms"
              + " (2%% + %d steps)%s",
          what,
          truthNs / 1e6,
          analysisNs / 1e6,
          deviationNs() / 1e6,
          upperBound ? "≤ +" : "±",
          allowedNs / 1e6,
          steps,
          passed() ? "" : "  FAILED");
    }
  }

  /** A ratio compared within an interval derived from the allowances of its inputs. */
  record RatioCheck(String what, double truth, double analysis, double low, double high) {
    boolean passed() {
      return analysis >= low - 1e-4 && analysis <= high + 1e-4;
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%-48s truth %10.4f     analysis %10.4f     allowed [%.4f, %.4f]%s",
          what,
          truth,
          analysis,
          low,
          high,
          passed() ? "" : "  FAILED");
    }
  }

  private final E2eCase testCase;
  private final TracedRun run;
  private final AnalysisResult analysis;
  private final List<Check> checks = new ArrayList<>();
  private final List<RatioCheck> ratios = new ArrayList<>();
  private final Set<String> uncompared = new TreeSet<>();
  private final List<String> problems = new ArrayList<>();

  private TruthComparison(E2eCase testCase, TracedRun run) {
    this.testCase = testCase;
    this.run = run;
    this.analysis = run.analysis;
  }

  /** Compares every truth kind of {@code run} that has a counterpart in the analysis. */
  static TruthComparison of(E2eCase testCase, TracedRun run) {
    TruthComparison c = new TruthComparison(testCase, run);
    c.compareAll();
    return c;
  }

  List<Check> checks() {
    return checks;
  }

  List<RatioCheck> ratios() {
    return ratios;
  }

  boolean passed() {
    return problems.isEmpty()
        && checks.stream().allMatch(Check::passed)
        && ratios.stream().allMatch(RatioCheck::passed);
  }

  /** Truth kinds (or kind[key]) found in the truth but not compared, with the reason. */
  Set<String> uncompared() {
    return uncompared;
  }

  /** The check with the largest deviation relative to its allowance. */
  Check worst() {
    Check worst = null;
    for (Check c : checks) {
      if (worst == null
          || Math.abs(c.deviationNs()) * (double) Math.max(1, worst.allowedNs())
              > Math.abs(worst.deviationNs()) * (double) Math.max(1, c.allowedNs())) {
        worst = c;
      }
    }
    return worst;
  }

  /** Every check, one per line. */
  String table() {
    StringBuilder b = new StringBuilder();
    for (Check c : checks) {
      b.append("  ").append(c).append('\n');
    }
    for (RatioCheck r : ratios) {
      b.append("  ").append(r).append('\n');
    }
    for (String p : problems) {
      b.append("  ").append(p).append("  FAILED\n");
    }
    for (String u : uncompared) {
      b.append("  (not compared) ").append(u).append('\n');
    }
    return b.toString();
  }

  private void compareAll() {
    JsonNode truth = run.truth();
    for (Iterator<String> it = truth.fieldNames(); it.hasNext(); ) {
      String kind = it.next();
      if (testCase.notCompared().containsKey(kind)) {
        uncompared.add(kind + ": " + testCase.notCompared().get(kind));
        continue;
      }
      switch (kind) {
        case "barrier_wait_ns" ->
            perThread(kind, truth.get(kind), this::barrierSteps, "barrier_wait");
        case "lock_contention_ns" ->
            perThread(
                kind,
                truth.get(kind),
                t -> run.count(t, EventKind.LOCK_REQUEST),
                "lock_contention",
                "monitor_contention",
                "lock_api_contention");
        case "join_wait_ns" -> joinWait(truth.get(kind));
        case "spin_wait_ns" ->
            perThread(kind, truth.get(kind), t -> run.count(t, EventKind.SPIN_ENTER), "spin_wait");
        case "idle_threads_ns" -> perThread(kind, truth.get(kind), this::idleSteps, "idle_threads");
        case "limited_parallelism_ns" -> limitedParallelism(truth.get(kind));
        case "pool_queue_wait_ns" -> poolQueueWait(truth.get(kind));
        case "delay_cost_lock_ns" ->
            perThread(
                kind,
                truth.get(kind),
                t -> run.count(t, EventKind.LOCK_RELEASED),
                "delay_cost_lock");
        case "condition_wait_ns" ->
            perThread(
                kind,
                truth.get(kind),
                t -> run.count(t, EventKind.WAIT_ENTER) + run.count(t, EventKind.WAIT_ENTER_ON),
                "condition_wait");
        case "io_wait_ns" ->
            perThread(kind, truth.get(kind), t -> run.count(t, EventKind.WAIT_ENTER), "io_wait");
        case "network_idle_ns" ->
            perThread(
                kind, truth.get(kind), t -> run.count(t, EventKind.WAIT_ENTER), "network_idle");
        case "critical_path_ns" ->
            criticalPathByThread(truth.get(kind), truth.get("critical_path_ambiguous_ns"));
        case "critical_path_ambiguous_ns" -> {
          // an allowance of critical_path_ns
        }
        case "delay_cost_condition_ns" ->
            perThread(
                kind,
                truth.get(kind),
                t -> 2 * Math.max(1, run.count(t, EventKind.NOTIFY)),
                "delay_cost_condition");
        case "delay_cost_long_term_ns" ->
            // a part runs between two waits' ends, each seen on two threads
            perThread(kind, truth.get(kind), t -> 4, "delay_cost_long_term");
        case "delay_cost_barrier_ns" ->
            perThread(kind, truth.get(kind), this::delaySteps, "delay_cost_barrier");
        case "barrier_wait_for_last_ns" ->
            causeTotal(kind, truth.get(kind), "barrier_wait", "waiting_for_last_ns");
        case "barrier_release_latency_ns" ->
            causeTotal(kind, truth.get(kind), "barrier_wait", "release_latency_ns");
        case "region_busy_ns" -> regions(truth);
        case "imbalance", "work_imbalance_ns" -> {
          // compared with region_busy_ns
        }
        default -> uncompared.add(kind + ": no counterpart in the analysis");
      }
    }
    criticalPathLength();
  }

  /** A thread's delay cost depends on its own arrivals and, in the same rounds, the waiters'. */
  private int delaySteps(String thread) {
    return 2 * barrierSteps(thread);
  }

  /**
   * The critical path is a chain through the whole run: its length is the run's, within 5 % (time
   * no thread ran on it, such as a recorder opening a stream, is off it) and never more.
   */
  private void criticalPathLength() {
    AnalysisResult.CriticalPath cp = analysis.criticalPath();
    long run = analysis.trace().durationNs();
    if (cp == null || run <= 0) {
      problems.add("no critical path in the analysis");
      return;
    }
    ratios.add(
        new RatioCheck(
            "critical_path.length_ns / trace.duration_ns",
            1.0,
            (double) cp.lengthNs() / run,
            0.95,
            1.0));
  }

  /**
   * The critical path's share per thread. A thread's on-path time starts and ends at hand-overs
   * (fork, task begin and end, join return, notify, wake-up): two boundaries each, on both sides.
   * Time that the truth and a trace may give to different threads ({@code
   * critical_path_ambiguous_ns}: forks and submissions counted from the call or from the push, a
   * pool's termination) is allowed on both sides as well.
   */
  private void criticalPathByThread(JsonNode truth, JsonNode ambiguous) {
    Map<String, Long> byThread = new LinkedHashMap<>();
    AnalysisResult.CriticalPath cp = analysis.criticalPath();
    if (cp != null) {
      for (AnalysisResult.CriticalThread t : cp.byThread()) {
        byThread.merge(t.thread(), t.ns(), Long::sum);
      }
    }
    compareThreads(
        "critical_path_ns",
        truth,
        byThread,
        t -> 4,
        t -> ambiguous == null || !ambiguous.has(t) ? 0 : ambiguous.get(t).asLong());
  }

  private interface Steps {
    int of(String thread);
  }

  /** Arrivals (a latch's countDown and await are one arrival each). */
  private int barrierSteps(String thread) {
    return Math.max(
        run.count(thread, EventKind.BARRIER_ENTER), run.count(thread, EventKind.BARRIER_EXIT));
  }

  /** Rounds of work of the pool {@code thread} works for (see {@link TracedRun#roundsByPool}). */
  private int rounds(String thread) {
    String pool = run.poolOfThread.get(thread);
    String scenarioPool = pool == null ? null : run.scenarioPoolName.getOrDefault(pool, pool);
    return scenarioPool == null ? 0 : run.roundsByPool.getOrDefault(scenarioPool, 0);
  }

  /** A pool worker's idle time ends and starts at its own start and end and its pool's rounds. */
  private int idleSteps(String thread) {
    return 2 + 2 * rounds(thread);
  }

  /** Idle time while work is in flight: the pool's rounds and the worker's own tasks. */
  private int inFlightIdleSteps(String thread) {
    return 2 * rounds(thread)
        + run.count(thread, EventKind.TASK_BEGIN)
        + run.count(thread, EventKind.TASK_END);
  }

  private void perThread(String kind, JsonNode truth, Steps steps, String... properties) {
    Map<String, Long> byThread = new LinkedHashMap<>();
    for (String p : properties) {
      add(byThread, property(p), 1);
    }
    compareThreads(kind, truth, byThread, steps);
  }

  /**
   * Join wait: a master's wait after the last task of its region ended is thread management in the
   * analysis (its join part), so for threads that are not pool workers both are added; the time the
   * thread spent starting threads, thread management too, is not a join.
   */
  private void joinWait(JsonNode truth) {
    Map<String, Long> byThread = new LinkedHashMap<>();
    add(byThread, property("join_wait"), 1);
    for (ThreadSeverity t : property("thread_management").byThread()) {
      if (!run.isPoolWorker(t.thread())) {
        byThread.merge(t.thread(), t.severityNs() - run.threadStartNs(t.thread()), Long::sum);
      }
    }
    compareThreads(
        "join_wait_ns",
        truth,
        byThread,
        t -> run.count(t, EventKind.JOIN_WAIT_ENTER) + run.count(t, EventKind.FORK));
  }

  /**
   * Limited parallelism: a worker's idle time between a region's FORK and its first task is thread
   * management in the analysis (its fork part), so for pool workers both are added (not the time
   * they spent starting threads).
   */
  private void limitedParallelism(JsonNode truth) {
    Map<String, Long> byThread = new LinkedHashMap<>();
    add(byThread, property("limited_parallelism"), 1);
    for (ThreadSeverity t : property("thread_management").byThread()) {
      if (run.isPoolWorker(t.thread())) {
        byThread.merge(t.thread(), t.severityNs() - run.threadStartNs(t.thread()), Long::sum);
      }
    }
    compareThreads("limited_parallelism_ns", truth, byThread, this::inFlightIdleSteps);
  }

  private void compareThreads(
      String kind, JsonNode truth, Map<String, Long> byThread, Steps steps) {
    compareThreads(kind, truth, byThread, steps, t -> 0);
  }

  /** As above, with {@code extraNs} allowed beyond the steps for a thread of the truth. */
  private void compareThreads(
      String kind,
      JsonNode truth,
      Map<String, Long> byThread,
      Steps steps,
      java.util.function.ToLongFunction<String> extraNs) {
    Set<String> seen = new TreeSet<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = truth.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String thread = e.getKey();
      seen.add(thread);
      String excluded = testCase.notCompared().get(kind + "[" + thread + "]");
      if (excluded != null) {
        uncompared.add(kind + "[" + thread + "]: " + excluded);
        continue;
      }
      String bound = testCase.upperBounds().get(kind + "[" + thread + "]");
      if (bound != null) {
        int calls = Math.max(1, steps.of(thread));
        checks.add(
            new Check(
                kind + "[" + thread + "] (truth is an upper bound)",
                e.getValue().asLong(),
                byThread.getOrDefault(thread, 0L),
                Math.round(RELATIVE * e.getValue().asLong()) + calls * STEP_NS,
                calls,
                true));
        continue;
      }
      // At least one boundary: the truth times every call it lists, blocked or not; some calls
      // leave no event when they do not block (a spin barrier's last arrival), so a case may give
      // the number of calls.
      int calls = testCase.callsPerThread().getOrDefault(kind, 1);
      check(
          kind + "[" + thread + "]",
          e.getValue().asLong(),
          byThread.getOrDefault(thread, 0L),
          Math.max(calls, steps.of(thread)),
          extraNs.applyAsLong(thread));
    }
    if (testCase.exhaustiveKinds().contains(kind)) {
      for (Map.Entry<String, Long> e : byThread.entrySet()) {
        if (!seen.contains(e.getKey())
            && !e.getKey().startsWith(WarmedScenarioMain.WARM_UP_PREFIX)) {
          // The truth says this thread has none of it.
          check(
              kind + "[" + e.getKey() + "] (not in truth)",
              0,
              e.getValue(),
              Math.max(1, steps.of(e.getKey())));
        }
      }
    }
  }

  private void poolQueueWait(JsonNode truth) {
    PropertyResult p = property("pool_queue_wait");
    Map<String, Long> byPool = new LinkedHashMap<>();
    if (p.causes() != null) {
      for (Map.Entry<String, Long> e : p.causes().entrySet()) {
        byPool.merge(
            run.scenarioPoolName.getOrDefault(e.getKey(), e.getKey()), e.getValue(), Long::sum);
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = truth.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String pool = e.getKey();
      check(
          "pool_queue_wait_ns[" + pool + "]",
          e.getValue().asLong(),
          byPool.getOrDefault(pool, 0L),
          2 * run.tasksCreatedByPool.getOrDefault(pool, 0));
    }
  }

  private void causeTotal(String kind, JsonNode truth, String property, String cause) {
    long total = 0;
    int steps = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = truth.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      total += e.getValue().asLong();
      steps += barrierSteps(e.getKey());
    }
    PropertyResult p = property(property);
    Map<String, Long> causes = p.causes();
    long analysed = causes == null ? 0 : causes.getOrDefault(cause, 0L);
    if (cause.equals("release_latency_ns")) {
      // Causes are totals over all threads. The recorder warm-up's barriers have one party each,
      // so their whole wait is release latency (own arrival is the latest): take it out.
      for (ThreadSeverity t : p.byThread()) {
        if (t.thread().startsWith(WarmedScenarioMain.WARM_UP_PREFIX)) {
          analysed -= t.severityNs();
        }
      }
    }
    check(kind + " (all threads) vs " + property + "." + cause, total, analysed, steps);
  }

  /**
   * Region busy times per thread, and the imbalance and time lost derived from them: the analysis
   * region is the one whose location is in the file the case names.
   */
  private void regions(JsonNode truth) {
    JsonNode busy = truth.get("region_busy_ns");
    for (Iterator<Map.Entry<String, JsonNode>> it = busy.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String name = e.getKey();
      String file = testCase.regions().get(name);
      if (file == null) {
        uncompared.add("region_busy_ns[" + name + "]: no analysis region named for it");
        continue;
      }
      RegionResult region = null;
      for (RegionResult r : analysis.regions()) {
        if (r.location() != null && r.location().startsWith(file + ":")) {
          region = r;
          break;
        }
      }
      if (region == null) {
        problems.add("region " + name + ": no analysis region located in " + file);
        continue;
      }
      Map<String, Long> truthBusy = new LinkedHashMap<>();
      Map<String, Long> tolerance = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> t = e.getValue().fields(); t.hasNext(); ) {
        Map.Entry<String, JsonNode> member = t.next();
        String thread = member.getKey();
        long value = member.getValue().asLong();
        // A busy span runs from one departure to the next arrival: two boundaries per arrival,
        // and the first from the thread's start.
        int steps = 2 * barrierSteps(thread) + 1;
        Check c =
            check(
                "region_busy_ns[" + name + "][" + thread + "]",
                value,
                region.busyNsByThread().getOrDefault(thread, 0L),
                steps);
        truthBusy.put(thread, value);
        tolerance.put(thread, c.allowedNs());
      }
      for (String member : region.busyNsByThread().keySet()) {
        if (!truthBusy.containsKey(member)) {
          problems.add(
              "region " + name + ": the analysis counts " + member + " in its team, the truth not");
        }
      }
      JsonNode imbalance = truth.path("imbalance").path(name);
      if (!imbalance.isMissingNode()) {
        double[] bounds = imbalanceBounds(truthBusy, tolerance);
        ratios.add(
            new RatioCheck(
                "imbalance[" + name + "]",
                imbalance.asDouble(),
                region.imbalance(),
                bounds[0],
                bounds[1]));
      }
      JsonNode lost = truth.path("work_imbalance_ns").path(name);
      if (!lost.isMissingNode()) {
        // lost = T·max − Σ busy: each member's allowance counts once, the busiest's T times more.
        long maxTolerance = tolerance.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long sum = tolerance.values().stream().mapToLong(Long::longValue).sum();
        long allowed = sum + truthBusy.size() * maxTolerance;
        checks.add(
            new Check(
                "work_imbalance_ns[" + name + "] vs region lost_ns",
                lost.asLong(),
                region.lostNs(),
                allowed,
                0,
                false));
      }
    }
  }

  /**
   * The range of (max − mean) / mean over busy vectors within the members' allowances: the highest
   * at a corner of the box, the lowest where the busiest is as low as it can be and the others are
   * raised towards it.
   */
  static double[] imbalanceBounds(Map<String, Long> busy, Map<String, Long> tolerance) {
    List<String> members = new ArrayList<>(busy.keySet());
    int n = members.size();
    double high = 0;
    for (int corner = 0; corner < (1 << Math.min(n, 12)); corner++) {
      double max = 0;
      double sum = 0;
      for (int i = 0; i < n; i++) {
        String m = members.get(i);
        double v = Math.max(0, busy.get(m) + ((corner >> i & 1) == 1 ? 1 : -1) * tolerance.get(m));
        max = Math.max(max, v);
        sum += v;
      }
      if (sum > 0) {
        high = Math.max(high, max / (sum / n) - 1);
      }
    }
    double lowestMax = 0;
    for (String m : members) {
      lowestMax = Math.max(lowestMax, busy.get(m) - tolerance.get(m));
    }
    double sum = 0;
    for (String m : members) {
      sum += Math.min(busy.get(m) + tolerance.get(m), Math.max(0, lowestMax));
    }
    double low = sum > 0 && lowestMax > 0 ? Math.max(0, lowestMax / (sum / n) - 1) : 0;
    return new double[] {low, high};
  }

  private Check check(String what, long truthNs, long analysisNs, int steps) {
    return check(what, truthNs, analysisNs, steps, 0);
  }

  private Check check(String what, long truthNs, long analysisNs, int steps, long extraNs) {
    long allowed = Math.round(RELATIVE * truthNs) + steps * STEP_NS + extraNs;
    Check c = new Check(what, truthNs, analysisNs, allowed, steps, false);
    checks.add(c);
    return c;
  }

  private PropertyResult property(String id) {
    PropertyResult p = analysis.property(id);
    if (p == null) {
      throw new IllegalStateException("the analysis has no property " + id);
    }
    return p;
  }

  private static void add(Map<String, Long> byThread, PropertyResult p, int sign) {
    for (ThreadSeverity t : p.byThread()) {
      byThread.merge(t.thread(), sign * t.severityNs(), Long::sum);
    }
  }
}
