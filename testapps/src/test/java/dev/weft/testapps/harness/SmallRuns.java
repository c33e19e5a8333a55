package dev.weft.testapps.harness;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Small, fast arguments for every scenario (each run takes well under 100 ms of work), for tests
 * that run every scenario, e.g. with and without the agent. A new scenario must be added here;
 * {@code DeterminismTest} checks that none is missing.
 */
public final class SmallRuns {
  private static final Map<String, String> ARGS =
      Map.ofEntries(
          Map.entry("hello", ""),
          Map.entry("regions", "--threads 2"),
          Map.entry("idle-threads", "--workers 2 --comm-ms 1 --work-ms 1 --iterations 2"),
          Map.entry("barrier-imbalance", "--threads 2 --work-ms 1 --iterations 2"),
          Map.entry("spin-barrier", "--threads 2 --work-ms 1 --iterations 2"),
          Map.entry(
              "lock-contention",
              "--threads 2 --sections 2 --hold-ms 1 --think-ms 0 --stagger-ms 0"),
          Map.entry("lock-convoy", "--threads 3 --sections 2 --hold-ms 2 --first-hold-ms 6"),
          Map.entry("notify-chain", "--threads 3 --work-ms 2"),
          Map.entry("gate-wait", "--waiters 2 --rounds 2 --open-ms 2 --own-ms 1"),
          Map.entry(
              "queue-wait", "--consumers 2 --items 3 --capacity 1 --produce-ms 1 --consume-ms 1"),
          Map.entry("network-wait", "--clients 2 --requests 2 --serve-ms 1 --think-ms 1"),
          Map.entry("delay-chain", "--work-ms 2"),
          Map.entry("fork-join-dag", "--siblings 2 --sibling-ms 2 --branch-ms 8 --leaf-ms 8"),
          Map.entry("fork-join-imbalance", "--elements 8 --max-ms 2"),
          Map.entry("parallel-stream", "--elements 8 --max-ms 2"),
          Map.entry("executor-queue", "--tasks 4 --task-ms 1"),
          Map.entry("future-wait", "--waiters 2 --task-ms 1 --own-ms 1 --rounds 1"),
          Map.entry("sparse-cg", "--rows 256 --threads 2 --iterations 3 --nnz-per-ms 1000000"),
          Map.entry(
              "nested",
              "--groups 2 --elements 2 --element-ms 1 --team-threads 2 --teams 1,2"
                  + " --region-ms 1"));

  private SmallRuns() {}

  /** Names of the scenarios that have small arguments. */
  public static Set<String> scenarios() {
    return ARGS.keySet();
  }

  /** The small arguments of {@code scenario} (after its name). */
  public static List<String> args(String scenario) {
    String args = ARGS.get(scenario);
    if (args == null) {
      throw new IllegalArgumentException("no small arguments for " + scenario);
    }
    return args.isEmpty() ? List.of() : Arrays.asList(args.split(" "));
  }

  /** A runner for {@code scenario} with its small arguments. */
  public static ScenarioRunner runner(String scenario) {
    return ScenarioRunner.scenario(scenario).withArgs(args(scenario).toArray(new String[0]));
  }
}
