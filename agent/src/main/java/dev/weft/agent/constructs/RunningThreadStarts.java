package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import java.util.Map;
import java.util.Set;

/**
 * {@code Thread.start()} in frames that were running when the agent attached (family {@code
 * threads}): a hook at the entry of {@code Thread.start()}, which such frames call afresh. Without
 * it a thread they start has no recorded start, so neither its begin nor its end is recorded (it
 * counts as alive from its first event to its exit) and the critical path does not follow the
 * start. Only an attached agent weaves it; starts at woven call sites are recorded there.
 */
public final class RunningThreadStarts implements ConstructInstrumentation {
  private static final String THREAD = "java/lang/Thread";

  private static final Map<String, Integer> OPERATIONS =
      Map.of("start()V", RunningFrames.THREAD_START);

  @Override
  public Family family() {
    return Family.THREADS;
  }

  @Override
  public Set<String> jdkClasses() {
    return CalleeHooks.whenAttached(Set.of(THREAD));
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    return CalleeHooks.weave(target, OPERATIONS, Set.of(RunningFrames.THREAD_START));
  }
}
