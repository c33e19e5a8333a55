package dev.weft.testapps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.testapps.harness.ScenarioRunner;
import dev.weft.testapps.harness.SmallRuns;
import java.util.Iterator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every scenario, run twice with small sizes, prints the same stdout apart from the truth line (and
 * so the same result); the truth line is last, parseable, and carries every parameter.
 */
class DeterminismTest {
  static Stream<String> scenarios() {
    return Scenarios.all().stream().map(Scenario::name);
  }

  @Test
  void everyScenarioHasSmallArguments() {
    assertEquals(scenarios().sorted().toList(), SmallRuns.scenarios().stream().sorted().toList());
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
    ScenarioRunner runner = SmallRuns.runner(name);
    ScenarioRunner.Result child = runner.run();
    assertEquals(0, child.exitCode(), child::toString);
    assertEquals("", child.stderr());
    assertEquals(runner.runInProcess().stdoutWithoutTruth(), child.stdoutWithoutTruth());
  }

  private static ScenarioRunner.Result run(String name) throws Exception {
    ScenarioRunner.Result run = SmallRuns.runner(name).runInProcess();
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals("", run.stderr());
    assertNotNull(run.truthLine(), run::toString);
    return run;
  }
}
