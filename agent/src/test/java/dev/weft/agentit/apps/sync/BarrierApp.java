package dev.weft.agentit.apps.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Barriers with staggered arrivals: party K of each barrier arrives (K + 1) x STAGGER after the
 * previous generation, and not before party K - 1 (a busy host may delay a thread), so the last
 * party arrives last. Then the ways a wait ends early: a barrier broken by a party's timeout, a
 * latch await that times out, one that is interrupted.
 */
public final class BarrierApp {
  static final long STAGGER_MS = 30;
  static final int PARTIES = 3;

  public static void main(String[] args) throws Exception {
    cyclicBarrier();
    phaser();
    latch();
    brokenAndTimedOut();
  }

  interface Party {
    void run(int k) throws Exception;
  }

  private static void parties(String name, Party party) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < PARTIES; k++) {
      int index = k;
      threads.add(
          new Thread(
              () -> {
                try {
                  party.run(index);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              },
              name + "-" + k));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
  }

  private static void cyclicBarrier() throws InterruptedException {
    CyclicBarrier barrier = new CyclicBarrier(PARTIES);
    int generations = 3;
    parties(
        "cyclic",
        k -> {
          for (int g = 0; g < generations; g++) {
            Thread.sleep((k + 1) * STAGGER_MS);
            while (barrier.getNumberWaiting() < k) {
              Thread.sleep(1); // on a busy host, a party may be late: keep the order
            }
            barrier.await(); // cyclic await site
          }
        });
    System.out.println("cyclic barrier: " + generations + " generations");
  }

  private static void phaser() throws InterruptedException {
    Phaser phaser = new Phaser(PARTIES);
    int phases = 4;
    parties(
        "phaser",
        k -> {
          for (int p = 0; p < phases; p++) {
            Thread.sleep((k + 1) * STAGGER_MS / 2);
            while (phaser.getArrivedParties() < k) {
              Thread.sleep(1);
            }
            phaser.arriveAndAwaitAdvance(); // phaser site
          }
        });
    System.out.println("phaser: " + phases + " phases, now in phase " + phaser.getPhase());
  }

  private static void latch() throws InterruptedException {
    CountDownLatch latch = new CountDownLatch(PARTIES);
    Thread counters =
        new Thread(
            () -> {
              try {
                parties(
                    "counter",
                    k -> {
                      Thread.sleep((k + 1) * STAGGER_MS);
                      while (latch.getCount() > PARTIES - k) {
                        Thread.sleep(1);
                      }
                      latch.countDown(); // count-down site
                    });
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "counters");
    counters.start();
    latch.await(); // latch await site
    counters.join();
    System.out.println("latch opened");
  }

  private static void brokenAndTimedOut() throws Exception {
    CyclicBarrier barrier = new CyclicBarrier(PARTIES); // the third party never comes
    String[] outcome = new String[2];
    Thread waiting =
        new Thread(
            () -> {
              try {
                barrier.await(); // broken await site
              } catch (BrokenBarrierException | InterruptedException e) {
                outcome[0] = e.getClass().getSimpleName();
              }
            },
            "broken");
    Thread timing =
        new Thread(
            () -> {
              try {
                Thread.sleep(STAGGER_MS);
                barrier.await(100, TimeUnit.MILLISECONDS); // timed await site
              } catch (BrokenBarrierException | InterruptedException | TimeoutException e) {
                outcome[1] = e.getClass().getSimpleName();
              }
            },
            "timing-out");
    waiting.start();
    timing.start();
    waiting.join();
    timing.join();
    System.out.println("barrier: " + outcome[0] + ", " + outcome[1]);

    CountDownLatch closed = new CountDownLatch(1);
    System.out.println("latch opened in time: " + closed.await(50, TimeUnit.MILLISECONDS));
    boolean[] interrupted = new boolean[1];
    Thread sleeper =
        new Thread(
            () -> {
              try {
                closed.await(); // interrupted await site
              } catch (InterruptedException e) {
                interrupted[0] = true;
              }
            },
            "interrupted");
    sleeper.start();
    while (sleeper.getState() != Thread.State.WAITING) {
      Thread.sleep(1);
    }
    sleeper.interrupt();
    sleeper.join();
    System.out.println("latch await interrupted: " + interrupted[0]);
  }
}
