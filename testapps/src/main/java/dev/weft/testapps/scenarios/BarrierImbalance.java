package dev.weft.testapps.scenarios;

import dev.weft.testapps.BarrierLog;
import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Phaser;

/**
 * {@code --threads} threads meet at a barrier {@code --iterations} times; before each meeting
 * thread {@code i} works {@code (i+1)·--work-ms}, so thread {@code i} waits about {@code (T−1−i)·d}
 * per iteration for the last one. With {@code --straggler rotating}, thread {@code r mod T} works
 * {@code T·d} in iteration {@code r} and the others {@code d}: over the whole run every thread
 * works and waits the same, but in each round one thread delays all others (the delay-cost truth).
 *
 * <p>{@code --barrier cyclic} uses one {@link CyclicBarrier}, {@code phaser} one {@link Phaser}
 * ({@code arriveAndAwaitAdvance}); {@code latch} uses the count-down-then-await pattern: a {@link
 * CountDownLatch} cannot be reset, so there is one latch per iteration (all made up front by main),
 * and each thread calls {@code countDown()} (its arrival) then {@code await()}.
 */
public final class BarrierImbalance implements Scenario {
  /** The region whose per-thread work the load-balance truth describes. */
  public static final String REGION = "iteration";

  @Override
  public String name() {
    return "barrier-imbalance";
  }

  @Override
  public String summary() {
    return "threads with staggered work meeting at a barrier (cyclic, phaser or latch)";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("threads", 4, 1, 64, "threads"),
        OptionSpec.integer("work-ms", 5, 0, 60_000, "d: thread i works (i+1)*d per iteration"),
        OptionSpec.integer("iterations", 5, 1, 100_000, "barrier generations"),
        OptionSpec.choice(
            "barrier", "cyclic", List.of("cyclic", "phaser", "latch"), "barrier construct"),
        OptionSpec.choice(
            "straggler",
            "fixed",
            List.of("fixed", "rotating"),
            "fixed: thread i works (i+1)*d every round; rotating: thread (round mod threads) works"
                + " threads*d, the others d"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int threads = context.options().intValue("threads");
    long workMs = context.options().longValue("work-ms");
    int iterations = context.options().intValue("iterations");
    String kind = context.options().choice("barrier");
    boolean rotating = context.options().choice("straggler").equals("rotating");
    Truth truth = context.truth();
    Work work = context.work();

    CyclicBarrier cyclic = new CyclicBarrier(threads);
    Phaser phaser = new Phaser(threads);
    CountDownLatch[] latches = new CountDownLatch[iterations];
    for (int r = 0; r < iterations; r++) {
      latches[r] = new CountDownLatch(threads);
    }
    List<String> names = Team.names("worker", threads);
    BarrierLog log = new BarrierLog(names, iterations);
    long[] checksums = new long[threads];
    Team.run(
        names,
        i -> {
          // Region busy time runs from the thread's start, then from each departure, to the next
          // arrival: the same spans the analysis measures, so that whatever stalls the thread
          // between them (a GC pause, the host's scheduler) counts on both sides.
          long busySince = System.nanoTime();
          log.start(i, busySince);
          for (int r = 0; r < iterations; r++) {
            long t0 = System.nanoTime();
            long ms = rotating ? (r % threads == i ? threads * workMs : workMs) : (i + 1) * workMs;
            checksums[i] += work.run(ms, (long) r * threads + i);
            long arrival = System.nanoTime();
            // Nothing between the arrival and the wait: bookkeeping here would be counted as
            // waiting by the truth and as work by the trace.
            switch (kind) {
              case "cyclic":
                cyclic.await();
                break;
              case "phaser":
                phaser.arriveAndAwaitAdvance();
                break;
              default:
                latches[r].countDown();
                latches[r].await();
                break;
            }
            long departure = System.nanoTime();
            truth.add(TruthKinds.BUSY_NS, arrival - t0);
            truth.addRegionBusy(REGION, arrival - busySince);
            busySince = departure;
            log.arrive(i, r, arrival);
            log.depart(i, r, departure);
          }
        },
        truth);
    log.report(
        truth,
        TruthKinds.BARRIER_WAIT_NS,
        TruthKinds.BARRIER_WAIT_FOR_LAST_NS,
        TruthKinds.BARRIER_RELEASE_LATENCY_NS);
    log.reportDelayCosts(truth);
    log.reportImbalance(truth, REGION);
    long checksum = 0;
    for (long c : checksums) {
      checksum += c;
    }
    return Work.jsonSafe(checksum);
  }
}
