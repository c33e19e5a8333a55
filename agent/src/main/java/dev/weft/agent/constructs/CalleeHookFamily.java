package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import java.util.Map;
import java.util.Set;

/**
 * A family of {@link CalleeHooks} for frames that were running when the agent attached: the JDK
 * methods it hooks, per class, and which of their operations get an entry hook only. Only an
 * attached agent weaves them; the {@code Running*} families are this class with their data.
 */
abstract class CalleeHookFamily implements ConstructInstrumentation {
  private final Family family;
  private final Map<String, Map<String, Integer>> operations;
  private final Set<Integer> entryOnly;
  private final Map<Integer, Integer> targetSlots;

  /**
   * @param operations per internal class name, {@code name + descriptor} of each hooked method to
   *     its operation code ({@code RunningFrames})
   * @param entryOnly operations hooked at their entry only
   */
  CalleeHookFamily(
      Family family, Map<String, Map<String, Integer>> operations, Set<Integer> entryOnly) {
    this(family, operations, entryOnly, Map.of());
  }

  /**
   * @param targetSlots per operation, the local slot (an argument) whose value the hook reports
   *     instead of {@code this}
   */
  CalleeHookFamily(
      Family family,
      Map<String, Map<String, Integer>> operations,
      Set<Integer> entryOnly,
      Map<Integer, Integer> targetSlots) {
    this.family = family;
    this.operations = operations;
    this.entryOnly = entryOnly;
    this.targetSlots = targetSlots;
  }

  @Override
  public final Family family() {
    return family;
  }

  @Override
  public final Set<String> jdkClasses() {
    return CalleeHooks.whenAttached(operations.keySet());
  }

  @Override
  public final byte[] transformJdkClass(WeaveTarget target) {
    return CalleeHooks.weave(target, operations.get(target.internalName()), entryOnly, targetSlots);
  }
}
