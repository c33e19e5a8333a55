package dev.weft.agentit.apps.parallel;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads started by the application, as {@code Runnable}s and as a subclass of {@code Thread},
 * joined by main; one of them throws.
 */
public final class ThreadsApp {
  static final AtomicInteger RAN = new AtomicInteger();

  /** A thread subclass with its own {@code run()}. */
  static final class Worker extends Thread {
    Worker() {
      super("subclass-worker");
    }

    @Override
    public void run() {
      RAN.incrementAndGet();
    }
  }

  public static void main(String[] args) throws Exception {
    Thread a = new Thread(RAN::incrementAndGet, "runnable-worker");
    Thread b = new Worker();
    Thread c =
        new Thread(
            () -> {
              RAN.incrementAndGet();
              throw new IllegalStateException("expected");
            },
            "failing-worker");
    c.setUncaughtExceptionHandler((t, e) -> RAN.incrementAndGet());
    a.start(); // start site
    b.start();
    c.start();
    a.join(); // join site
    b.join(5_000);
    c.join();
    System.out.println("ran: " + RAN.get());
  }
}
