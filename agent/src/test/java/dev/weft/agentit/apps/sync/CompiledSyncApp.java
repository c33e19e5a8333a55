package dev.weft.agentit.apps.sync;

import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hot methods with woven synchronisation, called often enough for both JIT compilers: the JVM gives
 * up compiling a method whose monitors it cannot prove balanced, or whose exception handlers it
 * cannot merge, so woven code that broke either would run interpreted for ever.
 */
public final class CompiledSyncApp {
  private static final Object monitor = new Object();
  private static long counter;
  private final ReentrantLock lock = new ReentrantLock();
  private final Semaphore permits = new Semaphore(2);

  static synchronized void staticMethod() {
    counter++;
  }

  synchronized long instanceMethod(long x) {
    for (int i = 0; i < 3; i++) {
      x += i;
    }
    return x + counter;
  }

  synchronized void methodWithBlock() {
    synchronized (monitor) {
      counter++;
    }
  }

  static void block() {
    synchronized (monitor) {
      counter++;
    }
  }

  static void nestedBlocks() {
    synchronized (monitor) {
      synchronized (CompiledSyncApp.class) {
        counter++;
      }
    }
  }

  static void loopInBlock() {
    synchronized (monitor) {
      while (counter % 7 != 0) {
        counter++;
      }
    }
  }

  static void blockWithTryCatch() {
    synchronized (monitor) {
      try {
        counter += Long.parseLong("1");
      } catch (NumberFormatException e) {
        counter--;
      }
    }
  }

  void lockCalls() {
    lock.lock();
    try {
      counter++;
    } finally {
      lock.unlock();
    }
  }

  void interruptibleInBlock() throws InterruptedException {
    synchronized (monitor) {
      lock.lockInterruptibly();
      try {
        counter++;
      } finally {
        lock.unlock();
      }
    }
  }

  synchronized void waitInMethod() throws InterruptedException {
    if (counter < 0) {
      wait(1);
    }
    notifyAll();
  }

  void permit() throws InterruptedException {
    permits.acquire();
    try {
      if (permits.tryAcquire()) {
        permits.release();
      }
    } finally {
      permits.release();
    }
  }

  public static void main(String[] args) throws Exception {
    CompiledSyncApp app = new CompiledSyncApp();
    long x = 0;
    for (int i = 0; i < 30_000; i++) {
      staticMethod();
      x += app.instanceMethod(i);
      app.methodWithBlock();
      block();
      nestedBlocks();
      loopInBlock();
      blockWithTryCatch();
      app.lockCalls();
      app.interruptibleInBlock();
      app.waitInMethod();
      app.permit();
    }
    System.out.println("counter " + counter + ", sum " + x);
  }
}
