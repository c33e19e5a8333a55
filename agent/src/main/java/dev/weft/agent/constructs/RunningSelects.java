package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * A selector's blocking {@code select} in frames that were running when the agent attached (family
 * {@code network}): hooks in the four {@code select} methods of the JDK's {@code SelectorImpl},
 * which an event loop calls afresh every turn. A server's event loop runs from before the attach,
 * so its class keeps its unwoven code ({@link NetworkWaits} weaves the call sites of the classes it
 * retransforms); without these hooks its idle time counted as execution. Only an attached agent
 * weaves them; the recorder keeps the selects that call-site weaving did not see.
 */
public final class RunningSelects extends CalleeHookFamily {
  private static final String CONSUMER = "Ljava/util/function/Consumer;";

  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          "sun/nio/ch/SelectorImpl",
          Map.of(
              "select()I",
              RunningFrames.SELECT,
              "select(J)I",
              RunningFrames.SELECT,
              "select(" + CONSUMER + ")I",
              RunningFrames.SELECT,
              "select(" + CONSUMER + "J)I",
              RunningFrames.SELECT));

  public RunningSelects() {
    super(Family.NETWORK, OPERATIONS, Set.of());
  }
}
