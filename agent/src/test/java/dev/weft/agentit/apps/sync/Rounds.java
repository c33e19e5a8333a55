package dev.weft.agentit.apps.sync;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Rounds done by each worker of a looping test app, so that a recording window holds enough of
 * them: on a busy host a fixed window holds few rounds, and a comparison over a handful of waits
 * says little.
 */
final class Rounds {
  private final AtomicIntegerArray done;

  Rounds(int workers) {
    done = new AtomicIntegerArray(workers);
  }

  /** Worker {@code index} finished a round. */
  void done(int index) {
    done.incrementAndGet(index);
  }

  /** The rounds done so far, per worker. */
  int[] mark() {
    int[] m = new int[done.length()];
    for (int i = 0; i < m.length; i++) {
      m[i] = done.get(i);
    }
    return m;
  }

  /**
   * Returns once every worker has done at least {@code min} rounds since {@code mark}, or after
   * {@code maxMillis}.
   */
  void awaitEach(int[] mark, int min, long maxMillis) throws InterruptedException {
    long until = System.nanoTime() + maxMillis * 1_000_000;
    while (System.nanoTime() < until) {
      boolean enough = true;
      for (int i = 0; i < mark.length && enough; i++) {
        enough = done.get(i) - mark[i] >= min;
      }
      if (enough) {
        return;
      }
      Thread.sleep(20);
    }
  }
}
