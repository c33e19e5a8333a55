package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock convoy: {@code --threads} threads request one fair {@link ReentrantLock} {@code i·1 ms}
 * apart, hold it {@code --hold-ms} (thread 0 holds its first section {@code --first-hold-ms}) and
 * request it again at once, {@code --sections} times each. The fair lock serves them in request
 * order, so every acquisition after the first waits for the other threads' holds.
 *
 * <p>Truth: {@link TruthKinds#LOCK_CONTENTION_NS} per thread, and {@link
 * TruthKinds#DELAY_COST_LOCK_NS}: every contended wait, from its request to the last release before
 * its acquisition, split at the releases in between, each piece charged to the releasing holder.
 */
public final class LockConvoy implements Scenario {
  /** Time from the start of the run to thread 0's first request. */
  static final long START_LEAD_MS = 10;

  @Override
  public String name() {
    return "lock-convoy";
  }

  @Override
  public String summary() {
    return "threads queueing on a fair lock, each wait caused by the holds ahead of it";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("threads", 4, 2, 64, "threads"),
        OptionSpec.integer("sections", 3, 1, 100_000, "critical sections per thread"),
        OptionSpec.integer("hold-ms", 4, 0, 60_000, "work inside each critical section"),
        OptionSpec.integer("first-hold-ms", 12, 0, 60_000, "thread 0's first critical section"));
  }

  /** One critical section: request, acquisition and release times of one thread. */
  private record Hold(int thread, long request, long acquired, long released) {}

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int threads = context.options().intValue("threads");
    int sections = context.options().intValue("sections");
    long holdMs = context.options().longValue("hold-ms");
    long firstHoldMs = context.options().longValue("first-hold-ms");
    Truth truth = context.truth();
    Work work = context.work();
    ReentrantLock lock = new ReentrantLock(true);
    // Warm the lock's classes up, so that no thread's first acquisition pays for class loading.
    lock.lock();
    lock.unlock();
    List<String> names = Team.names("worker", threads);
    Hold[][] holds = new Hold[threads][sections];
    long[] checksums = new long[threads];
    long schedule = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_LEAD_MS);
    Team.run(
        names,
        i -> {
          long ms = TimeUnit.NANOSECONDS.toMillis(schedule + i * 1_000_000L - System.nanoTime());
          if (ms > 0) {
            Thread.sleep(ms);
          }
          for (int k = 0; k < sections; k++) {
            long request = System.nanoTime();
            lock.lock();
            long acquired = System.nanoTime();
            long released;
            try {
              long t0 = System.nanoTime();
              checksums[i] += work.run(i == 0 && k == 0 ? firstHoldMs : holdMs, k * 64L + i);
              truth.add(TruthKinds.BUSY_NS, System.nanoTime() - t0);
              released = System.nanoTime();
            } finally {
              lock.unlock();
            }
            holds[i][k] = new Hold(i, request, acquired, released);
          }
        },
        truth);
    report(truth, names, holds);
    long checksum = 0;
    for (long c : checksums) {
      checksum += c;
    }
    return Work.jsonSafe(checksum);
  }

  private static void report(Truth truth, List<String> names, Hold[][] holds) {
    List<Hold> byRelease = new ArrayList<>();
    for (Hold[] h : holds) {
      byRelease.addAll(List.of(h));
    }
    byRelease.sort(Comparator.comparingLong(Hold::released));
    long[] cost = new long[names.size()];
    long[] contention = new long[names.size()];
    for (Hold w : byRelease) {
      long waited = w.acquired() - w.request();
      if (waited < LockContention.REAL_WAIT_NS) {
        continue;
      }
      contention[w.thread()] += waited;
      // The releases between the request and the acquisition each end a piece of the wait.
      long from = w.request();
      for (Hold h : byRelease) {
        if (h.thread() != w.thread() && h.released() > from && h.released() <= w.acquired()) {
          cost[h.thread()] += h.released() - from;
          from = h.released();
        }
      }
    }
    for (int t = 0; t < names.size(); t++) {
      truth.add(TruthKinds.LOCK_CONTENTION_NS, names.get(t), contention[t]);
      truth.add(TruthKinds.DELAY_COST_LOCK_NS, names.get(t), cost[t]);
    }
  }
}
