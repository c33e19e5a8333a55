package dev.weft.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The cost of an uncontended lock pair in the measuring thread's own CPU time, which, unlike JMH's
 * wall-clock average, does not grow when other processes take the cores: on a shared host the
 * difference between a run with and one without the agent stays readable.
 *
 * <p>{@code java -cp benchmarks.jar dev.weft.bench.LockPairCpu [ROUNDS [NAME]]} prints, per
 * construct (or for NAME only, e.g. to profile it; {@code queueOfferPoll} is a queue's offer and
 * poll, the offer a possible hand-over), the median and range over ROUNDS rounds of ns of thread
 * CPU per pair, and System.nanoTime()'s cost measured the same way. Run it without and with {@code
 * -javaagent:weft-agent.jar} (see benchmarks/lock-pair.sh).
 */
public final class LockPairCpu {
  private static final int PAIRS = 200_000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final ReentrantLock lock = new ReentrantLock();
  private final Object monitor = new Object();
  private final ArrayBlockingQueue<Object> queue = new ArrayBlockingQueue<>(16);
  private long counter;
  private long sink;

  long reentrantLock(int n) {
    for (int i = 0; i < n; i++) {
      lock.lock();
      try {
        ++counter;
      } finally {
        lock.unlock();
      }
    }
    return counter;
  }

  long synchronizedBlock(int n) {
    for (int i = 0; i < n; i++) {
      synchronized (monitor) {
        ++counter;
      }
    }
    return counter;
  }

  /**
   * An element offered to a queue and polled back, with no consumer in a take: the offer is a
   * possible hand-over, which the agent records only while some consumer waits.
   */
  long queueOfferPoll(int n) {
    for (int i = 0; i < n; i++) {
      queue.offer(monitor);
      if (queue.poll() != null) {
        ++counter;
      }
    }
    return counter;
  }

  /**
   * {@link #queueOfferPoll} while another thread waits in a take from another queue: every offer is
   * then recorded as a possible hand-over (its NOTIFY). The waiting thread is started and stopped
   * in each round (about 0.5 ns per pair of the round's time, outside the agent).
   */
  long queueOfferPollWhileConsumerWaits(int n) {
    BlockingQueue<Object> never = new ArrayBlockingQueue<>(1);
    Thread consumer =
        new Thread(
            () -> {
              try {
                never.take();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "waiting-consumer");
    consumer.setDaemon(true);
    consumer.start();
    while (consumer.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    long c = queueOfferPoll(n);
    consumer.interrupt();
    try {
      consumer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return c;
  }

  long nanoTime(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) {
      s += System.nanoTime();
    }
    return s;
  }

  long baseline(int n) {
    for (int i = 0; i < n; i++) {
      ++counter;
    }
    return counter;
  }

  private interface Loop {
    long run(int n);
  }

  /** Thread CPU ns per operation of one round. */
  private double round(Loop loop) {
    long t0 = THREADS.getCurrentThreadCpuTime();
    sink += loop.run(PAIRS);
    return (THREADS.getCurrentThreadCpuTime() - t0) / (double) PAIRS;
  }

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 41;
    LockPairCpu b = new LockPairCpu();
    String[] names = {
      "baseline",
      "nanoTime",
      "reentrantLock",
      "synchronizedBlock",
      "queueOfferPoll",
      "queueOfferPollWhileConsumerWaits"
    };
    Loop[] loops = {
      b::baseline,
      b::nanoTime,
      b::reentrantLock,
      b::synchronizedBlock,
      b::queueOfferPoll,
      b::queueOfferPollWhileConsumerWaits
    };
    for (int w = 0; w < 20; w++) { // warm-up: every loop compiled before measuring
      for (Loop l : loops) {
        b.round(l);
      }
    }
    double[][] ns = new double[loops.length][rounds];
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < loops.length; i++) {
        if (args.length < 2 || names[i].equals(args[1])) {
          ns[i][r] = b.round(loops[i]);
        }
      }
    }
    for (int i = 0; i < loops.length; i++) {
      if (args.length > 1 && !names[i].equals(args[1])) {
        continue;
      }
      Arrays.sort(ns[i]);
      System.out.printf(
          "%s %.2f %.2f %.2f%n", names[i], ns[i][rounds / 2], ns[i][0], ns[i][rounds - 1]);
    }
    if (b.sink == 42) {
      System.out.println();
    }
  }
}
