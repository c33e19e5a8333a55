package dev.weft.agentit.apps.sync;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import kotlinx.coroutines.Dispatchers;
import kotlinx.coroutines.ExecutorsKt;

/**
 * Kotlin coroutines' scheduler used as an executor ({@code Dispatchers.Default}): ROUNDS rounds of
 * TASKS tasks of about TASK_MS of computing each, main waiting on a latch between rounds, so that
 * the scheduler's workers park idle between rounds. Prints how many tasks ran.
 */
public final class CoroutineSchedulerApp {
  public static final int ROUNDS = 50;
  public static final int TASKS = 3;
  public static final long TASK_MS = 2;

  private static volatile long sink;

  public static void main(String[] args) throws Exception {
    Executor pool = ExecutorsKt.asExecutor(Dispatchers.getDefault());
    long[] sums = new long[TASKS];
    for (int r = 0; r < ROUNDS; r++) {
      CountDownLatch done = new CountDownLatch(TASKS);
      for (int k = 0; k < TASKS; k++) {
        int task = k;
        pool.execute(
            () -> {
              sums[task] += compute(TASK_MS * 1_000_000L);
              done.countDown();
            });
      }
      done.await();
      Thread.sleep(1); // the workers park: idle until the next round
    }
    long checksum = 0;
    for (long s : sums) {
      checksum += s;
    }
    sink = checksum;
    System.out.println("done " + ROUNDS * TASKS + " tasks");
  }

  private static long compute(long ns) {
    long end = System.nanoTime() + ns;
    long x = ns;
    while (System.nanoTime() < end) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x & 0xFF;
  }

  private CoroutineSchedulerApp() {}
}
