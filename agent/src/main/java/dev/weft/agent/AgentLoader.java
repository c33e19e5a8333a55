package dev.weft.agent;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * The class the JVM starts the agent with ({@code Premain-Class} and {@code Agent-Class}). It loads
 * the rest of the agent in a class loader of its own and hands over to {@link WeftAgent} there.
 *
 * <p>Why: the JVM loads an agent's main class with the application class loader, whose unnamed
 * module the application's class path shares. The agent opens {@code java.lang} and the {@code
 * java.util.concurrent} packages to its own module; loaded there, it would open them to the
 * application too, and code on the class path could reflect into them without {@code --add-opens}.
 * In a loader of its own, the agent's module is that loader's unnamed module, which no application
 * class is in. The loader's parent is the platform class loader, so the agent sees the JDK (and the
 * bridge classes it defines in {@code java.base}) and nothing of the application.
 *
 * <p>This class refers to no other agent class, so the application class loader defines only it.
 */
public final class AgentLoader {
  private static final String AGENT = "dev.weft.agent.WeftAgent";

  /** The agent's loader, made at the first start and kept for later attach and detach calls. */
  private static ClassLoader loader; // guarded by AgentLoader.class

  private AgentLoader() {}

  /** Entry point for {@code -javaagent}. */
  public static void premain(String args, Instrumentation inst) {
    handOver("premain", args, inst);
  }

  /** Entry point for attaching to a running JVM, and for {@code weft attach}'s control calls. */
  public static void agentmain(String args, Instrumentation inst) {
    handOver("agentmain", args, inst);
  }

  /**
   * Stops the recording, closes the trace and restores every class the agent changed, as {@code
   * weft detach} does; for a program that ends its own recording. Safe to call when the agent is
   * not running.
   *
   * @return the closed trace's directory, or null when nothing was recording
   */
  public static Object detach() {
    synchronized (AgentLoader.class) {
      if (loader == null) {
        return null;
      }
    }
    try {
      return agentLoader().loadClass(AGENT).getMethod("detach").invoke(null);
    } catch (ReflectiveOperationException e) {
      System.err.println("weft: could not detach (" + e + ")");
      return null;
    }
  }

  private static void handOver(String entry, String args, Instrumentation inst) {
    try {
      Method m =
          agentLoader().loadClass(AGENT).getMethod(entry, String.class, Instrumentation.class);
      m.invoke(null, args, inst);
    } catch (InvocationTargetException e) {
      // WeftAgent reports its own problems; anything escaping it still must not reach the host.
      System.err.println(
          "weft: the agent could not start (" + e.getCause() + "); the agent is off");
    } catch (Throwable t) {
      System.err.println("weft: the agent could not be loaded (" + t + "); the agent is off");
    }
  }

  private static synchronized ClassLoader agentLoader() {
    if (loader == null) {
      URL jar = AgentLoader.class.getProtectionDomain().getCodeSource().getLocation();
      loader =
          new URLClassLoader("weft-agent", new URL[] {jar}, ClassLoader.getPlatformClassLoader());
    }
    return loader;
  }
}
