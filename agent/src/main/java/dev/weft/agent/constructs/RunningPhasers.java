package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code Phaser} waits and arrivals in frames that were running when the agent attached (family
 * {@code barriers}): hooks in {@code arriveAndAwaitAdvance}, the {@code awaitAdvance} methods,
 * {@code arrive} and {@code arriveAndDeregister}, which such frames call afresh. Only an attached
 * agent weaves them; the recorder keeps the user's calls that call-site weaving did not see. An
 * arrival's call site records it after the call, so the recorder cannot tell from its own state
 * whether one will: it records an arrival only when the caller's frame does not run woven code.
 */
public final class RunningPhasers extends CalleeHookFamily {
  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          "java/util/concurrent/Phaser",
          Map.of(
              "arriveAndAwaitAdvance()I", RunningFrames.PHASER_ARRIVE_AND_AWAIT,
              "awaitAdvance(I)I", RunningFrames.PHASER_AWAIT_ADVANCE,
              "awaitAdvanceInterruptibly(I)I", RunningFrames.PHASER_AWAIT_ADVANCE,
              "awaitAdvanceInterruptibly(IJLjava/util/concurrent/TimeUnit;)I",
                  RunningFrames.PHASER_AWAIT_ADVANCE,
              "arrive()I", RunningFrames.PHASER_ARRIVE,
              "arriveAndDeregister()I", RunningFrames.PHASER_ARRIVE));

  public RunningPhasers() {
    super(Family.BARRIERS, OPERATIONS, Set.of());
  }
}
