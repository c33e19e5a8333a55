package dev.weft.agent.weave;

import dev.weft.agent.constructs.UserRegions;
import java.util.List;

/** The registry of construct instrumentations: one line per family. */
public final class Constructs {
  private Constructs() {}

  /** Every instrumentation the agent knows; {@code constructs=} selects among them by family. */
  public static List<ConstructInstrumentation> all() {
    return List.of(
        new UserRegions()
        // One line per family, e.g. new ForkJoinTasks(), new Monitors(), new ReentrantLocks()
        );
  }
}
