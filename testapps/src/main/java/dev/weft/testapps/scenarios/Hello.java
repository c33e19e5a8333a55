package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import java.util.List;

/** The smallest program: prints one line and ends. For agent start-up and shutdown tests. */
public final class Hello implements Scenario {
  /** The line printed. */
  public static final String GREETING = "hello from weft-testapps";

  @Override
  public String name() {
    return "hello";
  }

  @Override
  public String summary() {
    return "prints one line and exits";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of();
  }

  @Override
  public Object run(ScenarioContext context) {
    context.out().println(GREETING);
    return GREETING;
  }
}
