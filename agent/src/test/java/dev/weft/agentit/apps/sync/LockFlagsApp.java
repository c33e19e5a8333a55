package dev.weft.agentit.apps.sync;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;

/**
 * Lock acquisitions of every flavour, each at a marked line: exceptions leaving synchronized code,
 * failed and timed-out tries, an interrupted acquisition, re-entrant ones, shared ones (read locks,
 * permits), stamped locks, and JDK classes that lock internally (which must not show up).
 */
public final class LockFlagsApp {
  private static final Object monitor = new Object();
  private final ReentrantLock lock = new ReentrantLock();

  public static void main(String[] args) throws Exception {
    LockFlagsApp app = new LockFlagsApp();
    app.exceptions();
    app.tries();
    app.reentrant();
    app.readWrite();
    stamped();
    semaphore();
    jdkInternals();
  }

  synchronized void failing() { // failing synchronized method
    throw new IllegalStateException("inside a synchronized method");
  }

  synchronized int outer() { // outer synchronized method
    return inner() + 1;
  }

  synchronized int inner() { // inner synchronized method
    return 41;
  }

  private void exceptions() {
    try {
      synchronized (monitor) { // throwing synchronized block
        throw new IllegalStateException("inside a synchronized block");
      }
    } catch (IllegalStateException e) {
      System.out.println("block: " + e.getMessage());
    }
    try {
      failing();
    } catch (IllegalStateException e) {
      System.out.println("method: " + e.getMessage());
    }
  }

  private void tries() throws InterruptedException {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    Thread holder =
        new Thread(
            () -> {
              lock.lock(); // holder lock site
              held.countDown();
              try {
                done.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                lock.unlock();
              }
            },
            "holder");
    holder.start();
    held.await();
    System.out.println("tryLock: " + lock.tryLock()); // failed try site
    System.out.println(
        "timed tryLock: " + lock.tryLock(20, TimeUnit.MILLISECONDS)); // timed try site
    Thread interrupted =
        new Thread(
            () -> {
              try {
                lock.lockInterruptibly(); // interrupted lock site
                lock.unlock();
              } catch (InterruptedException e) {
                System.out.println("lockInterruptibly interrupted");
              }
            },
            "interrupted");
    interrupted.start();
    while (!lock.hasQueuedThread(interrupted)) {
      Thread.sleep(1);
    }
    interrupted.interrupt();
    interrupted.join();
    done.countDown();
    holder.join();
  }

  private void reentrant() {
    synchronized (monitor) { // outer monitor site
      synchronized (monitor) { // inner monitor site
        System.out.println("nested monitors");
      }
    }
    lock.lock(); // outer lock site
    try {
      lock.lock(); // inner lock site
      try {
        System.out.println("nested locks: " + lock.getHoldCount());
      } finally {
        lock.unlock();
      }
    } finally {
      lock.unlock();
    }
    System.out.println("nested synchronized methods: " + outer());
    synchronized (monitor) {
      synchronized (monitor) {
        try {
          monitor.wait(1); // nested wait site
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private void readWrite() {
    ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
    rw.readLock().lock(); // read lock site
    rw.readLock().lock(); // second read lock site
    rw.readLock().unlock();
    rw.readLock().unlock();
    Lock write = rw.writeLock();
    write.lock(); // write lock site
    write.unlock();
    System.out.println("read/write lock used");
  }

  private static void stamped() {
    StampedLock sl = new StampedLock();
    long read = sl.readLock(); // stamped read site
    long failed = sl.tryWriteLock(); // stamped failed try site
    sl.unlockRead(read);
    long write = sl.writeLock(); // stamped write site
    sl.unlockWrite(write);
    Lock view = sl.asReadLock();
    view.lock(); // stamped view site
    view.unlock();
    System.out.println("stamped lock: try while read-locked gave " + failed);
  }

  private static void semaphore() throws InterruptedException {
    Semaphore permits = new Semaphore(1);
    permits.acquire(); // semaphore acquire site
    System.out.println("second permit: " + permits.tryAcquire()); // semaphore try site
    permits.release(); // semaphore release site
  }

  private static void jdkInternals() throws InterruptedException {
    LinkedBlockingQueue<Integer> queue = new LinkedBlockingQueue<>();
    queue.put(1);
    ConcurrentHashMap<String, Integer> map = new ConcurrentHashMap<>();
    map.computeIfAbsent("a", k -> 1);
    StringBuffer buffer = new StringBuffer("synchronized inside");
    System.out.println("jdk internals: " + queue.take() + map.get("a") + buffer.length());
  }
}
