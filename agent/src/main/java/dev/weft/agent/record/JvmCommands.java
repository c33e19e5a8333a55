package dev.weft.agent.record;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JVM's diagnostic commands (what {@code jcmd PID COMMAND} runs), called in this process.
 *
 * <p>The platform MBean server offers them, but starting it costs about 200 ms; the agent opens
 * {@code com.sun.management.internal} to itself ({@link #open}, at start) and calls the commands'
 * native entry directly (about 10 ms of CPU at the first call, which loads its library). Where the
 * JVM lacks {@code jdk.management} or refuses, {@link #execute} answers why not, and callers go
 * without.
 */
public final class JvmCommands {
  private static final String INTERNAL = "com.sun.management.internal";

  /** Why the commands cannot be run, null while they may be; guarded by the class. */
  private static String unavailable;

  /** The diagnostic command bean and its entry, once found; guarded by the class. */
  private static Object commands;

  private static Method execute;

  private JvmCommands() {}

  /**
   * Opens the commands' package to the agent: one module redefinition, nothing loaded yet. Never
   * throws; the reason it failed is kept for {@link #execute}. (Without it, the commands run only
   * where the JVM was told to open the package, as the agent's unit tests do.)
   */
  public static synchronized void open(Instrumentation inst) {
    if (commands != null || unavailable != null) {
      return;
    }
    try {
      Optional<Module> management = ModuleLayer.boot().findModule("jdk.management");
      if (management.isEmpty()) {
        unavailable = "no jdk.management module";
        return;
      }
      inst.redefineModule(
          management.get(),
          Set.of(),
          Map.of(),
          Map.of(INTERNAL, Set.of(JvmCommands.class.getModule())),
          Set.of(),
          Map.of());
    } catch (Throwable t) {
      unavailable = String.valueOf(t);
    }
  }

  /**
   * Runs one command, as {@code jcmd} would, and returns its output.
   *
   * @throws IllegalStateException with the reason when the JVM offers no commands here
   * @throws Exception what the command threw
   */
  public static String execute(String command) throws Exception {
    Object bean;
    Method entry;
    synchronized (JvmCommands.class) {
      if (commands == null) {
        find();
      }
      bean = commands;
      entry = execute;
    }
    try {
      return String.valueOf(entry.invoke(bean, command));
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      throw cause instanceof Exception ? (Exception) cause : e;
    }
  }

  private static void find() throws ReflectiveOperationException {
    if (unavailable != null) {
      throw new IllegalStateException(unavailable);
    }
    Module m = ModuleLayer.boot().findModule("jdk.management").orElseThrow();
    ClassLoader loader = m.getClassLoader();
    try {
      // Its class initialiser loads the native library the command's entry lives in.
      Class.forName(INTERNAL + ".PlatformMBeanProviderImpl", true, loader);
      Class<?> impl = Class.forName(INTERNAL + ".DiagnosticCommandImpl", true, loader);
      Method beanOf = impl.getDeclaredMethod("getDiagnosticCommandMBean");
      beanOf.setAccessible(true);
      Object bean = beanOf.invoke(null);
      if (bean == null) {
        unavailable = "the JVM offers no diagnostic commands";
        throw new IllegalStateException(unavailable);
      }
      Method entry = impl.getDeclaredMethod("executeDiagnosticCommand", String.class);
      entry.setAccessible(true);
      execute = entry;
      commands = bean;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      if (unavailable == null) {
        unavailable = String.valueOf(e);
      }
      throw e;
    }
  }
}
