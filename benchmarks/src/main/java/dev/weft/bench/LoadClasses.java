package dev.weft.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads, without initialising, every class of the jars named, then prints what that cost: CPU ns of
 * the loading thread, of the JIT's compiler threads and of the process (benchmarks/weave-cost.sh
 * runs it plain, with the agent and with JFR).
 */
public final class LoadClasses {
  private LoadClasses() {}

  public static void main(String[] jars) throws Exception {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long jit0 = ThreadCpu.jit();
    long process0 = os.getProcessCpuTime();
    long own0 = threads.getCurrentThreadCpuTime();
    int loaded = 0;
    for (String jar : jars) {
      ClassLoader loader = new URLClassLoader(new URL[] {Path.of(jar).toUri().toURL()}, null);
      try (JarFile j = new JarFile(jar)) {
        for (JarEntry e : (Iterable<JarEntry>) j.stream()::iterator) {
          String n = e.getName();
          if (!n.endsWith(".class")
              || n.startsWith("META-INF/")
              || n.endsWith("module-info.class")) {
            continue;
          }
          try {
            Class.forName(n.substring(0, n.length() - 6).replace('/', '.'), false, loader);
            loaded++;
          } catch (LinkageError | ClassNotFoundException optionalDependency) {
            // a class whose supertype lives in a jar not named: not loaded, with or without agent
          }
        }
      }
    }
    long own = threads.getCurrentThreadCpuTime() - own0;
    long process = os.getProcessCpuTime() - process0;
    System.out.println("classes " + loaded);
    System.out.println("loading " + own);
    System.out.println("jit " + (ThreadCpu.jit() - jit0));
    System.out.println("process " + process);
  }
}
