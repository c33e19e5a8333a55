package dev.weft.testapps;

import java.util.List;

/**
 * A program with known wait states. Implementations live in {@code dev.weft.testapps.scenarios},
 * one class each, and are listed in {@link Scenarios}.
 *
 * <p>A scenario wraps every blocking call it makes in its own {@link System#nanoTime()} pair and
 * records the result in {@link ScenarioContext#truth()}; it returns a result that depends only on
 * its options, never on timing, so that stdout is identical across runs and with or without an
 * agent.
 */
public interface Scenario {
  /** The name typed on the command line, e.g. {@code barrier-imbalance}. */
  String name();

  /** One line for {@code --help}. */
  String summary();

  /** The scenario's own options (the common {@code --cpu} and {@code --spin-per-ms} excluded). */
  List<OptionSpec> options();

  /**
   * Runs the scenario. Every thread it starts must have ended (or its pool terminated) on return.
   *
   * @return the deterministic result: a number, a string, or a map of them
   */
  Object run(ScenarioContext context) throws Exception;
}
