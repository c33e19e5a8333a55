package dev.weft.testapps.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.Analyzer;
import dev.weft.testapps.harness.ScenarioRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The end-to-end harness: every scenario (and variant) runs in a child JVM under the agent; its
 * trace must pass {@code weft verify}, its printed result must be what the scenario prints without
 * the agent, and the analysis must match the scenario's own truth from the same run, per thread,
 * within {@link TruthComparison}'s allowances, and it must not note a task of unknown creation
 * (every trace here starts with its program). Runs on the JDK running the tests (17) and, when the
 * system property {@code weft.jdk25.home} names an installed JDK, on that one too.
 *
 * <p>The host is shared and loaded, and a run can be disturbed (a thread descheduled between the
 * scenario's clock reading and the recorder's): a case whose comparison fails is run again, up to
 * {@link #ATTEMPTS} times, never with wider allowances. A trace that fails verification or a
 * changed result fails at once: noise does not explain those.
 *
 * <p>Traces are kept under {@code target/e2e/} for diagnosis ({@code weft print DIR --thread
 * NAME}); each case's outcome is appended to {@code target/e2e/summary.txt}. To run some cases
 * only, give {@code -Dweft.e2e.cases=barrier,lock} (substrings of the case labels).
 */
@Tag("e2e")
class EndToEndTest {
  static final int ATTEMPTS = 3;

  private static final Path WORK = Path.of("target", "e2e").toAbsolutePath();

  @TestFactory
  Stream<DynamicNode> scenariosUnderTheAgent() throws IOException {
    Files.createDirectories(WORK);
    List<DynamicNode> jdks = new ArrayList<>();
    for (Path home : Jdks.homes()) {
      String jdk = "jdk" + Jdks.featureVersion(home);
      List<DynamicNode> tests = new ArrayList<>();
      for (E2eCase c : E2eCase.all()) {
        if (!selected(c)) {
          continue;
        }
        tests.add(DynamicTest.dynamicTest(c.label(), () -> runCase(jdk, home, c)));
      }
      jdks.add(DynamicContainer.dynamicContainer(jdk, tests));
    }
    return jdks.stream();
  }

  private static boolean selected(E2eCase c) {
    String only = System.getProperty("weft.e2e.cases", "");
    if (only.isBlank()) {
      return true;
    }
    for (String part : only.split(",")) {
      if (!part.isBlank() && c.label().contains(part.trim())) {
        return true;
      }
    }
    return false;
  }

  private static void runCase(String jdk, Path home, E2eCase c) throws Exception {
    ScenarioRunner.Result plain =
        ScenarioRunner.scenario(c.scenario())
            .withArgs(c.args().toArray(new String[0]))
            .runInProcess();
    assertEquals(0, plain.exitCode(), () -> "without the agent: " + plain);

    Path dir = Files.createDirectories(WORK.resolve(jdk));
    StringBuilder attempts = new StringBuilder();
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      TracedRun run =
          TracedRun.run(home, Jdks.agentJar(), dir, c.warmRecorder(), c.scenario(), c.args());
      assertEquals(0, run.exitCode, () -> "under the agent: " + run);
      assertNotNull(run.truthLine, () -> "no truth line under the agent: " + run);
      assertEquals("", run.stderr, () -> "the agent (or the JVM) printed on stderr: " + run);
      assertEquals(
          0,
          run.verifyExitCode,
          () -> "weft verify rejected " + run.traceDir + ":\n" + run.verifyOutput);
      assertEquals(
          plain.stdoutWithoutTruth(),
          run.stdoutWithoutTruth(),
          () -> "the scenario printed another result under the agent: " + run);
      assertTrue(run.analysis.trace().complete(), () -> "trace not complete: " + run.traceDir);
      // Traced from its start, every task the program ran was created where the trace shows it.
      for (String note : run.analysis.notes()) {
        assertFalse(
            note.contains("without a recorded TASK_CREATE") || note.contains("created again"),
            () -> "a task's creation was lost: " + note + " in " + run.traceDir);
      }
      assertEquals(
          AnalysisJson.toJson(
              Analyzer.analyze(run.traceDir, Analyzer.Options.defaults().withThreads(1))),
          AnalysisJson.toJson(
              Analyzer.analyze(run.traceDir, Analyzer.Options.defaults().withThreads(3))),
          () -> "the analysis on three threads differs from the one on one: " + run.traceDir);

      TruthComparison comparison = TruthComparison.of(c, run);
      String report =
          String.format(
              Locale.ROOT,
              "%s %s, attempt %d, trace %s:%n%s",
              jdk,
              c.label(),
              attempt,
              run.traceDir,
              comparison.table());
      attempts.append(report);
      System.out.print(report);
      if (comparison.passed()) {
        summarise(jdk, c, attempt, comparison, true);
        return;
      }
      summarise(jdk, c, attempt, comparison, false);
    }
    fail(
        c.label()
            + " on "
            + jdk
            + ": the analysis does not match the scenario's truth in "
            + ATTEMPTS
            + " runs (allowance: 2 % + "
            + TruthComparison.STEP_NS / 1e6
            + " ms per boundary)\n"
            + attempts);
  }

  private static void summarise(
      String jdk, E2eCase c, int attempt, TruthComparison comparison, boolean passed)
      throws IOException {
    TruthComparison.Check worst = comparison.worst();
    String line =
        String.format(
            Locale.ROOT,
            "%s\t%s\tattempt %d\t%s\tworst: %s%n",
            jdk,
            c.label(),
            attempt,
            passed ? "passed" : "FAILED",
            worst == null ? "-" : worst.toString().replaceAll("\\s+", " "));
    Files.writeString(
        WORK.resolve("summary.txt"),
        line,
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }
}
