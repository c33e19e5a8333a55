package thirdparty;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * RxJava 3: a thread per task. Each round maps 200 elements, each a CPU-bound piece of 0.1-0.5 ms,
 * through flatMap onto RxJava's new-thread scheduler (a new thread for every element, at most 4 at a
 * time: a single-thread ScheduledThreadPoolExecutor per worker), observes the results on the
 * computation scheduler and sums them; main waits in blockingGet(), a CountDownLatch of RxJava's
 * own counted down by the computation thread. The driver times each blockingGet() (main's whole
 * wait). The scheduler is RxJava's, made with a thread factory that names threads as RxJava's own
 * and records each thread's JVM counters as it ends (they end with their worker).
 */
final class RxJavaWorkload {
  static final int ELEMENTS = 200;
  static final int AT_ONCE = 4;

  static void run(double scale) {
    int rounds = (int) (100 * scale);
    AtomicLong made = new AtomicLong();
    ThreadFactory factory =
        task -> {
          Thread t =
              new Thread(
                  () -> {
                    try {
                      task.run();
                    } finally {
                      Truth.threadDone();
                    }
                  },
                  "RxNewThreadScheduler-" + made.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    Scheduler newThread = RxJavaPlugins.createNewThreadScheduler(factory);
    long checksum = 0;
    for (int r = 0; r < rounds; r++) {
      int round = r;
      long t0 = System.nanoTime();
      long sum =
          Flowable.range(0, ELEMENTS)
              .flatMap(
                  i ->
                      Flowable.fromCallable(() -> element(i, round))
                          .subscribeOn(newThread),
                  AT_ONCE)
              .observeOn(Schedulers.computation())
              .reduce(0L, Long::sum)
              .blockingGet();
      Truth.add("block", System.nanoTime() - t0);
      checksum += sum;
    }
    if (checksum == 42) System.out.println(); // keep the work
    Truth.print("rxjava", "RxNewThreadScheduler-", "RxComputationThreadPool-", "main");
  }

  private static long element(int i, int round) {
    return spin(100_000L + (long) ((i * 7919L + round) % 5) * 100_000L);
  }

  /** About {@code ns} of CPU work; returns something that depends on all of it. */
  private static long spin(long ns) {
    long end = System.nanoTime() + ns;
    long x = ns;
    while (System.nanoTime() < end) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x & 0xFF;
  }

  private RxJavaWorkload() {}
}
