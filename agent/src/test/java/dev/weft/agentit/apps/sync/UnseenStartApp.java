package dev.weft.agentit.apps.sync;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A thread whose start the agent does not see: {@link Starter} (run with {@code
 * exclude=*UnseenStartApp$Starter}) starts {@code unseen}, which waits WAITS times in {@code
 * Object.wait} and computes for COMPUTE_MS without a recorded event (the starter's code is not
 * woven) and only then takes a lock (its first event) and ends. Its stream begins at that first
 * event; the times and the JVM's counts it records must begin there too, not at its start.
 */
public final class UnseenStartApp {
  public static final long COMPUTE_MS = 400;

  /** Timed waits before its first event, which the JVM counts and the trace cannot show. */
  public static final int WAITS = 5;

  private static volatile long sink;

  public static void main(String[] args) throws Exception {
    // The agent's baseline of the JVM's counts comes first (taken in the background at start,
    // 0.1–0.3 s in): the thread's counts are read at its first event only once it exists.
    Thread.sleep(1000);
    Thread t = Starter.start();
    t.join();
    System.out.println("done");
  }

  /** Not woven: the start it makes and the waits it runs are not recorded. */
  public static final class Starter {
    static Thread start() {
      Thread t = new Thread(Starter::waitThenWork, "unseen");
      t.start();
      return t;
    }

    private static void waitThenWork() {
      Object o = new Object();
      for (int i = 0; i < WAITS; i++) {
        synchronized (o) {
          try {
            o.wait(5);
          } catch (InterruptedException e) {
            return;
          }
        }
      }
      work();
    }
  }

  private static void work() {
    long x = 0;
    for (long end = System.nanoTime() + COMPUTE_MS * 1_000_000; System.nanoTime() < end; ) {
      x = x * 31 + 7;
    }
    sink = x;
    ReentrantLock lock = new ReentrantLock();
    lock.lock();
    try {
      sink++;
    } finally {
      lock.unlock();
    }
  }

  private UnseenStartApp() {}
}
