package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two chains of waits in which a thread delays others only because it was delayed itself, with
 * {@code d = --work-ms}:
 *
 * <ul>
 *   <li>Barriers: {@code bar-0} works 3d and arrives at barrier 1, where {@code bar-1} has waited
 *       since the start; {@code bar-1} then works d and arrives at barrier 2, where {@code bar-2}
 *       has waited since it worked d. {@code bar-2}'s wait (about 3d) is {@code bar-1}'s doing for
 *       about d only: the first 2d of it {@code bar-1} was itself waiting for {@code bar-0}.
 *   <li>Lock and notify: {@code lock-0} holds a lock for 3d; {@code lock-1} requests it once {@code
 *       lock-0} holds it, gets it, works d and notifies {@code lock-2}, which has waited in {@code
 *       Object.wait} since the start. Of {@code lock-2}'s wait (about 4d), about 3d was {@code
 *       lock-1}'s wait for {@code lock-0}.
 * </ul>
 *
 * <p>Truth, from the threads' own clock readings: {@link TruthKinds#DELAY_COST_BARRIER_NS}, {@link
 * TruthKinds#DELAY_COST_LOCK_NS} and {@link TruthKinds#DELAY_COST_CONDITION_NS} (the short-term
 * costs: each wait from its start to the release that ended it, less the stretch in which the
 * releaser was itself waiting) and {@link TruthKinds#DELAY_COST_LONG_TERM_NS} (that stretch,
 * charged to the thread the releaser waited for), for every thread.
 */
public final class DelayChain implements Scenario {
  private static final List<String> NAMES =
      List.of("bar-0", "bar-1", "bar-2", "lock-0", "lock-1", "lock-2");

  @Override
  public String name() {
    return "delay-chain";
  }

  @Override
  public String summary() {
    return "threads late only because they waited: chains of barrier, lock and notify waits";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(OptionSpec.integer("work-ms", 10, 1, 60_000, "d: the unit of work"));
  }

  /** Clock readings (System.nanoTime) taken just before each synchronisation call. */
  private static final class Times {
    volatile boolean locked;
    boolean notified;
    long firstArrival;
    long lastArrival;
    long secondWait;
    long secondArrival;
    long request;
    long release;
    long waitStart;
    long notify;
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    long d = context.options().longValue("work-ms");
    Truth truth = context.truth();
    Work work = context.work();
    CyclicBarrier first = new CyclicBarrier(2);
    CyclicBarrier second = new CyclicBarrier(2);
    ReentrantLock lock = new ReentrantLock();
    Object monitor = new Object();
    Times t = new Times();
    long[] checksums = new long[NAMES.size()];
    Team.run(
        NAMES,
        i -> {
          switch (i) {
            case 0 -> {
              checksums[i] = work.runBusy(3 * d, i, truth);
              t.lastArrival = System.nanoTime();
              first.await();
            }
            case 1 -> {
              t.firstArrival = System.nanoTime();
              first.await();
              checksums[i] = work.runBusy(d, i, truth);
              t.secondArrival = System.nanoTime();
              second.await();
            }
            case 2 -> {
              checksums[i] = work.runBusy(d, i, truth);
              t.secondWait = System.nanoTime();
              second.await();
            }
            case 3 -> {
              lock.lock();
              try {
                t.locked = true;
                checksums[i] = work.runBusy(3 * d, i, truth);
                t.release = System.nanoTime();
              } finally {
                lock.unlock();
              }
            }
            case 4 -> {
              while (!t.locked) {
                Thread.onSpinWait();
              }
              t.request = System.nanoTime();
              lock.lock();
              lock.unlock();
              checksums[i] = work.runBusy(d, i, truth);
              synchronized (monitor) {
                t.notified = true;
                t.notify = System.nanoTime();
                monitor.notify();
              }
            }
            default -> {
              synchronized (monitor) {
                while (!t.notified) {
                  t.waitStart = System.nanoTime();
                  monitor.wait();
                }
              }
            }
          }
        },
        truth);
    report(truth, t);
    long checksum = 0;
    for (long c : checksums) {
      checksum += c;
    }
    return Work.jsonSafe(checksum);
  }

  /**
   * Each wait, from its start to its causer's release, is split at the stretch in which the causer
   * itself waited: that stretch is the long-term cost of the causer's causer.
   */
  private static void report(Truth truth, Times t) {
    long[] barrier = new long[NAMES.size()];
    long[] lock = new long[NAMES.size()];
    long[] condition = new long[NAMES.size()];
    long[] longTerm = new long[NAMES.size()];
    // bar-1 waited for bar-0 from its arrival to bar-0's.
    barrier[0] = Math.max(0, t.lastArrival - t.firstArrival);
    // bar-2 waited for bar-1 from its arrival to bar-1's.
    long[] split = split(t.secondWait, t.secondArrival, t.firstArrival, t.lastArrival);
    barrier[1] = split[0];
    longTerm[0] += split[1];
    // lock-1 waited for lock-0 from its request to lock-0's release.
    lock[3] = Math.max(0, t.release - t.request);
    // lock-2 waited for lock-1 from its wait to lock-1's notify (0 when notified before it waited).
    split = t.waitStart == 0 ? new long[2] : split(t.waitStart, t.notify, t.request, t.release);
    condition[4] = split[0];
    longTerm[3] += split[1];
    for (int i = 0; i < NAMES.size(); i++) {
      truth.add(TruthKinds.DELAY_COST_BARRIER_NS, NAMES.get(i), barrier[i]);
      truth.add(TruthKinds.DELAY_COST_LOCK_NS, NAMES.get(i), lock[i]);
      truth.add(TruthKinds.DELAY_COST_CONDITION_NS, NAMES.get(i), condition[i]);
      truth.add(TruthKinds.DELAY_COST_LONG_TERM_NS, NAMES.get(i), longTerm[i]);
    }
  }

  /**
   * A wait {@code from..to} caused by a thread that itself waited {@code ownFrom..ownTo}: {short
   * term, long term}.
   */
  private static long[] split(long from, long to, long ownFrom, long ownTo) {
    long wait = Math.max(0, to - from);
    long overlap = Math.max(0, Math.min(to, ownTo) - Math.max(from, ownFrom));
    return new long[] {wait - overlap, overlap};
  }
}
