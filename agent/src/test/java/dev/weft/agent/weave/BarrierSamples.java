package dev.weft.agent.weave;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/** Calls of the barrier families' targets, directly and through method references, for weaving. */
public final class BarrierSamples {
  private BarrierSamples() {}

  /** An action with an int result that may throw anything. */
  public interface IntAction {
    int run() throws Exception;
  }

  /** An action that may throw anything. */
  public interface Action {
    void run() throws Exception;
  }

  public static int awaitAlone(CyclicBarrier barrier) throws Exception {
    IntAction await = barrier::await;
    return await.run() + 10 * barrier.await();
  }

  public static int awaitWhenInterrupted(CyclicBarrier barrier) throws Exception {
    Thread.currentThread().interrupt();
    return barrier.await();
  }

  public static int phases(Phaser phaser) {
    int arrived = phaser.arriveAndAwaitAdvance();
    IntSupplier arrive = phaser::arrive;
    return 10 * arrived + arrive.getAsInt();
  }

  public static int awaitPhaseTimesOut(Phaser phaser) throws Exception {
    return phaser.awaitAdvanceInterruptibly(phaser.getPhase(), 1, TimeUnit.MILLISECONDS);
  }

  public static boolean latch(CountDownLatch latch) throws Exception {
    Runnable countDown = latch::countDown;
    countDown.run();
    latch.await();
    return latch.await(1, TimeUnit.MILLISECONDS);
  }

  public static boolean latchTimesOut(CountDownLatch latch) throws Exception {
    return latch.await(1, TimeUnit.MILLISECONDS);
  }

  public static void latchWhenInterrupted(CountDownLatch latch) throws Exception {
    Action await = latch::await;
    Thread.currentThread().interrupt();
    await.run();
  }

  /** A latch subclass, as libraries make them (a blocking subscriber that is its own latch). */
  public static final class OwnLatch extends CountDownLatch {
    public OwnLatch(int count) {
      super(count);
    }
  }

  /** A phaser subclass with its own advance rule. */
  public static final class OwnPhaser extends Phaser {
    public OwnPhaser(int parties) {
      super(parties);
    }

    @Override
    protected boolean onAdvance(int phase, int registeredParties) {
      return false;
    }
  }

  /** A barrier subclass. */
  public static final class OwnBarrier extends CyclicBarrier {
    public OwnBarrier(int parties) {
      super(parties);
    }
  }

  /** The calls made through the subclasses' own static types. */
  public static int subclasses(OwnLatch latch, OwnPhaser phaser, OwnBarrier barrier)
      throws Exception {
    latch.countDown();
    latch.await();
    return phaser.arriveAndAwaitAdvance() + 10 * barrier.await();
  }
}
