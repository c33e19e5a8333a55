package dev.weft.agent.weave;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;

/** Calls of the wait and spin families' targets, directly and through method references. */
public final class WaitSamples {
  private WaitSamples() {}

  /** An action on a long that may throw anything. */
  public interface LongAction {
    void run(long value) throws Exception;
  }

  /** An action that may throw anything. */
  public interface Action {
    void run() throws Exception;
  }

  public static String objectWait(Object monitor) throws Exception {
    synchronized (monitor) {
      monitor.wait(1);
      Runnable notifyAll = monitor::notifyAll;
      notifyAll.run();
    }
    return "woke";
  }

  public static void waitWithoutMonitor(Object monitor) throws Exception {
    Action wait = monitor::wait;
    wait.run();
  }

  public static String sleepAndPark() throws Exception {
    LongAction sleep = Thread::sleep;
    sleep.run(1);
    LockSupport.unpark(Thread.currentThread());
    LongConsumer park = LockSupport::parkNanos;
    park.accept(1_000_000);
    return "rested";
  }

  public static void sleepWhenInterrupted() throws Exception {
    Thread.currentThread().interrupt();
    Thread.sleep(1_000);
  }

  public static boolean conditionAwait(ReentrantLock lock, Condition condition) throws Exception {
    lock.lock();
    try {
      Runnable signal = condition::signal;
      signal.run();
      return condition.await(1, TimeUnit.MILLISECONDS);
    } finally {
      lock.unlock();
    }
  }

  public static void awaitWithoutLock(Condition condition) throws Exception {
    Action await = condition::await;
    await.run();
  }

  public static int spin() {
    Thread.onSpinWait();
    Runnable yield = Thread::yield;
    yield.run();
    return 2;
  }
}
