package thirdparty;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import kotlinx.coroutines.Dispatchers;
import kotlinx.coroutines.ExecutorsKt;

/**
 * Kotlin coroutines' scheduler (kotlinx-coroutines-core 1.11, {@code Dispatchers.Default}) used
 * from Java as an executor: not a {@code ThreadPoolExecutor} nor a {@code ForkJoinPool}, but a pool
 * of its own whose idle workers park ({@code CoroutineScheduler.Worker.park}, {@code
 * LockSupport.parkNanos}) in library code that the agent weaves like any application's. Each round,
 * main submits a few CPU-bound tasks of 1–3 ms (fewer than the workers) and waits on a latch: the
 * workers are idle most of the time and main waits for the slowest task. The driver times main's
 * waits. What the tools should show: main's latch wait, and the workers idle, not waiting on
 * something.
 */
final class CoroutinesWorkload {
  static final int TASKS = 3;

  static void run(double scale) throws Exception {
    int rounds = (int) (1000 * scale);
    Executor pool = ExecutorsKt.asExecutor(Dispatchers.getDefault());
    long[] sums = new long[TASKS];
    for (int r = 0; r < rounds; r++) {
      CountDownLatch done = new CountDownLatch(TASKS);
      int round = r;
      for (int k = 0; k < TASKS; k++) {
        int task = k;
        pool.execute(
            () -> {
              sums[task] += spin(1_000_000L + ((round + task) % 3) * 1_000_000L);
              done.countDown();
            });
      }
      long t0 = System.nanoTime();
      done.await();
      Truth.add("await", System.nanoTime() - t0);
    }
    long checksum = 0;
    for (long s : sums) checksum += s;
    if (checksum == 42) System.out.println(); // keep the work
    Truth.print("coroutines", "DefaultDispatcher-worker-", "main");
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

  private CoroutinesWorkload() {}
}
