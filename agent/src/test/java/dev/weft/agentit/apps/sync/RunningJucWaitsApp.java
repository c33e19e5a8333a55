package dev.weft.agentit.apps.sync;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;

/**
 * Waits for latches, semaphores, phasers, threads, futures, read/write and stamped locks that
 * happen only in loops started before the agent attaches: {@code RunningJucWaitsApp LOG AGENT_JAR
 * OPTIONS} starts WORKERS threads whose {@link Worker#run} never returns until the end. Each round
 * a worker awaits the latch a {@link Pacer} opens every millisecond, meets the others at a phaser,
 * takes a read/write lock's and a stamped lock's write and read locks and a semaphore's only
 * permit, joins a thread it started, gets a future from an executor and joins a CompletableFuture;
 * then it calls {@link Worker#helper} afresh, which does the same with other objects and is woven
 * at its call sites once the agent is there. After a while main attaches the agent to this JVM,
 * keeps it for RECORD_MS, detaches it and stops the workers. Every wait is logged as in {@link
 * RunningWaitsApp}: {@code thread site start end} ({@code System.nanoTime}), and {@code attached
 * T}, {@code detached T}. A thread named {@code idle} waits from before the attach to the end.
 * {@code RunningJucWaitsApp LOG none} never attaches. stdout is the same either way.
 */
public final class RunningJucWaitsApp {
  public static final int WORKERS = 3;

  /** Rounds each worker does at least in the window (a busy host makes it longer). */
  public static final int MIN_ROUNDS = 100;

  public static final long RECORD_MS = 4000;

  private static final Phaser PHASER = new Phaser(WORKERS);
  private static final Phaser HELPER_PHASER = new Phaser(WORKERS);
  private static final Semaphore SEMAPHORE = new Semaphore(1);
  private static final Semaphore HELPER_SEMAPHORE = new Semaphore(1);
  private static final ReentrantReadWriteLock RW = new ReentrantReadWriteLock();
  private static final ReentrantReadWriteLock HELPER_RW = new ReentrantReadWriteLock();
  private static final StampedLock STAMPED = new StampedLock();
  private static final StampedLock HELPER_STAMPED = new StampedLock();
  private static final ExecutorService EXECUTOR = Executors.newFixedThreadPool(2);
  private static volatile CountDownLatch latch = new CountDownLatch(1);
  private static volatile boolean stop;
  private static final Rounds ROUNDS = new Rounds(WORKERS);

  /** One worker: its loop is entered before the attach and left at the end. */
  static final class Worker extends Thread {
    final List<long[]> log = new ArrayList<>();
    final List<String> sites = new ArrayList<>();
    private final int index;
    long sum;

    Worker(int index) {
      super("worker-" + index);
      this.index = index;
    }

    @Override
    public void run() {
      try {
        while (!stop) {
          CountDownLatch l = latch;
          long t0 = System.nanoTime();
          l.await(); // latch in running frame
          log("latch", t0);
          work(300_000L * (index + 1)); // uneven work: the phaser waits
          t0 = System.nanoTime();
          PHASER.arriveAndAwaitAdvance(); // phaser in running frame
          log("phaser", t0);
          t0 = System.nanoTime();
          RW.writeLock().lock(); // write lock in running frame
          log("writeLock", t0);
          try {
            // Long enough that the waits add up to far more than a descheduled thread's delay
            // between the application's clock read and the agent's (milliseconds on a busy host).
            work(1_200_000);
          } finally {
            RW.writeLock().unlock();
          }
          t0 = System.nanoTime();
          RW.readLock().lock(); // read lock in running frame
          log("readLock", t0);
          try {
            work(300_000); // a reader waits for the writers queued before it
          } finally {
            RW.readLock().unlock();
          }
          t0 = System.nanoTime();
          long stamp = STAMPED.writeLock(); // stamped write in running frame
          log("stampedWrite", t0);
          try {
            work(1_000_000);
          } finally {
            STAMPED.unlockWrite(stamp);
          }
          t0 = System.nanoTime();
          stamp = STAMPED.readLock(); // stamped read in running frame
          log("stampedRead", t0);
          try {
            work(300_000); // a reader waits for the writer that holds it
          } finally {
            STAMPED.unlockRead(stamp);
          }
          t0 = System.nanoTime();
          SEMAPHORE.acquire(); // semaphore in running frame
          log("semaphore", t0);
          try {
            work(2_000_000); // held longer than the write lock: the workers queue here
          } finally {
            SEMAPHORE.release();
          }
          Thread child = new Thread(() -> work(1_000_000), getName() + "-child");
          child.start();
          t0 = System.nanoTime();
          child.join(); // join in running frame
          log("join", t0);
          Future<Long> f = EXECUTOR.submit(() -> work(500_000));
          t0 = System.nanoTime();
          f.get(); // future in running frame
          log("futureGet", t0);
          CompletableFuture<Long> cf = CompletableFuture.supplyAsync(() -> work(500_000), EXECUTOR);
          t0 = System.nanoTime();
          cf.join(); // completable in running frame
          log("completableJoin", t0);
          helper();
          ROUNDS.done(index);
        }
      } catch (InterruptedException | ExecutionException e) {
        // the end
      }
    }

    /** Called afresh each round: woven at its call sites once the agent is there. */
    private void helper() throws InterruptedException, ExecutionException {
      CountDownLatch l = latch;
      long t0 = System.nanoTime();
      l.await(); // latch in helper
      log("helperLatch", t0);
      t0 = System.nanoTime();
      HELPER_SEMAPHORE.acquire(); // semaphore in helper
      log("helperSemaphore", t0);
      try {
        work(200_000);
      } finally {
        HELPER_SEMAPHORE.release();
      }
      t0 = System.nanoTime();
      HELPER_PHASER.arriveAndAwaitAdvance(); // phaser in helper
      log("helperPhaser", t0);
      Thread child = new Thread(() -> work(500_000), getName() + "-helper-child");
      child.start();
      t0 = System.nanoTime();
      child.join(); // join in helper
      log("helperJoin", t0);
      Future<Long> f = EXECUTOR.submit(() -> work(300_000));
      t0 = System.nanoTime();
      f.get(); // future in helper
      log("helperFutureGet", t0);
      t0 = System.nanoTime();
      long stamp = HELPER_STAMPED.writeLock(); // stamped write in helper
      log("helperStampedWrite", t0);
      try {
        work(200_000);
      } finally {
        HELPER_STAMPED.unlock(stamp);
      }
      t0 = System.nanoTime();
      HELPER_RW.writeLock().lock(); // write lock in helper
      log("helperWriteLock", t0);
      try {
        work(200_000);
      } finally {
        HELPER_RW.writeLock().unlock();
      }
    }

    private void log(String site, long start) {
      long end = System.nanoTime();
      sites.add(site);
      log.add(new long[] {start, end});
    }
  }

  /** Opens the current latch every millisecond, from a loop that runs through the attach. */
  static final class Pacer extends Thread {
    Pacer() {
      super("pacer");
      setDaemon(true);
    }

    @Override
    public void run() {
      try {
        while (true) {
          Thread.sleep(1);
          CountDownLatch open = latch;
          latch = new CountDownLatch(1);
          open.countDown(); // count-down in running frame
        }
      } catch (InterruptedException e) {
        // the end
      }
    }
  }

  /** Waits until the program ends, for a latch nobody opens. */
  private static void idle() {
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      // the end
    }
  }

  /** Busy for about {@code nanos}; returns a value that depends on the work. */
  static long work(long nanos) {
    long until = System.nanoTime() + nanos;
    long x = nanos;
    while (System.nanoTime() < until) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x;
  }

  public static void main(String[] args) throws Exception {
    Path logFile = Path.of(args[0]);
    boolean attach = !args[1].equals("none");
    new Pacer().start();
    Thread idle = new Thread(RunningJucWaitsApp::idle, "idle"); // waiting from before the attach
    idle.setDaemon(true);
    idle.start();
    List<Worker> workers = new ArrayList<>();
    for (int i = 0; i < WORKERS; i++) {
      Worker w = new Worker(i);
      workers.add(w);
      w.start();
    }
    Thread.sleep(500); // the loops run, warm
    long attached = 0;
    long detached = 0;
    long attaching = System.nanoTime();
    if (attach) {
      SelfAttach.loadAgent(args[1], args[2]);
      attached = System.nanoTime();
    }
    int[] roundsAtStart = ROUNDS.mark();
    Thread.sleep(RECORD_MS);
    ROUNDS.awaitEach(roundsAtStart, MIN_ROUNDS, 30_000);
    if (attach) {
      detached = System.nanoTime();
      SelfAttach.detach();
    }
    Thread.sleep(200);
    stop = true;
    for (Worker w : workers) {
      // Frees whoever waits at a phaser for a worker that has left.
      while (w.isAlive()) {
        PHASER.forceTermination();
        HELPER_PHASER.forceTermination();
        w.join(20);
      }
    }
    EXECUTOR.shutdown();
    write(logFile, workers, attaching, attached, detached);
    System.out.println("workers: " + workers.size());
  }

  private static void write(
      Path file, List<Worker> workers, long attaching, long attached, long detached)
      throws IOException {
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file))) {
      out.println("attaching " + attaching);
      out.println("attached " + attached);
      out.println("detached " + detached);
      for (Worker w : workers) {
        for (int i = 0; i < w.log.size(); i++) {
          long[] e = w.log.get(i);
          out.println(w.getName() + " " + w.sites.get(i) + " " + e[0] + " " + e[1]);
        }
      }
    }
  }
}
