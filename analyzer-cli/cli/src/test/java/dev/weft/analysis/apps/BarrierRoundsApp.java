package dev.weft.analysis.apps;

import java.util.concurrent.CyclicBarrier;

/**
 * Runs until it is killed: three workers meet at a {@link CyclicBarrier} round after round (each
 * works a different time in between, then bumps a shared counter under a monitor), while main waits
 * for them in {@link Thread#join} from the start. Says {@code ready} once the workers run.
 */
public final class BarrierRoundsApp {
  private static final Object LOCK = new Object();
  private static long counter;

  private BarrierRoundsApp() {}

  public static void main(String[] args) throws Exception {
    int n = 3;
    CyclicBarrier barrier = new CyclicBarrier(n);
    Thread[] workers = new Thread[n];
    for (int i = 0; i < n; i++) {
      long workNanos = (i + 1) * 200_000L;
      workers[i] =
          new Thread(
              () -> {
                try {
                  while (true) {
                    spin(workNanos);
                    synchronized (LOCK) {
                      counter++;
                    }
                    barrier.await();
                  }
                } catch (Exception e) {
                  // interrupted or broken: end
                }
              },
              "worker-" + i);
      workers[i].start();
    }
    System.out.println("ready");
    System.out.flush();
    for (Thread w : workers) {
      w.join();
    }
  }

  /** Computes for about {@code nanos} (a plain loop: not a spin wait). */
  private static void spin(long nanos) {
    long end = System.nanoTime() + nanos;
    long x = 0;
    while (System.nanoTime() < end) {
      x += x * 31 + 7;
    }
    if (x == 42) {
      System.out.print("");
    }
  }
}
