package dev.weft.cli.fuzz;

import dev.weft.api.Region;
import dev.weft.api.Weft;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.LongStream;

/**
 * The program the fuzz test records, in a child JVM under the agent: four workers meet at a {@link
 * CyclicBarrier} every round, take a contended {@link ReentrantLock} and a contended {@code
 * synchronized} block inside a user region, while the main thread sums a parallel stream; then the
 * main thread joins them. A few thousand events in well under a second.
 *
 * <p>With the argument {@code hang} it then leaves threads waiting for ever (two at a barrier that
 * never trips, one holding the lock, one requesting it), prints {@code ready} and sleeps until it
 * is killed: the test's cut trace.
 */
public final class FuzzApp {
  private static final int WORKERS = 4;
  private static final int ROUNDS = 80;
  private static final ReentrantLock LOCK = new ReentrantLock();
  private static final Object MONITOR = new Object();
  private static long shared;

  private FuzzApp() {}

  public static void main(String[] args) throws Exception {
    boolean hang = args.length > 0 && args[0].equals("hang");
    CyclicBarrier barrier = new CyclicBarrier(WORKERS);
    Thread[] workers = new Thread[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
      workers[i] = new Thread(() -> work(barrier), "fuzz-worker-" + i);
      workers[i].start();
    }
    long sum = LongStream.range(0, 40_000).parallel().map(x -> x * 3 % 7).sum();
    for (Thread t : workers) {
      t.join();
    }
    if (hang) {
      stayOpen();
    }
    System.out.println("done " + sum + " " + shared);
  }

  private static void work(CyclicBarrier barrier) {
    try {
      for (int r = 0; r < ROUNDS; r++) {
        try (Region region = Weft.region("round")) {
          spin(2_000 + 500 * r);
          LOCK.lock();
          try {
            shared++;
            spin(1_000);
          } finally {
            LOCK.unlock();
          }
          synchronized (MONITOR) {
            shared += 2;
            spin(1_000);
          }
          barrier.await();
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Threads left in open waits, then {@code ready} on stdout and a sleep until killed. */
  private static void stayOpen() throws InterruptedException {
    CyclicBarrier never = new CyclicBarrier(3);
    CountDownLatch held = new CountDownLatch(1);
    for (int i = 0; i < 2; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  never.await();
                } catch (Exception e) {
                  // killed before this can happen
                }
              },
              "fuzz-stuck-" + i);
      t.setDaemon(true);
      t.start();
    }
    Thread holder =
        new Thread(
            () -> {
              LOCK.lock();
              held.countDown();
              sleepForever();
            },
            "fuzz-holder");
    holder.setDaemon(true);
    holder.start();
    held.await();
    Thread requester = new Thread(LOCK::lock, "fuzz-requester");
    requester.setDaemon(true);
    requester.start();
    Thread.sleep(100);
    System.out.println("ready");
    System.out.flush();
    sleepForever();
  }

  private static void sleepForever() {
    try {
      Thread.sleep(Long.MAX_VALUE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Busy work of roughly {@code n} steps. */
  private static void spin(int n) {
    long x = n;
    for (int i = 0; i < n; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    if (x == 42) {
      System.out.println("unlikely");
    }
  }
}
