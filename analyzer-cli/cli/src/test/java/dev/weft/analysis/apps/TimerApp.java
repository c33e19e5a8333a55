package dev.weft.analysis.apps;

import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code TimerApp MS}: {@code main} prepares two jobs in turn (computing for MS/4 milliseconds),
 * hands each to {@code worker}, a thread of its own that takes them from a queue (the hand-over is
 * not an event Weft records, so the chain of work through it is lighter than the run is long), and
 * waits for it on a latch; each job computes for MS/2 milliseconds. Meanwhile two {@code
 * java.util.Timer}s live for the whole run: {@code idle-timer} is never given a task (its thread
 * waits for one), {@code checker-timer} runs a short task every 20 ms (it takes a lock) and is
 * never cancelled (as a library's watchdog: its daemon thread lives until the JVM exits, longer
 * than anything the program computes). Prints a line that does not depend on the run.
 */
public final class TimerApp {
  private static final AtomicLong TICKS = new AtomicLong();
  private static volatile double sink;

  public static void main(String[] args) throws Exception {
    long ms = Long.parseLong(args[0]);
    Timer idle = new Timer("idle-timer", true);
    Timer checker = new Timer("checker-timer", true);
    checker.scheduleAtFixedRate(
        new TimerTask() {
          @Override
          public void run() {
            synchronized (TICKS) { // a watchdog looks at what it watches under a lock
              TICKS.incrementAndGet();
            }
          }
        },
        20,
        20);
    LinkedBlockingQueue<Runnable> jobs = new LinkedBlockingQueue<>();
    Thread worker =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < 2; i++) {
                  Runnable job = jobs.take();
                  job.run();
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "worker");
    worker.setDaemon(true);
    worker.start();
    for (int i = 0; i < 2; i++) {
      compute(ms / 4); // prepares the job
      CountDownLatch done = new CountDownLatch(1);
      jobs.put(
          () -> {
            compute(ms / 2);
            done.countDown();
          });
      done.await();
    }
    idle.cancel(); // checker-timer is left running, as a library's watchdog is, until the JVM exits
    System.out.println("jobs done, checker ticked: " + (TICKS.get() > 0));
  }

  /** Computes for {@code ms} milliseconds. */
  private static void compute(long ms) {
    long end = System.nanoTime() + ms * 1_000_000;
    double x = 0;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 10_000; i++) {
        x += Math.sqrt(i + x);
      }
    }
    sink = x;
  }
}
