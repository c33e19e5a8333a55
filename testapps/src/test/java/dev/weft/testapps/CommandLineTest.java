package dev.weft.testapps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testapps.harness.ScenarioRunner;
import dev.weft.testapps.scenarios.Hello;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CommandLineTest {
  @Test
  void helpListsEveryScenarioAndOption() throws Exception {
    ScenarioRunner.Result run = inProcess("--help");
    assertEquals(0, run.exitCode(), run::toString);
    for (Scenario scenario : Scenarios.all()) {
      assertTrue(run.stdout().contains("\n" + scenario.name() + " - "), scenario.name());
      for (OptionSpec option : scenario.options()) {
        assertTrue(
            run.stdout().contains("--" + option.name()), scenario.name() + " --" + option.name());
      }
    }
    assertTrue(run.stdout().contains("--cpu"));
  }

  @Test
  void scenarioHelpListsItsOwnOptionsOnly() throws Exception {
    ScenarioRunner.Result run = inProcess("barrier-imbalance", "--help");
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(run.stdout().contains("--barrier"));
    assertTrue(!run.stdout().contains("--lock "));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "no-such-scenario",
        "barrier-imbalance --no-such-option 1",
        "barrier-imbalance --threads",
        "barrier-imbalance --threads many",
        "barrier-imbalance --threads 0",
        "barrier-imbalance --barrier revolving",
        "barrier-imbalance stray",
        "lock-contention --lock rwlock --threads 1",
        "nested --teams 1,9 --team-threads 4",
        "sparse-cg --rows 32 --threads 4"
      })
  void badUsageExitsWithCodeTwoAndOneLineOnStderr(String line) throws Exception {
    String[] args = line.isEmpty() ? new String[0] : line.split(" ");
    ScenarioRunner.Result run = inProcess(args);
    assertEquals(2, run.exitCode(), run::toString);
    assertEquals("", run.stdout());
    List<String> lines = run.stderr().lines().toList();
    assertEquals(1, lines.size(), run::toString);
    assertTrue(lines.get(0).startsWith("weft-testapps"), lines.get(0));
  }

  @Test
  void badUsageInAChildJvmExitsWithCodeTwoAndOneLine() throws Exception {
    ScenarioRunner.Result run =
        ScenarioRunner.scenario("barrier-imbalance").withOption("threads", "x").run();
    assertEquals(2, run.exitCode(), run::toString);
    assertEquals("", run.stdout());
    assertEquals(
        List.of(
            "weft-testapps barrier-imbalance: option --threads: 'x' is not an integer"
                + " (see --help)"),
        run.stderr().lines().toList());
  }

  @Test
  void helloPrintsItsLineThenTheTruthLineInAChildJvm() throws Exception {
    ScenarioRunner.Result run = ScenarioRunner.scenario("hello").run();
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals("", run.stderr());
    List<String> lines = run.stdout().lines().toList();
    assertEquals(Hello.GREETING, lines.get(0));
    assertNotNull(run.truthLine(), run::toString);
    assertEquals("hello", run.truthLine().get("scenario").asText());
    assertEquals(Hello.GREETING, run.result().asText());
    assertTrue(run.truth().isObject());
  }

  private static ScenarioRunner.Result inProcess(String... args) throws Exception {
    return ScenarioRunner.commandLine(args).runInProcess();
  }
}
