package dev.weft.testapps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.testapps.harness.ScenarioRunner;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every scenario, run twice with small sizes, prints the same stdout apart from the truth line (and
 * so the same result); the truth line is last, parseable, and carries every parameter.
 */
class DeterminismTest {
  /** Small, fast arguments for every scenario; a new scenario must be added here. */
  static final Map<String, String> SMALL =
      Map.ofEntries(
          Map.entry("hello", ""),
          Map.entry("regions", "--threads 2"),
          Map.entry("idle-threads", "--workers 2 --comm-ms 1 --work-ms 1 --iterations 2"),
          Map.entry("barrier-imbalance", "--threads 2 --work-ms 1 --iterations 2"),
          Map.entry("spin-barrier", "--threads 2 --work-ms 1 --iterations 2"),
          Map.entry(
              "lock-contention",
              "--threads 2 --sections 2 --hold-ms 1 --think-ms 0 --stagger-ms 0"),
          Map.entry("fork-join-imbalance", "--elements 8 --max-ms 2"),
          Map.entry("parallel-stream", "--elements 8 --max-ms 2"),
          Map.entry("executor-queue", "--tasks 4 --task-ms 1"),
          Map.entry("future-wait", "--waiters 2 --task-ms 1 --own-ms 1 --rounds 1"),
          Map.entry("sparse-cg", "--rows 256 --threads 2 --iterations 3 --nnz-per-ms 1000000"),
          Map.entry(
              "nested",
              "--groups 2 --elements 2 --element-ms 1 --team-threads 2 --teams 1,2"
                  + " --region-ms 1"));

  static Stream<String> scenarios() {
    return Scenarios.all().stream().map(Scenario::name);
  }

  @Test
  void everyScenarioHasSmallArguments() {
    assertEquals(scenarios().sorted().toList(), SMALL.keySet().stream().sorted().toList());
  }

  @ParameterizedTest
  @MethodSource("scenarios")
  void stdoutApartFromTheTruthLineIsIdenticalAcrossRuns(String name) throws Exception {
    ScenarioRunner.Result first = run(name);
    ScenarioRunner.Result second = run(name);
    assertEquals(first.stdoutWithoutTruth(), second.stdoutWithoutTruth());
    assertEquals(first.result(), second.result());
    assertTrue(first.stdoutWithoutTruth().stream().noneMatch(l -> l.startsWith("{")));
    assertTrue(
        first.stdoutWithoutTruth().contains(name + " result=" + first.result()), first::toString);

    JsonNode line = first.truthLine();
    assertEquals(name, line.get("scenario").asText());
    Scenario scenario = Scenarios.find(name).orElseThrow();
    for (OptionSpec option : scenario.options()) {
      assertNotNull(line.get("params").get(option.name()), option.name());
    }
    assertEquals(false, line.get("params").get("cpu").asBoolean());
    for (Iterator<String> kinds = line.get("truth").fieldNames(); kinds.hasNext(); ) {
      String kind = kinds.next();
      assertTrue(kind.matches("[a-z_]+"), kind);
    }
  }

  @Test
  void spinningWorkGivesItsOwnResultIdenticalAcrossRuns() throws Exception {
    ScenarioRunner runner =
        ScenarioRunner.scenario("barrier-imbalance")
            .withArgs("--threads", "2", "--work-ms", "1", "--iterations", "2")
            .withOption("spin-per-ms", 1000)
            .withCpu();
    ScenarioRunner.Result first = runner.runInProcess();
    ScenarioRunner.Result second = runner.runInProcess();
    assertEquals(0, first.exitCode(), first::toString);
    assertEquals(first.result(), second.result());
    assertTrue(first.truthLine().get("params").get("cpu").asBoolean());
    ScenarioRunner.Result sleeping = run("barrier-imbalance");
    assertTrue(!sleeping.result().equals(first.result()), "spin checksums differ from sleep's");
  }

  @Test
  void aChildJvmPrintsWhatThisJvmPrints() throws Exception {
    String name = "fork-join-imbalance";
    ScenarioRunner runner = ScenarioRunner.scenario(name).withArgs(args(name));
    ScenarioRunner.Result child = runner.run();
    assertEquals(0, child.exitCode(), child::toString);
    assertEquals("", child.stderr());
    assertEquals(runner.runInProcess().stdoutWithoutTruth(), child.stdoutWithoutTruth());
  }

  private static ScenarioRunner.Result run(String name) throws Exception {
    ScenarioRunner.Result run = ScenarioRunner.scenario(name).withArgs(args(name)).runInProcess();
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals("", run.stderr());
    assertNotNull(run.truthLine(), run::toString);
    return run;
  }

  static String[] args(String name) {
    String args = SMALL.get(name);
    return args.isEmpty() ? new String[0] : args.split(" ");
  }
}
