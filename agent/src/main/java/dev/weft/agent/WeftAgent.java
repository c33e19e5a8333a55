package dev.weft.agent;

import dev.weft.agent.config.AgentOptions;
import dev.weft.agent.config.OptionException;
import dev.weft.agent.record.Messages;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The agent's entry points. {@code premain} (at JVM start, {@code
 * -javaagent:weft-agent.jar=OPTIONS}) and {@code agentmain} (attached to a running JVM) share one
 * start path: read the options, install the bootstrap bridge, then start the {@link AgentRuntime}.
 * Whatever goes wrong, the host program runs on: one line on stderr and the agent stays off.
 *
 * <p>{@code agentmain} is also how {@code weft attach} and {@code weft detach} control a running
 * JVM, by loading the agent again with one of these argument strings:
 *
 * <ul>
 *   <li>{@code reply=FILE,OPTIONS}: start recording with OPTIONS (as for {@code -javaagent}), and
 *       write the outcome to FILE instead of the host's stderr;
 *   <li>{@code reply=FILE,detach} (or {@code detach}): {@link #detach()}.
 * </ul>
 *
 * The reply's first line is the answer: {@code recording DIR}; {@code busy [DIR]} (already
 * recording, nothing changed); {@code off MESSAGE} (the agent did not start); {@code exited DIR}
 * (it started, and the program's end closed the trace at once); {@code detached DIR}; or {@code
 * idle} (nothing was recording). A second line, {@code timings agentmain=T done=T}, says when
 * {@code agentmain} was entered and when it had done what was asked (microseconds since the epoch),
 * for {@code weft attach --timings}. The JVM runs {@code agentmain} to its end before the attaching
 * tool's {@code loadAgent} returns, so the file is complete when the tool reads it.
 */
public final class WeftAgent {
  private static final String REPLY = "reply=";
  private static final String DETACH = "detach";

  /** The trace directory of the recording started here, when it was given with out=; or null. */
  private static Path recording; // guarded by WeftAgent.class

  /** Ends the running recording after its duration (option duration=); or null. */
  private static DurationTimer timer; // guarded by WeftAgent.class

  /**
   * Whether {@link AgentRuntime} may be used: it can only load once the bridge is installed, so
   * before the first start nothing records and nothing is asked of it.
   */
  private static volatile boolean runtimeLoaded;

  private WeftAgent() {}

  /** Entry point for {@code -javaagent}. */
  public static void premain(String args, Instrumentation inst) {
    String problem = start(args, inst, false);
    if (problem != null) {
      Messages.problemOnce(problem);
    }
  }

  /** Entry point for attaching to a running JVM; see the class comment for control arguments. */
  public static void agentmain(String args, Instrumentation inst) {
    long entered = epochMicros();
    try {
      String rest = args == null ? "" : args;
      Path reply = null;
      if (rest.startsWith(REPLY)) {
        int comma = rest.indexOf(',');
        reply = Path.of(rest.substring(REPLY.length(), comma < 0 ? rest.length() : comma));
        rest = comma < 0 ? "" : rest.substring(comma + 1);
      }
      String outcome;
      if (rest.equals(DETACH)) {
        Path dir = detach();
        outcome = dir == null ? "idle" : "detached " + dir;
      } else {
        outcome = startAttached(rest, inst);
      }
      if (reply != null) {
        String timings = "timings agentmain=" + entered + " done=" + epochMicros();
        Files.write(reply, (outcome + "\n" + timings + "\n").getBytes(StandardCharsets.UTF_8));
      } else if (outcome.startsWith("off ")) {
        Messages.problemOnce(outcome.substring(4));
      }
    } catch (Throwable t) {
      Messages.problemOnce("could not run agentmain (" + t + ")");
    }
  }

  /**
   * Stops recording, closes the trace and restores the original bytecode of every class the agent
   * changed. Safe to call when the agent is not running.
   *
   * @return the directory of the closed trace, or null when nothing was recording
   */
  public static Path detach() {
    synchronized (WeftAgent.class) {
      if (timer != null) {
        timer.cancel();
        timer = null;
      }
      recording = null;
      return runtimeLoaded ? AgentRuntime.detach() : null;
    }
  }

  /** True while the agent records into a trace. */
  public static boolean isActive() {
    return runtimeLoaded && AgentRuntime.isActive();
  }

  /** Starts recording in a running JVM, unless it records already; returns the reply line. */
  private static String startAttached(String args, Instrumentation inst) {
    synchronized (WeftAgent.class) {
      if (isActive()) {
        return "busy" + (recording == null ? "" : " " + recording);
      }
      String problem = start(args, inst, true);
      if (problem != null) {
        return "off " + problem;
      }
      if (!isActive()) {
        Path closed = runtimeLoaded ? AgentRuntime.closedByExit() : null;
        if (closed != null) {
          return "exited " + closed; // the program ended as the recording started
        }
        return "off the agent did not start (the target's stderr says why)";
      }
      return "recording" + (recording == null ? "" : " " + recording);
    }
  }

  /** The start path of premain and agentmain; returns a problem line, or null when started. */
  private static String start(String args, Instrumentation inst, boolean attached) {
    DurationTimer pending = null;
    try {
      AgentOptions options;
      try {
        options = AgentOptions.parse(args, properties(), System.getenv());
      } catch (OptionException e) {
        return e.getMessage() + "; the agent is off";
      }
      try {
        BridgeInstaller.install(inst);
      } catch (Throwable t) {
        return "cannot install the bootstrap bridge (" + t + "); the agent is off";
      }
      if (options.durationMillis() > 0) {
        // Started before recording starts, so that its own start is not in the trace.
        pending = new DurationTimer();
        Thread t = new Thread(pending, "weft-duration");
        t.setDaemon(true);
        t.start();
      }
      // Only now may AgentRuntime load: verifying it loads classes that extend the bridge's.
      runtimeLoaded = true;
      AgentRuntime.start(options, inst, attached); // no-op when attached twice
      synchronized (WeftAgent.class) {
        if (AgentRuntime.isActive()) {
          recording = options.out() == null ? null : options.out().toAbsolutePath();
          if (pending != null) {
            timer = pending;
            pending.begin(options.durationMillis());
            pending = null;
          }
        }
      }
      return null;
    } catch (Throwable t) {
      return "could not start (" + t + "); the agent is off";
    } finally {
      if (pending != null) {
        pending.cancel();
      }
    }
  }

  private static long epochMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
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

  /**
   * Detaches the agent when the recording's duration is over, unless it was detached before. Waits
   * on its own monitor: the agent's classes are never woven, so the wait is not in the trace.
   */
  private static final class DurationTimer implements Runnable {
    private long deadline; // System.nanoTime(); 0 until the recording has started
    private boolean cancelled;

    synchronized void begin(long millis) {
      deadline = Math.max(1, System.nanoTime() + millis * 1_000_000L);
      notifyAll();
    }

    synchronized void cancel() {
      cancelled = true;
      notifyAll();
    }

    @Override
    public void run() {
      try {
        synchronized (this) {
          while (!cancelled) {
            long left = deadline == 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
            if (left <= 0) {
              break;
            }
            wait(deadline == 0 ? 0 : Math.max(1, left / 1_000_000L));
          }
          if (cancelled) {
            return;
          }
        }
        synchronized (WeftAgent.class) {
          if (timer == this) {
            detach();
          }
        }
      } catch (InterruptedException e) {
        // The JVM is going away; the shutdown hook closes the trace.
      } catch (Throwable t) {
        Messages.problemOnce("could not detach after the duration (" + t + ")");
      }
    }
  }
}
