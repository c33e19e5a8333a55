package dev.weft.testapps;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fixed team of named platform threads: starts them, then joins them from the calling thread,
 * recording the join as the caller's {@link TruthKinds#JOIN_WAIT_NS}.
 */
public final class Team {
  /** The body of team member {@code index}. */
  @FunctionalInterface
  public interface Body {
    /** Runs member {@code index}'s part. */
    void run(int index) throws Exception;
  }

  private Team() {}

  /** {@code prefix-0} .. {@code prefix-(size-1)}. */
  public static List<String> names(String prefix, int size) {
    List<String> names = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      names.add(prefix + "-" + i);
    }
    return names;
  }

  /**
   * Runs {@code body} on one thread per name and waits for all of them.
   *
   * @throws Exception the first exception a member threw, after all members ended
   */
  public static void run(List<String> names, Body body, Truth truth) throws Exception {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] threads = new Thread[names.size()];
    for (int i = 0; i < threads.length; i++) {
      int index = i;
      threads[i] =
          new Thread(
              () -> {
                try {
                  body.run(index);
                } catch (Throwable t) {
                  // Wake the others (they may wait for this one at a barrier) so the run ends.
                  if (failure.compareAndSet(null, t)) {
                    for (Thread other : threads) {
                      other.interrupt();
                    }
                  }
                }
              },
              names.get(i));
    }
    for (Thread thread : threads) {
      thread.start();
    }
    if (failure.get() != null) {
      // A member failed before all were started; interrupt again, now that every one is alive.
      for (Thread thread : threads) {
        thread.interrupt();
      }
    }
    for (Thread thread : threads) {
      long t0 = System.nanoTime();
      thread.join();
      truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
    }
    Throwable t = failure.get();
    if (t instanceof Exception) {
      throw (Exception) t;
    } else if (t != null) {
      throw new IllegalStateException(t);
    }
  }
}
