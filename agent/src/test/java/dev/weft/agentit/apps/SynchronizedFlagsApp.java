package dev.weft.agentit.apps;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;

/**
 * An application that looks at its own {@code synchronized} methods by reflection while it uses
 * them: what it prints must not depend on the agent, which rewrites those methods to time their
 * monitor waits.
 */
public final class SynchronizedFlagsApp {
  private int count;
  private static int total;

  public synchronized void increment() {
    count++;
  }

  static synchronized void addToTotal(int n) {
    total += n;
  }

  public void plain() {
    count--;
  }

  public static void main(String[] args) throws Exception {
    SynchronizedFlagsApp app = new SynchronizedFlagsApp();
    Thread other =
        new Thread(
            () -> {
              for (int i = 0; i < 1000; i++) {
                app.increment();
              }
            });
    other.start();
    for (int i = 0; i < 1000; i++) {
      app.increment();
      addToTotal(1);
    }
    other.join();
    Method[] declared = SynchronizedFlagsApp.class.getDeclaredMethods();
    Arrays.sort(declared, Comparator.comparing(Method::toString));
    for (Method m : declared) {
      System.out.println(m + " synchronized=" + Modifier.isSynchronized(m.getModifiers()));
    }
    Method viaGetMethod = SynchronizedFlagsApp.class.getMethod("increment");
    System.out.println("getMethod: " + Modifier.toString(viaGetMethod.getModifiers()));
    System.out.println("count " + app.count + " total " + total);
  }
}
