package thirdparty;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caffeine, two phases. (A) a bounded LoadingCache (maintenance on ForkJoinPool.commonPool), 4
 * threads reading skewed keys whose loader costs ~0.5 ms of CPU: threads asking for a key that is
 * being loaded wait for it inside Caffeine/ConcurrentHashMap.compute, and writes contend for the
 * cache's eviction lock. (B) an AsyncLoadingCache whose loads run on a 2-thread pool, read by 4
 * threads through its synchronous view: the callers wait on the load's future inside Caffeine, the
 * loads wait in the pool's queue.
 */
final class CaffeineWorkload {
  static volatile long sink;

  static long load(int key) {
    long x = key;
    long end = System.nanoTime() + 500_000;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 200; i++) x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x;
  }

  static int skewed(SplittableRandom r, int n) {
    // roughly Zipf: many hits on small keys
    double u = r.nextDouble();
    return (int) (n * u * u * u);
  }

  static void run(double scale) throws Exception {
    int opsA = (int) (6000 * scale);
    int opsB = (int) (1500 * scale);
    LoadingCache<Integer, Long> cache =
        Caffeine.newBuilder().maximumSize(200).build(CaffeineWorkload::load);
    Thread[] ts = new Thread[4];
    for (int t = 0; t < ts.length; t++) {
      final int id = t;
      ts[t] = new Thread(() -> {
        SplittableRandom r = new SplittableRandom(id);
        long acc = 0;
        for (int i = 0; i < opsA; i++) {
          long t0 = System.nanoTime();
          acc += cache.get(skewed(r, 2000));
          Truth.add("A.get", System.nanoTime() - t0);
        }
        sink = acc;
        Truth.threadDone();
      }, "cache-reader-" + t);
    }
    long t0 = System.nanoTime();
    for (Thread t : ts) t.start();
    for (Thread t : ts) t.join();
    Truth.add("A.driver_join", System.nanoTime() - t0);

    AtomicInteger n = new AtomicInteger();
    ExecutorService loaders = Executors.newFixedThreadPool(2, rr -> new Thread(rr, "cache-loader-" + n.getAndIncrement()));
    AsyncLoadingCache<Integer, Long> async =
        Caffeine.newBuilder().maximumSize(100).executor(loaders).buildAsync(CaffeineWorkload::load);
    LoadingCache<Integer, Long> view = async.synchronous();
    for (int t = 0; t < ts.length; t++) {
      final int id = t;
      ts[t] = new Thread(() -> {
        SplittableRandom r = new SplittableRandom(100 + id);
        long acc = 0;
        for (int i = 0; i < opsB; i++) {
          long s0 = System.nanoTime();
          acc += view.get(skewed(r, 1000));
          Truth.add("B.get", System.nanoTime() - s0);
        }
        sink = acc;
        Truth.threadDone();
      }, "async-reader-" + t);
    }
    t0 = System.nanoTime();
    for (Thread t : ts) t.start();
    for (Thread t : ts) t.join();
    Truth.add("B.driver_join", System.nanoTime() - t0);
    Truth.print("caffeine", "cache-reader-", "async-reader-", "cache-loader-", "ForkJoinPool.commonPool", "main");
    loaders.shutdown();
  }

  private CaffeineWorkload() {}
}
