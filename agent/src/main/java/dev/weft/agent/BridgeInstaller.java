package dev.weft.agent;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Makes the bridge classes visible to the bootstrap loader, so that advice inlined into JDK classes
 * and call sites woven into any application class can call them.
 *
 * <p>In the shaded jar the bridge package is relocated to {@code java.lang}. The installer opens
 * {@code java.lang} to the agent with {@link Instrumentation#redefineModule} and defines the
 * classes inside {@code java.base} through a private lookup on {@code Object}. It also opens {@code
 * java.util.concurrent} and {@code java.util.concurrent.locks}, whose private fields the recorder
 * reads to identify locks and barrier generations. Unlike appending a jar to the bootstrap class
 * path, this leaves class data sharing alone and prints nothing.
 *
 * <p><b>Important:</b> nothing may load a class that refers to the bridge (the recorder, the
 * transformer) before {@link #install} has returned.
 */
final class BridgeInstaller {
  // Relocated by the shaded build together with the classes they name.
  private static final String SINK = "dev.weft.agent.bridge.WeftSink";
  private static final String BRIDGE = "dev.weft.agent.bridge.WeftBridge";
  private static final String CALLEE_BRIDGE = "dev.weft.agent.bridge.WeftCalleeBridge";
  private static final String REFLECTION = "dev.weft.agent.bridge.WeftReflection";

  private BridgeInstaller() {}

  /**
   * Defines the bridge in {@code java.base} unless it is there already (a second attach).
   *
   * @throws Exception when the bridge cannot be installed; the agent then stays off
   */
  static void install(Instrumentation inst) throws Exception {
    if (!SINK.startsWith("java.lang.")) {
      return; // unshaded classes (the agent's own unit tests): the bridge is an ordinary class
    }
    if (isDefined(BRIDGE)) {
      return;
    }
    Module base = Object.class.getModule();
    Module agent = BridgeInstaller.class.getModule();
    // java.lang to define the bridge; the j.u.c packages for the recorder to read which lock a
    // condition or a read lock belongs to, and a CyclicBarrier's generation (LockObjects,
    // BarrierObjects).
    inst.redefineModule(
        base,
        Set.of(),
        Map.of(),
        Map.of(
            "java.lang", Set.of(agent),
            "java.util.concurrent", Set.of(agent),
            "java.util.concurrent.locks", Set.of(agent)),
        Set.of(),
        Map.of());
    MethodHandles.Lookup inJavaLang =
        MethodHandles.privateLookupIn(Object.class, MethodHandles.lookup());
    try (JarFile jar = new JarFile(agentJar().toFile())) {
      // The sink first: the bridge refers to it.
      inJavaLang.defineClass(read(jar, SINK));
      inJavaLang.defineClass(read(jar, BRIDGE));
      inJavaLang.defineClass(read(jar, CALLEE_BRIDGE));
      inJavaLang.defineClass(read(jar, REFLECTION));
    }
  }

  private static boolean isDefined(String name) {
    try {
      Class.forName(name, false, null);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  private static Path agentJar() throws URISyntaxException {
    return Path.of(
        BridgeInstaller.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static byte[] read(JarFile jar, String className) throws IOException {
    ZipEntry e = jar.getEntry(className.replace('.', '/') + ".class");
    if (e == null) {
      throw new IOException("agent jar lacks " + className);
    }
    try (InputStream in = jar.getInputStream(e)) {
      return in.readAllBytes();
    }
  }
}
