package dev.weft.testapps;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A thread factory for a pool of known size that names its threads {@code prefix-<i>} and records
 * when each one began and ended running, so that idle time can be measured over each worker's own
 * lifetime (as a tracer sees it). No lock is taken: slots are indexed by creation order.
 */
public final class TrackedThreadFactory implements ThreadFactory {
  private final String prefix;
  private final AtomicReferenceArray<Thread> threads;
  private final AtomicLongArray began;
  private final AtomicLongArray ended;
  private final AtomicInteger created = new AtomicInteger();

  /** A factory for at most {@code size} threads. */
  public TrackedThreadFactory(String prefix, int size) {
    this.prefix = prefix;
    this.threads = new AtomicReferenceArray<>(size);
    this.began = new AtomicLongArray(size);
    this.ended = new AtomicLongArray(size);
  }

  /**
   * Makes thread {@code prefix-<i>}; more than {@code size} threads (a pool replacing a dead
   * worker) is an error.
   */
  @Override
  public Thread newThread(Runnable body) {
    int index = created.getAndIncrement();
    if (index >= threads.length()) {
      throw new IllegalStateException("pool '" + prefix + "' made more than its threads");
    }
    Thread thread =
        new Thread(
            () -> {
              began.set(index, System.nanoTime());
              try {
                body.run();
              } finally {
                ended.set(index, System.nanoTime());
              }
            },
            prefix + "-" + index);
    threads.set(index, thread);
    return thread;
  }

  /** Names of the threads made so far. */
  public List<String> names() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < created.get(); i++) {
      names.add(threads.get(i).getName());
    }
    return names;
  }

  /** When thread {@code i} began running (valid once it has started). */
  public long began(int i) {
    return began.get(i);
  }

  /** When thread {@code i} ended (valid after {@link #joinAll}). */
  public long ended(int i) {
    return ended.get(i);
  }

  /** Joins every thread made (the pool must be shut down), recording the caller's join wait. */
  public void joinAll(Truth truth) throws InterruptedException {
    for (int i = 0; i < created.get(); i++) {
      long t0 = System.nanoTime();
      threads.get(i).join();
      truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
    }
  }
}
