package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.List;

/**
 * A hand-over chain: {@code --threads} threads are started (the last first, so that the others wait
 * when thread 0 notifies); thread 0 works {@code --work-ms} and then notifies thread 1 ({@code
 * Object.notify} on thread 1's own monitor), which has waited for it in {@code Object.wait}; thread
 * 1 works, then notifies thread 2, and so on. Thread {@code i} works {@code (i+1)·--work-ms}, so
 * each thread's share of the run differs.
 *
 * <p>The run's critical path is the chain of the threads' work linked by the notifications: thread
 * 0's from main's {@code Thread.start} of it to its notify, thread {@code i}'s from the notify that
 * woke it (its wake-up latency included) to its own notify, the last thread's to its end. The truth
 * holds that per thread ({@link TruthKinds#CRITICAL_PATH_NS}), each thread's wait ({@link
 * TruthKinds#CONDITION_WAIT_NS}) and the short-term cost of each notify ({@link
 * TruthKinds#DELAY_COST_CONDITION_NS}): the wait it ended, less the part in which the notifier
 * itself still waited.
 */
public final class NotifyChain implements Scenario {
  @Override
  public String name() {
    return "notify-chain";
  }

  @Override
  public String summary() {
    return "threads handing over with wait/notify, one after the other";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("threads", 4, 1, 64, "threads"),
        OptionSpec.integer("work-ms", 5, 0, 60_000, "d: thread i works (i+1)*d"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int threads = context.options().intValue("threads");
    long workMs = context.options().longValue("work-ms");
    Truth truth = context.truth();
    Work work = context.work();
    Object[] monitors = new Object[threads];
    boolean[] go = new boolean[threads];
    for (int i = 0; i < threads; i++) {
      monitors[i] = new Object();
    }
    go[0] = true;
    long started = 0;
    long[] notified = new long[threads];
    long[] ended = new long[threads];
    long[] lastWait = new long[threads];
    long[] checksums = new long[threads];
    List<String> names = Team.names("link", threads);
    Thread[] links = new Thread[threads];
    Throwable[] failures = new Throwable[threads];
    for (int k = 0; k < threads; k++) {
      int i = k;
      links[k] =
          new Thread(
              () -> {
                try {
                  long waited = 0;
                  synchronized (monitors[i]) {
                    while (!go[i]) {
                      long t0 = System.nanoTime();
                      lastWait[i] = t0;
                      monitors[i].wait();
                      waited += System.nanoTime() - t0;
                    }
                  }
                  truth.add(TruthKinds.CONDITION_WAIT_NS, waited);
                  long t0 = System.nanoTime();
                  checksums[i] = work.run((i + 1) * workMs, i);
                  truth.add(TruthKinds.BUSY_NS, System.nanoTime() - t0);
                  if (i + 1 < threads) {
                    synchronized (monitors[i + 1]) {
                      notified[i] = System.nanoTime();
                      go[i + 1] = true;
                      monitors[i + 1].notify();
                    }
                  }
                  ended[i] = System.nanoTime();
                } catch (Throwable t) {
                  failures[i] = t;
                }
              },
              names.get(i));
    }
    // The chain starts at main's start of link-0: the thread's start-up is on the path.
    for (int i = threads - 1; i >= 0; i--) {
      if (i == 0) {
        started = System.nanoTime();
      }
      links[i].start();
    }
    for (Thread link : links) {
      long t0 = System.nanoTime();
      link.join();
      truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
    }
    for (Throwable t : failures) {
      if (t != null) {
        throw new IllegalStateException(t);
      }
    }
    for (int i = 0; i < threads; i++) {
      long from = i == 0 ? started : notified[i - 1];
      long to = i + 1 < threads ? notified[i] : ended[i];
      truth.add(TruthKinds.CRITICAL_PATH_NS, names.get(i), Math.max(0, to - from));
      // The wait that link-(i+1)'s notification ended is charged to link-i, less the part in which
      // link-i itself still waited for link-(i-1) (a long-term cost further up the chain).
      long caused = 0;
      if (i + 1 < threads && lastWait[i + 1] != 0) {
        caused = Math.max(0, notified[i] - lastWait[i + 1]);
        if (i > 0 && lastWait[i] != 0) {
          long waitedBoth = Math.max(lastWait[i + 1], lastWait[i]);
          caused -= Math.max(0, Math.min(notified[i], notified[i - 1]) - waitedBoth);
        }
      }
      truth.add(TruthKinds.DELAY_COST_CONDITION_NS, names.get(i), caused);
    }
    long checksum = 0;
    for (long c : checksums) {
      checksum += c;
    }
    return Work.jsonSafe(checksum);
  }
}
