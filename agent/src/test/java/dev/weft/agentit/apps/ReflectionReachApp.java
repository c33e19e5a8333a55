package dev.weft.agentit.apps;

import java.lang.reflect.Field;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An application on the class path that tries to reach private fields of the packages the agent
 * opens to itself. It must be refused exactly as without the agent: the opens are the agent's own.
 */
public final class ReflectionReachApp {
  private ReflectionReachApp() {}

  public static void main(String[] args) {
    ReentrantLock lock = new ReentrantLock();
    lock.lock(); // something for the agent to record
    lock.unlock();
    reach(ReentrantLock.class, "sync");
    reach(CyclicBarrier.class, "generation");
    reach(String.class, "value");
  }

  private static void reach(Class<?> owner, String name) {
    String outcome;
    try {
      Field f = owner.getDeclaredField(name);
      f.setAccessible(true);
      outcome = "allowed";
    } catch (RuntimeException | NoSuchFieldException e) {
      outcome = "refused (" + e.getClass().getSimpleName() + ")";
    }
    System.out.println(owner.getSimpleName() + "." + name + ": " + outcome);
  }
}
