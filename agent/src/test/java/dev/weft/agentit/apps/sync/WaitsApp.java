package dev.weft.agentit.apps.sync;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Waiting in all the ways the waits family records: wait/notify and Condition await/signal
 * ping-pong between two threads, sleeps, park/unpark, and spin loops (onSpinWait and yield).
 */
public final class WaitsApp {
  public static final int ROUNDS = 5;
  public static final long SPIN_MS = 60;
  public static final long WORK_MS = 5;

  private static final Object monitor = new Object();
  private static int turn;
  private static volatile boolean released;
  private static volatile long spinCalls;

  public static void main(String[] args) throws Exception {
    monitorPingPong();
    conditionPingPong();
    sleeps();
    parking();
    spinning();
  }

  private static void monitorPingPong() throws InterruptedException {
    Thread ping = new Thread(() -> monitorPlayer(0), "monitor-ping");
    Thread pong = new Thread(() -> monitorPlayer(1), "monitor-pong");
    startWhenWaiting(ping, pong);
    ping.join();
    pong.join();
    System.out.println("wait/notify: " + ROUNDS + " rounds");
  }

  private static void monitorPlayer(int me) {
    for (int round = 0; round < ROUNDS; round++) {
      synchronized (monitor) { // ping-pong synchronized site
        while (turn != me) {
          try {
            monitor.wait(); // wait site
          } catch (InterruptedException e) {
            return;
          }
        }
        turn = 1 - me;
        monitor.notifyAll(); // notify site
      }
    }
  }

  private static void conditionPingPong() throws InterruptedException {
    ReentrantLock lock = new ReentrantLock();
    Condition changed = lock.newCondition();
    int[] conditionTurn = {0};
    Runnable[] players = new Runnable[2];
    for (int p = 0; p < 2; p++) {
      int me = p;
      players[p] =
          () -> {
            for (int round = 0; round < ROUNDS; round++) {
              lock.lock(); // condition lock site
              try {
                while (conditionTurn[0] != me) {
                  changed.await(); // await site
                }
                conditionTurn[0] = 1 - me;
                changed.signalAll(); // signal site
              } catch (InterruptedException e) {
                return;
              } finally {
                lock.unlock();
              }
            }
          };
    }
    Thread ping = new Thread(players[0], "condition-ping");
    Thread pong = new Thread(players[1], "condition-pong");
    startWhenWaiting(ping, pong);
    ping.join();
    pong.join();
    System.out.println("await/signal: " + ROUNDS + " rounds");
  }

  /** Starts {@code second} once {@code first} waits for its turn, so that some waits happen. */
  private static void startWhenWaiting(Thread first, Thread second) throws InterruptedException {
    first.start();
    while (first.getState() != Thread.State.WAITING) {
      Thread.sleep(1);
    }
    second.start();
  }

  private static void sleeps() throws InterruptedException {
    Thread.sleep(30); // sleep site
    TimeUnit.MILLISECONDS.sleep(20); // time unit sleep site
    System.out.println("slept");
  }

  private static void parking() throws InterruptedException {
    Thread parker =
        new Thread(
            () -> {
              while (!released) {
                LockSupport.park(monitor); // park site
              }
            },
            "parker");
    parker.start();
    // the parker must be parked before it is released: on a loaded host it may start after 30 ms
    while (LockSupport.getBlocker(parker) != monitor) {
      Thread.sleep(1);
    }
    Thread.sleep(30);
    released = true;
    LockSupport.unpark(parker); // unpark site
    parker.join();
    System.out.println("unparked");
  }

  private static void spinning() throws InterruptedException {
    released = false;
    Thread spinner =
        new Thread(
            () -> {
              while (!released) {
                Thread.onSpinWait(); // spin site
                spinCalls++;
              }
              workThenYield(WORK_MS * 1_000_000, SPIN_MS * 1_000_000);
              try {
                Thread.sleep(1); // the spin ends before this wait
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "spinner");
    spinner.start();
    // however the host schedules the spinner, its spin begins before main's sleep and goes on after
    // it: a spin call returns before main sleeps, and a whole one runs after the sleep ended
    awaitSpinCalls(1);
    Thread.sleep(SPIN_MS); // spin release sleep
    awaitSpinCalls(spinCalls + 2);
    released = true;
    spinner.join();
    System.out.println("spun");
  }

  /** Waits, without calls the agent records, until the spinner has made {@code n} spin calls. */
  private static void awaitSpinCalls(long n) {
    while (spinCalls < n) {
      // plain loop: not a spin site
    }
  }

  /**
   * Works (no spin calls) for {@code workNanos} of CPU time, then yields for {@code yieldNanos}.
   * The work is counted in CPU time, not wall time: on a busy host a wall-clock loop may be
   * descheduled for most of its length, and a spin interrupted by descheduling is rightly still one
   * spin.
   */
  private static void workThenYield(long workNanos, long yieldNanos) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long busyUntil = threads.getCurrentThreadCpuTime() + workNanos;
    while (threads.getCurrentThreadCpuTime() < busyUntil) {
      // work: separates the two spins
    }
    long deadline = System.nanoTime() + yieldNanos;
    while (System.nanoTime() < deadline) {
      Thread.yield(); // yield site
    }
  }
}
