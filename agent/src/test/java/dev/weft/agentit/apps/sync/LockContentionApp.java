package dev.weft.agentit.apps.sync;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * N worker threads contend for one lock, each holding it for a known time: {@code LockContentionApp
 * MODE N HOLD_MS OUT} with MODE {@code reentrant} (a ReentrantLock), {@code block} (a synchronized
 * block) or {@code method} (a synchronized method). The main thread takes the lock first and
 * releases it, after holding it for HOLD_MS more, only once every worker waits for it, so each
 * worker waits at least for the holds before its own.
 *
 * <p>Each worker measures its own wait (from just before asking for the lock to just after getting
 * it) and the measurements go to the file OUT ("worker-K NANOS" per line), so that stdout stays the
 * same from run to run.
 */
public final class LockContentionApp {
  private static final ConcurrentLinkedQueue<String> waits = new ConcurrentLinkedQueue<>();
  private static long holdMs;

  /** The lock of the {@code method} mode: its synchronized method is the contended one. */
  static final class Shared {
    synchronized void hold(long askedAt) throws InterruptedException { // synchronized method
      record(askedAt);
      Thread.sleep(holdMs);
    }
  }

  private static void record(long askedAt) {
    waits.add(Thread.currentThread().getName() + " " + (System.nanoTime() - askedAt));
  }

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    int n = Integer.parseInt(args[1]);
    holdMs = Long.parseLong(args[2]);
    Path out = Path.of(args[3]);
    ReentrantLock lock = new ReentrantLock();
    Object monitor = new Object();
    Shared shared = new Shared();
    List<Thread> workers = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      workers.add(
          new Thread(
              () -> {
                try {
                  // Before measuring: a first traced event opens the thread's trace stream (a
                  // file), which the measured wait should not include.
                  Thread.sleep(1);
                  long askedAt = System.nanoTime();
                  switch (mode) {
                    case "reentrant":
                      lock.lock(); // worker lock site
                      try {
                        record(askedAt);
                        Thread.sleep(holdMs);
                      } finally {
                        lock.unlock(); // worker unlock site
                      }
                      break;
                    case "block":
                      synchronized (monitor) { // worker synchronized site
                        record(askedAt);
                        Thread.sleep(holdMs);
                      }
                      break;
                    default:
                      shared.hold(askedAt);
                      break;
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "worker-" + k));
    }
    switch (mode) {
      case "reentrant":
        lock.lock();
        try {
          workers.forEach(Thread::start);
          while (lock.getQueueLength() < n) {
            Thread.sleep(1);
          }
          Thread.sleep(holdMs);
        } finally {
          lock.unlock();
        }
        break;
      case "block":
        synchronized (monitor) {
          startAndWaitUntilBlocked(workers);
        }
        break;
      default:
        synchronized (shared) {
          startAndWaitUntilBlocked(workers);
        }
        break;
    }
    for (Thread t : workers) {
      t.join();
    }
    write(out);
    System.out.println(mode + ": " + n + " workers held the lock in turn");
  }

  private static void startAndWaitUntilBlocked(List<Thread> workers) throws InterruptedException {
    workers.forEach(Thread::start);
    while (!workers.stream().allMatch(t -> t.getState() == Thread.State.BLOCKED)) {
      Thread.sleep(1);
    }
    Thread.sleep(holdMs);
  }

  private static void write(Path out) throws IOException {
    Files.write(out, new ArrayList<>(waits));
  }
}
