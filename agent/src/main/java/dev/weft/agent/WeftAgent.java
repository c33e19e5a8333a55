package dev.weft.agent;

import dev.weft.agent.config.AgentOptions;
import dev.weft.agent.config.OptionException;
import dev.weft.agent.record.Messages;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The agent's entry points. {@code premain} (at JVM start, {@code
 * -javaagent:weft-agent.jar=OPTIONS}) and {@code agentmain} (attached to a running JVM) share one
 * start path: read the options, install the bootstrap bridge, then start the {@link AgentRuntime}.
 * Whatever goes wrong, the host program runs on: one line on stderr and the agent stays off.
 */
public final class WeftAgent {
  private WeftAgent() {}

  /** Entry point for {@code -javaagent}. */
  public static void premain(String args, Instrumentation inst) {
    start(args, inst, false);
  }

  /** Entry point for attaching to a running JVM. */
  public static void agentmain(String args, Instrumentation inst) {
    start(args, inst, true);
  }

  /**
   * Stops recording, closes the trace and restores the original bytecode of every class the agent
   * changed. Safe to call when the agent is not running.
   *
   * @return the directory of the closed trace, or null when nothing was recording
   */
  public static Path detach() {
    return AgentRuntime.detach();
  }

  /** True while the agent records into a trace. Call only after the agent has started. */
  public static boolean isActive() {
    return AgentRuntime.isActive();
  }

  private static void start(String args, Instrumentation inst, boolean attached) {
    try {
      AgentOptions options;
      try {
        options = AgentOptions.parse(args, properties(), System.getenv());
      } catch (OptionException e) {
        Messages.problemOnce(e.getMessage() + "; the agent is off");
        return;
      }
      try {
        BridgeInstaller.install(inst);
      } catch (Throwable t) {
        Messages.problemOnce("cannot install the bootstrap bridge (" + t + "); the agent is off");
        return;
      }
      // Only now may AgentRuntime load: verifying it loads classes that extend the bridge's.
      AgentRuntime.start(options, inst, attached); // no-op when attached twice
    } catch (Throwable t) {
      Messages.problemOnce("could not start (" + t + "); the agent is off");
    }
  }

  /** The {@code weft.*} system properties (read only; the agent never sets any). */
  private static Map<String, String> properties() {
    Map<String, String> out = new HashMap<>();
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith("weft.")) {
        out.put(name, System.getProperty(name));
      }
    }
    return out;
  }
}
