package dev.weft.testapps;

import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * Join-wait truth for fork-join code, where a thread blocked in {@code join} may run other tasks
 * meanwhile (helping): join wait = join duration − time spent running tasks inside the join.
 *
 * <p>Each thread keeps a stack of frames, one per task body or join it is in; a finished task body
 * adds its whole duration to the enclosing frame, and a join subtracts what its frame collected.
 * Tasks run inside a helped task count once, in the outermost join that contains them.
 */
public final class JoinClock {
  private final ThreadLocal<Frames> frames = ThreadLocal.withInitial(Frames::new);

  /** Call first thing in a task body; pass the result to {@link #taskEnded}. */
  public long taskStarted() {
    frames.get().push();
    return System.nanoTime();
  }

  /** Call last thing in a task body (in a {@code finally}). */
  public void taskEnded(long started) {
    long duration = System.nanoTime() - started;
    Frames f = frames.get();
    f.pop();
    f.addToTop(duration);
  }

  /** Runs {@code join} and records its wait, minus any task run inside it, as join wait. */
  public <T> T join(Callable<T> join, Truth truth) throws Exception {
    Frames f = frames.get();
    f.push();
    long t0 = System.nanoTime();
    try {
      return join.call();
    } finally {
      long duration = System.nanoTime() - t0;
      truth.add(TruthKinds.JOIN_WAIT_NS, duration - f.pop());
    }
  }

  /** Per-thread stack of the time collected by each open frame; index 0 is the thread's base. */
  private static final class Frames {
    long[] collected = new long[32];
    int depth;

    void push() {
      depth++;
      if (depth == collected.length) {
        collected = Arrays.copyOf(collected, depth * 2);
      }
      collected[depth] = 0;
    }

    long pop() {
      return collected[depth--];
    }

    void addToTop(long ns) {
      collected[depth] += ns;
    }
  }
}
