package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.List;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

/**
 * Threads waiting at a gate of the program's own, built on {@code AbstractQueuedSynchronizer} the
 * way libraries build theirs (a database's session latch, a one-shot gate): {@code --waiters}
 * threads ({@code waiter-<j>}) pass {@code --rounds} gates each; an {@code opener} thread works
 * {@code --open-ms} before it opens each gate, and a waiter works {@code --own-ms} after passing
 * one, so waiter {@code j} waits about {@code --open-ms − --own-ms} per round after the first. The
 * truth is each waiter's time inside the gate's acquire ({@link TruthKinds#CONDITION_WAIT_NS}).
 */
public final class GateWait implements Scenario {
  @Override
  public String name() {
    return "gate-wait";
  }

  @Override
  public String summary() {
    return "threads waiting at a gate built on AbstractQueuedSynchronizer, as libraries build theirs";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("waiters", 2, 1, 64, "threads waiting at each gate"),
        OptionSpec.integer("rounds", 4, 1, 100_000, "gates"),
        OptionSpec.integer("open-ms", 10, 0, 60_000, "the opener's work before each gate opens"),
        OptionSpec.integer("own-ms", 2, 0, 60_000, "a waiter's work after passing a gate"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int waiters = context.options().intValue("waiters");
    int rounds = context.options().intValue("rounds");
    long openMs = context.options().longValue("open-ms");
    long ownMs = context.options().longValue("own-ms");
    Truth truth = context.truth();
    Work work = context.work();
    Gate[] gates = new Gate[rounds];
    for (int r = 0; r < rounds; r++) {
      gates[r] = new Gate();
    }
    long[] checksums = new long[waiters + 1];
    List<String> names = new java.util.ArrayList<>(Team.names("waiter", waiters));
    names.add("opener");
    Team.run(
        names,
        j -> {
          for (int r = 0; r < rounds; r++) {
            long seed = (long) r * (waiters + 1) + j;
            if (j == waiters) {
              checksums[j] += work.runBusy(openMs, seed, truth);
              gates[r].open();
            } else {
              long t0 = System.nanoTime();
              gates[r].pass();
              truth.add(TruthKinds.CONDITION_WAIT_NS, System.nanoTime() - t0);
              checksums[j] += work.runBusy(ownMs, seed, truth);
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

  /** A one-shot gate: closed until {@link #open()}, then every {@link #pass()} goes through. */
  static final class Gate {
    private final Sync sync = new Sync();

    void pass() throws InterruptedException {
      sync.acquireSharedInterruptibly(1);
    }

    void open() {
      sync.releaseShared(1);
    }

    /** State 0: closed; 1: open. */
    private static final class Sync extends AbstractQueuedSynchronizer {
      @Override
      protected int tryAcquireShared(int ignored) {
        return getState() == 1 ? 1 : -1;
      }

      @Override
      protected boolean tryReleaseShared(int ignored) {
        setState(1);
        return true;
      }
    }
  }
}
