package dev.weft.junit;

import dev.weft.api.Region;
import dev.weft.api.Weft;
import dev.weft.check.AnalysisFile;
import dev.weft.check.AnalysisWindow;
import dev.weft.check.Budgets;
import dev.weft.check.Check;
import dev.weft.check.CheckInputException;
import dev.weft.check.CheckResult;
import dev.weft.check.Verdict;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Runs a {@link WeftBudget} test: analyses the trace the agent is recording just before and just
 * after the test method (inside a user region named after the test), and fails the test when the
 * difference, the test's own time window, exceeds a budget.
 */
public final class WeftBudgetExtension implements InvocationInterceptor {
  /** The one line a test gets when the agent is not there. */
  static final String NO_AGENT =
      "@WeftBudget needs the Weft agent on the test JVM: add the weft-maven-plugin's prepare-agent"
          + " goal to the build (or -javaagent:weft-agent.jar to the test JVM's arguments)";

  @Override
  public void interceptTestMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext,
      ExtensionContext context)
      throws Throwable {
    Map<String, Double> budgets;
    try {
      budgets = budgets(context);
    } catch (CheckInputException e) {
      invocation.skip();
      throw new AssertionError(e.getMessage(), null);
    }
    Optional<Path> trace = AgentTrace.find();
    if (trace.isEmpty()) {
      invocation.skip();
      throw new AssertionError(NO_AGENT, null);
    }
    AnalysisFile before = analyse(trace.get());
    try (Region r = Weft.region("test " + context.getDisplayName())) {
      invocation.proceed();
    }
    AnalysisFile after = analyse(trace.get());
    AnalysisFile window = AnalysisWindow.between(before, after, context.getUniqueId());
    CheckResult result =
        Check.run(List.of(window), List.of(), Check.Settings.defaults().withBudgets(budgets));
    List<Verdict> failed = result.failures();
    if (!failed.isEmpty()) {
      throw new AssertionError(
          "over budget while "
              + context.getDisplayName()
              + " ran: "
              + failed.stream().map(Verdict::message).collect(Collectors.joining("; ")),
          null);
    }
  }

  /** The class's budgets, then the method's (which win for the same property). */
  private static Map<String, Double> budgets(ExtensionContext context) {
    Map<String, Double> budgets = new LinkedHashMap<>();
    List<AnnotatedElement> sources = new ArrayList<>();
    context.getTestClass().ifPresent(sources::add);
    context.getTestMethod().ifPresent(sources::add);
    for (AnnotatedElement e : sources) {
      WeftBudget b = e.getAnnotation(WeftBudget.class);
      if (b != null) {
        budgets.putAll(Budgets.parse(List.of(b.value()), "@WeftBudget"));
      }
    }
    if (budgets.isEmpty()) {
      throw new CheckInputException("@WeftBudget: no budget given, e.g. \"barrier_wait=5%\"");
    }
    return budgets;
  }

  private static AnalysisFile analyse(Path trace) {
    try {
      return AnalysisWindow.analyseLive(trace);
    } catch (RuntimeException e) {
      throw new AssertionError(
          "@WeftBudget: cannot analyse the trace being recorded in "
              + trace
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
