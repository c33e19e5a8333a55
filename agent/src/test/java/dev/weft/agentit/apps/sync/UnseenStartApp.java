package dev.weft.agentit.apps.sync;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A thread whose start the agent does not see: {@link Starter} (run with {@code
 * exclude=*UnseenStartApp$Starter}) starts {@code unseen}, which computes for COMPUTE_MS without a
 * recorded event and only then takes a lock (its first event) and ends. Its stream begins at that
 * first event; the times it records must begin there too, not at its start.
 */
public final class UnseenStartApp {
  public static final long COMPUTE_MS = 400;

  private static volatile long sink;

  public static void main(String[] args) throws Exception {
    Thread t = Starter.start();
    t.join();
    System.out.println("done");
  }

  /** Not woven: the start it makes is not recorded. */
  public static final class Starter {
    static Thread start() {
      Thread t = new Thread(UnseenStartApp::work, "unseen");
      t.start();
      return t;
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
