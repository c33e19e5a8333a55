package sample;

import java.util.concurrent.CyclicBarrier;

/** Four threads meet at a barrier each round; thread 0 works eight times as long as the others. */
final class Imbalance {
  private Imbalance() {}

  static long run(int rounds, long unitNanos) throws Exception {
    int threads = 4;
    CyclicBarrier barrier = new CyclicBarrier(threads);
    long[] sums = new long[threads];
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int id = t;
      workers[t] =
          new Thread(
              () -> {
                try {
                  for (int r = 0; r < rounds; r++) {
                    sums[id] += spin(id == 0 ? 8 * unitNanos : unitNanos);
                    barrier.await();
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              },
              "worker-" + t);
      workers[t].start();
    }
    long total = 0;
    for (int t = 0; t < threads; t++) {
      workers[t].join();
      total += sums[t];
    }
    return total;
  }

  private static long spin(long nanos) {
    long end = System.nanoTime() + nanos;
    long n = 0;
    while (System.nanoTime() < end) {
      n++;
    }
    return n;
  }
}
