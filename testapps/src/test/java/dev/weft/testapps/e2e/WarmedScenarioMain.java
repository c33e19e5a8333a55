package dev.weft.testapps.e2e;

import dev.weft.api.Weft;
import dev.weft.testapps.Main;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.IntStream;

/**
 * Runs a scenario twice in one JVM and prints only the second run, so that one-time costs do not
 * fall between the scenario's clock and the recorder's in the measured run:
 *
 * <ol>
 *   <li>with {@code --warm-recorder} (before the scenario's name): every construct family the
 *       scenarios use is exercised once, recorded, on threads named {@value #WARM_UP_PREFIX}..., so
 *       that the recorder's own first-use work (its classes, first object and pool definitions) is
 *       done. Without it, that work falls into the measured run's first event of each kind.
 *   <li>the scenario runs with measurement off ({@link Weft#off()}): JDK classes are loaded and
 *       woven, the scenario's lambdas linked, its code warmed (tens of milliseconds on a loaded
 *       host). Its output is discarded; threads that record nothing have no stream.
 *   <li>measurement on, the scenario runs again: this is the run the trace and stdout hold.
 * </ol>
 *
 * <p>Exits with the measured run's exit code (or the warm-up's if that failed).
 */
public final class WarmedScenarioMain {
  /** Name prefix of the threads the recorder warm-up records on. */
  public static final String WARM_UP_PREFIX = "e2e-warm-up";

  /** The option (first argument) that asks for the recorder warm-up. */
  public static final String WARM_RECORDER = "--warm-recorder";

  private WarmedScenarioMain() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    String[] scenario = args;
    if (args.length > 0 && args[0].equals(WARM_RECORDER)) {
      scenario = java.util.Arrays.copyOfRange(args, 1, args.length);
      Thread warmUp = new Thread(WarmedScenarioMain::exerciseEveryFamily, WARM_UP_PREFIX);
      warmUp.start();
      // Not join(): that would be a join wait of main's in the trace. A sleep is execution.
      while (warmUp.isAlive()) {
        Thread.sleep(5);
      }
    }
    PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
    Weft.off();
    int warmUp = Main.run(scenario, discard, discard);
    Weft.on();
    if (warmUp != Main.EXIT_OK) {
      System.exit(warmUp);
    }
    System.exit(Main.run(scenario, System.out, System.err));
  }

  /** Each construct family once: monitors, locks, barriers, waits, spins, pools, tasks. */
  private static void exerciseEveryFamily() {
    try {
      Object monitor = new Object();
      synchronized (monitor) {
        monitor.wait(1);
      }
      ReentrantLock lock = new ReentrantLock();
      lock.lock();
      lock.unlock();
      ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
      rw.readLock().lock();
      rw.readLock().unlock();
      rw.writeLock().lock();
      rw.writeLock().unlock();
      new CyclicBarrier(1).await();
      new Phaser(1).arriveAndAwaitAdvance();
      CountDownLatch latch = new CountDownLatch(1);
      latch.countDown();
      latch.await();
      for (int i = 0; i < 3; i++) {
        Thread.onSpinWait();
      }
      Thread.sleep(1);

      ExecutorService executor =
          new ThreadPoolExecutor(
              1,
              1,
              0,
              TimeUnit.MILLISECONDS,
              new LinkedBlockingQueue<>(),
              r -> new Thread(r, WARM_UP_PREFIX + "-exec-0"));
      executor.submit(() -> 1).get();
      CompletableFuture.supplyAsync(() -> 2, executor).join();
      executor.shutdown();
      executor.awaitTermination(1, TimeUnit.MINUTES);

      ForkJoinPool pool =
          new ForkJoinPool(
              1,
              p -> {
                ForkJoinWorkerThread t =
                    ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
                t.setName(WARM_UP_PREFIX + "-fj-" + t.getPoolIndex());
                return t;
              },
              null,
              false);
      pool.invoke(new Halves(0, 4));
      pool.submit(() -> IntStream.range(0, 4).parallel().sum()).get();
      pool.shutdown();
      pool.awaitTermination(1, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IllegalStateException("recorder warm-up failed", e);
    }
  }

  /** Splits [lo, hi) in halves: fork, compute, join. */
  private static final class Halves extends RecursiveTask<Integer> {
    private static final long serialVersionUID = 1L;
    private final int lo;
    private final int hi;

    Halves(int lo, int hi) {
      this.lo = lo;
      this.hi = hi;
    }

    @Override
    protected Integer compute() {
      if (hi - lo <= 1) {
        return lo;
      }
      int mid = (lo + hi) >>> 1;
      Halves left = new Halves(lo, mid);
      left.fork();
      return new Halves(mid, hi).compute() + left.join();
    }
  }
}
