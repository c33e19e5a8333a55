package dev.weft.agentit.apps.sync;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/** Work for the test apps of libraries' own pools: tasks of a given length, and a steady stream. */
final class PoolWork {
  private PoolWork() {}

  /** Computes for about {@code ns} nanoseconds of wall-clock time. */
  static long computeFor(long ns) {
    long x = 0;
    for (long end = System.nanoTime() + ns; System.nanoTime() < end; ) {
      x = x * 31 + 7;
    }
    return x;
  }

  /**
   * Across an attach: a "submitter" thread executes a task of about half a millisecond in {@code
   * pool} every millisecond; once the workers run them (half a second), the agent {@code args[1]}
   * is loaded with options {@code args[2]}, records for {@code recordMs} ms and is detached; then
   * the submitter stops. Returns how many tasks ran.
   */
  static long submittedAcrossAttach(Executor pool, String[] args, long recordMs) throws Exception {
    AtomicLong ran = new AtomicLong();
    AtomicLong stop = new AtomicLong();
    Thread submitter =
        new Thread(
            () -> {
              for (long n = 1; stop.get() == 0; n++) {
                long task = n; // captured: a task object of its own each time, as a task's must be
                pool.execute(
                    () -> {
                      computeFor(500_000);
                      ran.addAndGet(task > 0 ? 1 : 0);
                    });
                try {
                  Thread.sleep(1);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "submitter");
    submitter.start();
    Thread.sleep(500); // the workers run tasks in their loops
    SelfAttach.loadAgent(args[1], args[2]);
    Thread.sleep(recordMs);
    SelfAttach.detach();
    stop.set(1);
    submitter.join();
    return ran.get();
  }

  /**
   * Executes {@code tasks} tasks of about a millisecond each in {@code pool}, in {@code batches}
   * batches 30 ms apart (so that the workers wait for their next task in between), and waits for
   * them; returns how many ran.
   */
  static long inBatches(Executor pool, int tasks, int batches) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(tasks);
    for (int b = 0; b < batches; b++) {
      for (int i = 0; i < tasks / batches; i++) {
        pool.execute(
            () -> {
              computeFor(1_000_000);
              done.countDown();
            });
      }
      Thread.sleep(30);
    }
    done.await();
    return tasks - done.getCount();
  }

  /** Prints whether {@code pool} (stopped) rejects one more task: "rejected" or "not rejected". */
  static void printRejection(Executor pool) {
    try {
      pool.execute(() -> {});
      System.out.println("not rejected");
    } catch (RejectedExecutionException expected) {
      System.out.println("rejected");
    }
  }
}
