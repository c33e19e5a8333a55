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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hand-written spinning barrier (an arrival counter and a generation, waiting in a {@link
 * Thread#onSpinWait()} loop): the barrier-imbalance pattern without any JDK barrier, so the only
 * sign of waiting is the spin loop. Thread {@code i} works {@code (i+1)·--work-ms} per iteration.
 */
public final class SpinBarrier implements Scenario {
  @Override
  public String name() {
    return "spin-barrier";
  }

  @Override
  public String summary() {
    return "staggered threads meeting at a hand-written spinning barrier (Thread.onSpinWait)";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("threads", 3, 1, 64, "threads (each spins on a core while waiting)"),
        OptionSpec.integer("work-ms", 5, 0, 60_000, "d: thread i works (i+1)*d per iteration"),
        OptionSpec.integer("iterations", 5, 1, 100_000, "barrier generations"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int threads = context.options().intValue("threads");
    long workMs = context.options().longValue("work-ms");
    int iterations = context.options().intValue("iterations");
    Truth truth = context.truth();
    Work work = context.work();

    Barrier barrier = new Barrier(threads);
    List<String> names = Team.names("worker", threads);
    BarrierLog log = new BarrierLog(names, iterations);
    long[] checksums = new long[threads];
    Team.run(
        names,
        i -> {
          for (int r = 0; r < iterations; r++) {
            long t0 = System.nanoTime();
            checksums[i] += work.run((i + 1) * workMs, (long) r * threads + i);
            long arrival = System.nanoTime();
            truth.add(TruthKinds.BUSY_NS, arrival - t0);
            barrier.await();
            long departure = System.nanoTime();
            log.arrive(i, r, arrival);
            log.depart(i, r, departure);
          }
        },
        truth);
    log.report(truth, TruthKinds.SPIN_WAIT_NS, TruthKinds.SPIN_WAIT_FOR_LAST_NS, null);
    long checksum = 0;
    for (long c : checksums) {
      checksum += c;
    }
    return Work.jsonSafe(checksum);
  }

  /** A sense-reversing spin barrier: the last arrival resets the count and opens the generation. */
  static final class Barrier {
    private final int parties;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int generation;

    Barrier(int parties) {
      this.parties = parties;
    }

    /**
     * Waits for all parties; gives up if interrupted (a failed team member interrupts the rest).
     */
    void await() throws InterruptedException {
      int current = generation;
      if (arrived.incrementAndGet() == parties) {
        arrived.set(0);
        generation = current + 1;
      } else {
        while (generation == current) {
          if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("spin barrier abandoned");
          }
          Thread.onSpinWait();
        }
      }
    }
  }
}
