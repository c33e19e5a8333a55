package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code Thread.start()} in frames that were running when the agent attached (family {@code
 * threads}): a hook at the entry of {@code Thread.start()}, which such frames call afresh. Without
 * it a thread they start has no recorded start, so neither its begin nor its end is recorded (it
 * counts as alive from its first event to its exit) and the critical path does not follow the
 * start. Only an attached agent weaves it; starts at woven call sites are recorded there.
 */
public final class RunningThreadStarts extends CalleeHookFamily {
  private static final String THREAD = "java/lang/Thread";

  private static final Map<String, Integer> OPERATIONS =
      Map.of("start()V", RunningFrames.THREAD_START);

  public RunningThreadStarts() {
    super(Family.THREADS, Map.of(THREAD, OPERATIONS), Set.of(RunningFrames.THREAD_START));
  }
}
