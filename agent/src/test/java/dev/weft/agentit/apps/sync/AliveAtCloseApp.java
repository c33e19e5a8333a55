package dev.weft.agentit.apps.sync;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A thread started during the recording that records a few events and then computes, without
 * another event, until the JVM exits: {@code busy} is alive at the close, with a stream of three
 * events. Its CPU and run-queue times must be read for it there; it never names its Linux thread id
 * itself.
 */
public final class AliveAtCloseApp {
  /** How long main lets {@code busy} compute before it returns (and the JVM exits). */
  public static final long COMPUTE_MS = 400;

  private static volatile long sink;

  public static void main(String[] args) throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    Thread busy =
        new Thread(
            () -> {
              ReentrantLock lock = new ReentrantLock();
              lock.lock();
              try {
                sink++;
              } finally {
                lock.unlock();
              }
              started.countDown();
              long x = 0;
              while (true) { // until the JVM exits: a daemon
                x = x * 31 + 7;
                if (x == 42) {
                  sink = x;
                }
              }
            },
            "busy");
    busy.setDaemon(true);
    busy.start();
    started.await();
    Thread.sleep(COMPUTE_MS);
    System.out.println("done");
  }

  private AliveAtCloseApp() {}
}
