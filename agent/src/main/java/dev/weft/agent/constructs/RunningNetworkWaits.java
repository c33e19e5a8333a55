package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * A selector's blocking {@code select} and a server socket's {@code accept} in frames that were
 * running when the agent attached (family {@code network}): hooks in the four {@code select}
 * methods of the JDK's {@code SelectorImpl}, in {@code ServerSocket.accept} and in {@code
 * ServerSocketChannelImpl.accept}, which an event loop or a listener calls afresh every turn. A
 * server's loops run from before the attach, so their classes keep their unwoven code ({@link
 * NetworkWaits} weaves the call sites of the classes it retransforms); without these hooks their
 * idle time counted as execution. Only an attached agent weaves them; the recorder keeps the calls
 * that call-site weaving did not see.
 */
public final class RunningNetworkWaits extends CalleeHookFamily {
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
              RunningFrames.SELECT),
          "java/net/ServerSocket",
          Map.of("accept()Ljava/net/Socket;", RunningFrames.ACCEPT),
          "sun/nio/ch/ServerSocketChannelImpl",
          Map.of("accept()Ljava/nio/channels/SocketChannel;", RunningFrames.ACCEPT));

  public RunningNetworkWaits() {
    super(Family.NETWORK, OPERATIONS, Set.of());
  }
}
