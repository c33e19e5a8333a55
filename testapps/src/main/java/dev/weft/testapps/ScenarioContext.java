package dev.weft.testapps;

import java.io.PrintStream;

/** What a scenario gets to run with. Immutable. */
public final class ScenarioContext {
  private final Options options;
  private final Truth truth;
  private final Work work;
  private final PrintStream out;

  /** A context with the given options, a fresh truth recorder and work made from the options. */
  public ScenarioContext(Options options, PrintStream out) {
    this.options = options;
    this.truth = new Truth();
    this.work = Work.of(options);
    this.out = out;
  }

  /** The parsed options. */
  public Options options() {
    return options;
  }

  /** Where the scenario records what it measured. */
  public Truth truth() {
    return truth;
  }

  /** Sleep or spin work, as chosen by {@code --cpu}. */
  public Work work() {
    return work;
  }

  /**
   * Standard output, for deterministic lines only (no timings): the truth line must stay the last
   * line, and everything else must be identical across runs.
   */
  public PrintStream out() {
    return out;
  }
}
