package dev.weft.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** This JVM runs without the agent: budgeted tests fail with one line saying how to add it. */
class WeftBudgetWithoutAgentTest {
  static final AtomicInteger bodiesRun = new AtomicInteger();

  static class Budgeted {
    @Test
    @WeftBudget("barrier_wait=5%")
    void budgeted() {
      bodiesRun.incrementAndGet();
    }

    @Test
    @WeftBudget("barier_wait=5%")
    void misspelt() {
      bodiesRun.incrementAndGet();
    }

    @Test
    void unbudgeted() {
      bodiesRun.incrementAndGet();
    }
  }

  @WeftBudget("lock_contention=1%")
  static class BudgetedClass {
    @Test
    void inherits() {
      bodiesRun.incrementAndGet();
    }
  }

  private static List<String> run(Class<?> testClass) {
    List<String> outcomes = new ArrayList<>();
    Launcher launcher = LauncherFactory.create();
    launcher.execute(
        LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (id.isTest()) {
              outcomes.add(
                  id.getDisplayName()
                      + " "
                      + result.getStatus()
                      + result.getThrowable().map(t -> ": " + t.getMessage()).orElse(""));
            }
          }
        });
    outcomes.sort(null);
    return outcomes;
  }

  @Test
  void aBudgetedTestFailsWithOneLineSayingHowToAddTheAgent() {
    bodiesRun.set(0);
    List<String> outcomes = run(Budgeted.class);
    assertEquals(3, outcomes.size(), outcomes.toString());
    assertEquals("budgeted() FAILED: " + WeftBudgetExtension.NO_AGENT, outcomes.get(0));
    assertTrue(
        outcomes
            .get(1)
            .startsWith(
                "misspelt() FAILED: unknown property 'barier_wait' in @WeftBudget (properties:"),
        outcomes.get(1));
    assertEquals("unbudgeted() SUCCESSFUL", outcomes.get(2));
    assertEquals(1, bodiesRun.get(), "only the unbudgeted test's body runs");
    assertTrue(WeftBudgetExtension.NO_AGENT.lines().count() == 1);
  }

  @Test
  void aBudgetOnTheClassAppliesToItsTests() {
    assertEquals(
        List.of("inherits() FAILED: " + WeftBudgetExtension.NO_AGENT), run(BudgetedClass.class));
  }

  @Test
  void theTraceDirectoryComesFromTheAgentOption() {
    assertEquals(
        "/p/target/weft-traces/1",
        AgentTrace.fromAgentArgs(
            List.of(
                "-Xmx1g",
                "-javaagent:/m2/dev/weft/weft-agent/0.1/weft-agent-0.1.jar=out=/p/target/weft-traces/1,"
                    + "include=com.acme.*")));
    assertEquals(
        "/a b/t",
        AgentTrace.fromAgentArgs(
            List.of("\"-javaagent:/a b/weft-agent.jar=include=x.*,out=/a b/t\"")));
    assertEquals(
        null, AgentTrace.fromAgentArgs(List.of("-javaagent:/other/jacoco.jar=destfile=x")));
  }
}
