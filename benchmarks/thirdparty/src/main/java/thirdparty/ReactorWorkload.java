package thirdparty;

import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Project Reactor: rounds of a parallel flux on a scheduler of 2 workers (Schedulers.newParallel,
 * Reactor's executor-backed workers), each element a CPU-bound piece of 0.1-1 ms, the rails merged
 * back with sequential(), and main blocking in blockLast() for each round. Reactor's blocking
 * subscriber is a CountDownLatch subclass of its own: main's wait is await() on it, counted down by
 * the worker that completes the flux. The driver times each blockLast() (main's whole wait).
 */
final class ReactorWorkload {
  static final int WORKERS = 2;

  static void run(double scale) throws Exception {
    int rounds = (int) (40 * scale);
    Scheduler workers = Schedulers.newParallel("reactor-worker", WORKERS);
    long checksum = 0;
    try {
      for (int r = 0; r < rounds; r++) {
        int round = r;
        long t0 = System.nanoTime();
        Long last =
            Flux.range(0, 200)
                .parallel(4)
                .runOn(workers)
                .map(i -> spin(100_000L + (long) ((i * 7919L + round) % 10) * 100_000L))
                .sequential()
                .reduce(0L, Long::sum)
                .block();
        Truth.add("block", System.nanoTime() - t0);
        checksum += last == null ? 0 : last;
      }
    } finally {
      workers.dispose();
    }
    if (checksum == 42) System.out.println(); // keep the work
    Truth.print("reactor", "reactor-worker-", "main");
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

  private ReactorWorkload() {}
}
