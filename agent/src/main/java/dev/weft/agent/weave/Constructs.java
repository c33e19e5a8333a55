package dev.weft.agent.weave;

import dev.weft.agent.constructs.CompletableFutures;
import dev.weft.agent.constructs.ExecutorSites;
import dev.weft.agent.constructs.ExecutorTasks;
import dev.weft.agent.constructs.ForkJoinSites;
import dev.weft.agent.constructs.ForkJoinTasks;
import dev.weft.agent.constructs.FutureSites;
import dev.weft.agent.constructs.ParallelStreams;
import dev.weft.agent.constructs.ThreadJoins;
import dev.weft.agent.constructs.Threads;
import dev.weft.agent.constructs.UserRegions;
import dev.weft.agent.constructs.VirtualThreads;
import java.util.List;

/** The registry of construct instrumentations: one line per family. */
public final class Constructs {
  private Constructs() {}

  /** Every instrumentation the agent knows; {@code constructs=} selects among them by family. */
  public static List<ConstructInstrumentation> all() {
    return List.of(
        new UserRegions(),
        new ForkJoinTasks(),
        new ForkJoinSites(),
        new ParallelStreams(),
        new ExecutorTasks(),
        new ExecutorSites(),
        new CompletableFutures(),
        new FutureSites(),
        new ThreadJoins(),
        new Threads(),
        new VirtualThreads()
        // One line per family, e.g. new ForkJoinTasks(), new Monitors(), new ReentrantLocks()
        );
  }
}
