package dev.weft.testapps.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ScenarioRunnerTest {
  @Test
  void passesJvmArgumentsBeforeTheMainClassAndParsesTheTruth() throws Exception {
    ScenarioRunner runner =
        ScenarioRunner.scenario("barrier-imbalance")
            .withJvmArgs("-Xmx64m", "-Dweft.testapps.probe=1")
            .withOption("threads", 2)
            .withOption("work-ms", 1)
            .withOption("iterations", 2);
    List<String> command = runner.command();
    int mainClass = command.indexOf("dev.weft.testapps.Main");
    assertTrue(mainClass > command.indexOf("-Xmx64m"), command::toString);
    assertEquals(
        List.of("barrier-imbalance", "--threads", "2", "--work-ms", "1", "--iterations", "2"),
        command.subList(mainClass + 1, command.size()));

    ScenarioRunner.Result run = runner.run();
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals("", run.stderr());
    assertEquals(List.of("worker-0", "worker-1"), List.copyOf(run.truthPerKey("busy_ns").keySet()));
    assertEquals(2, run.truthLine().get("params").get("threads").asInt());
    assertEquals(1, run.stdoutWithoutTruth().size(), run::toString);
  }

  @Test
  void killsAChildThatOutlivesItsTimeout() throws Exception {
    ScenarioRunner runner =
        ScenarioRunner.scenario("lock-contention")
            .withOption("hold-ms", 60_000)
            .withTimeout(Duration.ofMillis(1500));
    IllegalStateException e = assertThrows(IllegalStateException.class, runner::run);
    assertTrue(e.getMessage().contains("did not end within"), e.getMessage());
  }

  @Test
  void runsOnTheSecondJdkToo() throws Exception {
    String home = System.getProperty("weft.jdk25.home", "");
    Assumptions.assumeTrue(
        !home.isEmpty() && Files.isDirectory(Path.of(home)), "no JDK 25 at '" + home + "'");
    ScenarioRunner.Result run =
        ScenarioRunner.scenario("executor-queue")
            .withJavaHome(Path.of(home))
            .withOption("tasks", 3)
            .withOption("task-ms", 1)
            .run();
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals("", run.stderr());
    assertEquals(3, run.truthPerKey("pool_tasks").get("exec"));
  }
}
