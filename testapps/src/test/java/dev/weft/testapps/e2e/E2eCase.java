package dev.weft.testapps.e2e;

import dev.weft.testapps.harness.SmallRuns;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One end-to-end case: a scenario with {@link SmallRuns}' arguments plus a variant (e.g. {@code
 * --barrier phaser}), and what of its truth cannot be compared with the analysis, and why.
 *
 * @param scenario the scenario's name
 * @param variant extra arguments after the small ones
 * @param exhaustiveKinds truth kinds that list every thread that can have the property: a thread
 *     the truth leaves out must have (close to) none of it in the analysis
 * @param regions truth region name → the file name of the analysis region's location (barrier
 *     regions are named by their first await call site)
 * @param notCompared truth kind, or {@code kind[key]}, → why it is not compared
 * @param warmRecorder whether the recorder's first use of every construct family happens before the
 *     measured run (see {@link WarmedScenarioMain})
 * @param callsPerThread truth kind → how many timed calls each thread makes, where calls that do
 *     not block leave no event to count (at least this many boundaries are allowed for)
 * @param upperBounds {@code kind[key]} → why the truth times more than the property measures, so
 *     that it is only an upper bound of the analysis
 */
record E2eCase(
    String scenario,
    List<String> variant,
    Set<String> exhaustiveKinds,
    Map<String, String> regions,
    Map<String, String> notCompared,
    boolean warmRecorder,
    Map<String, Integer> callsPerThread,
    Map<String, String> upperBounds) {

  /** The command-line arguments after the scenario name. */
  List<String> args() {
    List<String> args = new ArrayList<>(SmallRuns.args(scenario));
    args.addAll(variant);
    return args;
  }

  /** A short name for reports: scenario and variant. */
  String label() {
    String label = variant.isEmpty() ? scenario : scenario + " " + String.join(" ", variant);
    return warmRecorder ? label : label + " (recorder cold)";
  }

  /** The same case without the recorder warm-up. */
  E2eCase recorderCold() {
    return new E2eCase(
        scenario,
        variant,
        exhaustiveKinds,
        regions,
        notCompared,
        false,
        callsPerThread,
        upperBounds);
  }

  @Override
  public String toString() {
    return label();
  }

  /** Truth kinds no scenario's comparison covers, and why (the same for every case). */
  static final Map<String, String> NOT_COMPARED_ANYWHERE =
      Map.ofEntries(
          Map.entry("busy_ns", "the scenario's own work only; execution holds far more"),
          Map.entry("comm_ns", "a sleep, which the analysis counts as execution"),
          Map.entry("elements", "a count of work items, not a wait"),
          Map.entry("tasks_created", "a count (compared in the agent's own tests)"),
          Map.entry("pool_tasks", "a count (compared in the agent's own tests)"),
          Map.entry(
              "task_queue_wait_ns",
              "per task; the analysis reports queue wait per pool (compared as"
                  + " pool_queue_wait_ns)"),
          Map.entry("lock_acquisitions", "a count"),
          Map.entry("contended_acquisitions", "a count"),
          Map.entry("block_nnz", "the matrix split, not a time"),
          Map.entry("block_rows", "the matrix split, not a time"),
          Map.entry(
              "spin_wait_for_last_ns",
              "spin_wait has no causes split (compared as a whole: spin_wait_ns)"));

  /** Every case the harness runs: each scenario, and each of its variants. */
  static List<E2eCase> all() {
    List<E2eCase> cases = new ArrayList<>();
    Set<String> poolKinds = Set.of("join_wait_ns", "idle_threads_ns", "limited_parallelism_ns");
    cases.add(of("idle-threads", List.of(), poolKinds, Map.of(), Map.of()));
    cases.add(of("idle-threads", List.of("--mode", "overlap"), poolKinds, Map.of(), Map.of()));
    for (String barrier : List.of("cyclic", "phaser", "latch")) {
      cases.add(
          of(
              "barrier-imbalance",
              List.of("--barrier", barrier),
              Set.of("barrier_wait_ns", "join_wait_ns", "delay_cost_barrier_ns"),
              Map.of("iteration", "BarrierImbalance.java"),
              Map.of()));
    }
    cases.add(
        of(
            "barrier-imbalance",
            List.of(
                "--straggler",
                "rotating",
                "--threads",
                "3",
                "--iterations",
                "6",
                "--work-ms",
                "20"),
            Set.of("barrier_wait_ns", "join_wait_ns", "delay_cost_barrier_ns"),
            Map.of("iteration", "BarrierImbalance.java"),
            Map.of()));
    for (String lock : List.of("reentrant", "fair", "synchronized", "rwlock")) {
      cases.add(
          of(
              "lock-contention",
              List.of("--lock", lock),
              Set.of("lock_contention_ns", "join_wait_ns"),
              Map.of(),
              Map.of()));
    }
    cases.add(of("fork-join-imbalance", List.of(), Set.of("join_wait_ns"), Map.of(), Map.of()));
    cases.add(
        of(
            "lock-convoy",
            List.of("--threads", "4", "--sections", "3", "--hold-ms", "5", "--first-hold-ms", "15"),
            Set.of("lock_contention_ns", "delay_cost_lock_ns"),
            Map.of(),
            Map.of()));
    cases.add(
        of(
            "notify-chain",
            List.of("--threads", "4", "--work-ms", "8"),
            // Not critical_path_ns: main's share (before the first start, after the last join) is
            // outside the scenario's clock.
            Set.of("condition_wait_ns", "delay_cost_condition_ns"),
            Map.of(),
            Map.of()));
    cases.add(
        of(
            "gate-wait",
            List.of("--rounds", "4", "--open-ms", "10", "--own-ms", "2"),
            Set.of("condition_wait_ns"),
            Map.of(),
            Map.of()));
    // Consumers waiting for the producer, then the producer waiting for room.
    for (List<String> rates :
        List.of(
            List.of("--produce-ms", "4", "--consume-ms", "2"),
            List.of("--produce-ms", "1", "--consume-ms", "10"))) {
      List<String> variant = new ArrayList<>(List.of("--items", "8"));
      variant.addAll(rates);
      cases.add(
          of(
              "queue-wait",
              variant,
              Set.of("condition_wait_ns", "delay_cost_condition_ns"),
              Map.of(),
              Map.of()));
    }
    // Clients in socket reads while the event loop works, the loop idle in select while they think.
    cases.add(
        of(
            "network-wait",
            List.of("--requests", "4"),
            Set.of("io_wait_ns", "network_idle_ns"),
            Map.of(),
            Map.of()));
    cases.add(
        of(
            "delay-chain",
            List.of("--work-ms", "10"),
            Set.of(
                "delay_cost_barrier_ns",
                "delay_cost_lock_ns",
                "delay_cost_condition_ns",
                "delay_cost_long_term_ns"),
            Map.of(),
            Map.of()));
    cases.add(
        of(
            "fork-join-dag",
            List.of("--sibling-ms", "8", "--branch-ms", "30", "--leaf-ms", "30", "--tail-ms", "8"),
            Set.of(),
            Map.of(),
            Map.of()));
    for (String terminal : List.of("sum", "for-each")) {
      E2eCase stream =
          of("parallel-stream", List.of("--terminal", terminal), Set.of(), Map.of(), Map.of());
      cases.add(
          new E2eCase(
              stream.scenario(),
              stream.variant(),
              stream.exhaustiveKinds(),
              stream.regions(),
              stream.notCompared(),
              true,
              Map.of(),
              Map.of(
                  "join_wait_ns[main]",
                  "the truth times pool.submit(...).get() as one join wait, but submit is not"
                      + " waiting: it creates the pool's worker threads (milliseconds on a loaded"
                      + " host), which the analysis counts as the caller's execution; only the"
                      + " get() is a join wait")));
    }
    cases.add(
        of(
            "executor-queue",
            List.of(),
            Set.of("join_wait_ns", "idle_threads_ns", "limited_parallelism_ns"),
            Map.of(),
            Map.of()));
    for (String api : List.of("future", "completable")) {
      cases.add(
          of("future-wait", List.of("--api", api), Set.of("join_wait_ns"), Map.of(), Map.of()));
    }
    for (String split : List.of("rows", "nnz")) {
      cases.add(
          of(
              "sparse-cg",
              List.of("--split", split),
              Set.of("barrier_wait_ns", "join_wait_ns"),
              Map.of("cg", "SparseCg.java"),
              Map.of()));
    }
    cases.add(
        of(
            "nested",
            List.of(),
            // The truth covers the team pool only, not the fork-join pool's workers.
            Set.of(),
            Map.of(),
            Map.of(
                "region_busy_ns",
                "the varying-team regions are rounds of executor submissions: the event model"
                    + " has no FORK/JOIN for them, so the analysis has no region to compare"
                    + " (their varying team size is checked through limited_parallelism_ns)",
                "imbalance",
                "see region_busy_ns",
                "work_imbalance_ns",
                "see region_busy_ns")));
    E2eCase spin =
        of("spin-barrier", List.of(), Set.of("spin_wait_ns", "join_wait_ns"), Map.of(), Map.of());
    // Every thread passes the spin barrier once per iteration; the last arrival does not spin.
    cases.add(
        new E2eCase(
            spin.scenario(),
            spin.variant(),
            spin.exhaustiveKinds(),
            spin.regions(),
            spin.notCompared(),
            true,
            Map.of("spin_wait_ns", optionValue(spin.args(), "--iterations")),
            Map.of()));
    // The recorder's own first-use work must not delay a thread at its first barrier either.
    cases.add(cases.get(2).recorderCold());
    return cases;
  }

  /** The integer value of {@code option} in {@code args}. */
  private static int optionValue(List<String> args, String option) {
    int i = args.indexOf(option);
    if (i < 0 || i + 1 >= args.size()) {
      throw new IllegalArgumentException(option + " not in " + args);
    }
    return Integer.parseInt(args.get(i + 1));
  }

  private static E2eCase of(
      String scenario,
      List<String> variant,
      Set<String> exhaustiveKinds,
      Map<String, String> regions,
      Map<String, String> notCompared) {
    Map<String, String> all = new LinkedHashMap<>(NOT_COMPARED_ANYWHERE);
    all.putAll(notCompared);
    return new E2eCase(scenario, variant, exhaustiveKinds, regions, all, true, Map.of(), Map.of());
  }
}
