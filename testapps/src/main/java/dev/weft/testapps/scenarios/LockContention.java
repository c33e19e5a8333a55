package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.UsageException;
import dev.weft.testapps.Work;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * {@code --threads} threads each enter a critical section {@code --sections} times, hold it {@code
 * --hold-ms}, then work {@code --think-ms} outside it. Thread {@code i} makes its first request
 * {@code i·--stagger-ms} after thread 0's, so with a FIFO lock the threads take turns in index
 * order. A first request also waits until the thread before it holds or (ReentrantLock) queues for
 * the lock, so that the order holds on a busy host, where a thread can start late.
 *
 * <p>{@code --lock reentrant} (non-fair {@link ReentrantLock}), {@code fair}, {@code synchronized}
 * (a {@code synchronized} block on one object), or {@code rwlock}: thread 0 ("writer-0") takes the
 * write lock and the others ("reader-i") the read lock of one {@link ReentrantReadWriteLock};
 * readers share, so only waits behind the writer (and the writer's behind readers) are contention.
 *
 * <p>Only acquisitions that took at least {@link #REAL_WAIT_NS} count as contended: finding a lock
 * free (or sharing a read lock) costs a few hundred nanoseconds, and the analyzer counts nothing
 * for it.
 */
public final class LockContention implements Scenario {
  /** An acquisition that took at least this long had to wait for another holder. */
  public static final long REAL_WAIT_NS = 50_000;

  /** Time from the start of the run to thread 0's first request. */
  public static final long START_LEAD_MS = 10;

  @Override
  public String name() {
    return "lock-contention";
  }

  @Override
  public String summary() {
    return "threads taking turns in a critical section (reentrant, fair, synchronized, rwlock)";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("threads", 4, 1, 64, "threads"),
        OptionSpec.integer("sections", 5, 1, 100_000, "critical sections per thread"),
        OptionSpec.integer("hold-ms", 10, 0, 60_000, "H: work inside each critical section"),
        OptionSpec.integer("think-ms", 2, 0, 60_000, "o: work between critical sections"),
        OptionSpec.integer("stagger-ms", 1, 0, 60_000, "s: thread i starts i*s late"),
        OptionSpec.choice(
            "lock",
            "reentrant",
            List.of("reentrant", "fair", "synchronized", "rwlock"),
            "lock construct"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int threads = context.options().intValue("threads");
    int sections = context.options().intValue("sections");
    long holdMs = context.options().longValue("hold-ms");
    long thinkMs = context.options().longValue("think-ms");
    long staggerMs = context.options().longValue("stagger-ms");
    String kind = context.options().choice("lock");
    Truth truth = context.truth();
    Work work = context.work();

    List<String> names;
    if (kind.equals("rwlock")) {
      if (threads < 2) {
        throw new UsageException("option --threads: rwlock needs at least 2 (a writer, a reader)");
      }
      names = new ArrayList<>();
      names.add("writer-0");
      for (int i = 1; i < threads; i++) {
        names.add("reader-" + i);
      }
    } else {
      names = Team.names("worker", threads);
    }
    Object monitor = new Object();
    ReentrantLock exclusive = new ReentrantLock(kind.equals("fair"));
    ReentrantReadWriteLock readWrite = new ReentrantReadWriteLock();
    // Warm the lock classes up, so that no thread's first acquisition pays for class loading.
    for (Lock lock : List.of(exclusive, readWrite.readLock(), readWrite.writeLock())) {
      lock.lock();
      lock.unlock();
    }
    long[] checksums = new long[threads];
    // An absolute schedule: thread i makes its first request START_LEAD_MS + i·s after this point,
    // however late it was started, so the arrival order holds on a busy machine too.
    long schedule = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_LEAD_MS);
    // A busy host can start a thread later than its stagger, and the arrival order would change:
    // thread 1's first request also waits for thread 0's first hold, and with a ReentrantLock
    // thread i's (i > 1) for thread i-1 to queue (or to have held the lock). With rwlock only the
    // first: the readers would otherwise find the lock free and share it.
    AtomicBoolean firstHeld = new AtomicBoolean();
    AtomicReferenceArray<Thread> team = new AtomicReferenceArray<>(threads);
    AtomicIntegerArray held = new AtomicIntegerArray(threads);
    boolean queueOrder = kind.equals("reentrant") || kind.equals("fair");
    Team.run(
        names,
        i -> {
          team.set(i, Thread.currentThread());
          sleepUntil(schedule + TimeUnit.MILLISECONDS.toNanos(i * staggerMs));
          // Sleeps, as before the first request already: a thread spinning here on a busy host
          // would be scheduled as a CPU hog, and could miss its turn by several milliseconds.
          while (i > 0 && !firstHeld.get()) {
            Thread.sleep(1);
          }
          while (queueOrder && i > 1 && !queuedOrHeld(exclusive, team.get(i - 1), held, i - 1)) {
            Thread.sleep(1);
          }
          for (int k = 0; k < sections; k++) {
            long seed = (long) k * threads + i;
            if (kind.equals("synchronized")) {
              long t0 = System.nanoTime();
              synchronized (monitor) {
                recordAcquisition(truth, System.nanoTime() - t0);
                if (i == 0) {
                  firstHeld.set(true);
                }
                checksums[i] += work.runBusy(holdMs, seed, truth);
              }
            } else {
              Lock lock =
                  !kind.equals("rwlock")
                      ? exclusive
                      : i == 0 ? readWrite.writeLock() : readWrite.readLock();
              long t0 = System.nanoTime();
              lock.lock();
              try {
                recordAcquisition(truth, System.nanoTime() - t0);
                held.set(i, 1);
                if (i == 0) {
                  firstHeld.set(true);
                }
                checksums[i] += work.runBusy(holdMs, seed, truth);
              } finally {
                lock.unlock();
              }
            }
            if (k < sections - 1) {
              checksums[i] += work.runBusy(thinkMs, ~seed, truth);
            }
          }
        },
        truth);
    long checksum = 0;
    for (long c : checksums) {
      checksum += c;
    }
    return Work.jsonSafe(checksum);
  }

  /** Whether thread {@code j} is queued for {@code lock} or has held it. */
  private static boolean queuedOrHeld(
      ReentrantLock lock, Thread thread, AtomicIntegerArray held, int j) {
    return held.get(j) == 1 || (thread != null && lock.hasQueuedThread(thread));
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long ms = TimeUnit.NANOSECONDS.toMillis(nanoTime - System.nanoTime());
    if (ms > 0) {
      Thread.sleep(ms);
    }
  }

  private static void recordAcquisition(Truth truth, long waited) {
    truth.add(TruthKinds.LOCK_ACQUISITIONS, 1);
    truth.add(TruthKinds.CONTENDED_ACQUISITIONS, waited >= REAL_WAIT_NS ? 1 : 0);
    truth.add(TruthKinds.LOCK_CONTENTION_NS, waited >= REAL_WAIT_NS ? waited : 0);
  }
}
