package dev.weft.agentit.apps.sync;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@code Lock} of the program's own, built on a {@code ReentrantLock} (as Lucene's {@code
 * DocumentsWriterPerThread} is): taken through its class and given back through the {@code Lock}
 * interface, and the other way round, and tried through its class.
 */
public final class OwnLockApp {
  /** Delegates to a ReentrantLock. */
  static final class DelegatingLock implements Lock {
    private final ReentrantLock inner = new ReentrantLock();

    @Override
    public void lock() {
      inner.lock(); // inner lock site
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
      inner.lockInterruptibly();
    }

    @Override
    public boolean tryLock() {
      return inner.tryLock(); // inner try site
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
      return inner.tryLock(time, unit);
    }

    @Override
    public void unlock() {
      inner.unlock(); // inner unlock site
    }

    @Override
    public Condition newCondition() {
      return inner.newCondition();
    }
  }

  public static void main(String[] args) {
    DelegatingLock own = new DelegatingLock();
    Lock asLock = own;
    long sum = 0;
    for (int i = 0; i < 3; i++) {
      own.lock(); // class lock site
      try {
        sum += i;
      } finally {
        asLock.unlock(); // interface unlock site
      }
      asLock.lock(); // interface lock site
      try {
        sum += i;
      } finally {
        own.unlock(); // class unlock site
      }
      if (own.tryLock()) { // class try site
        try {
          sum += i;
        } finally {
          own.unlock();
        }
      }
    }
    System.out.println("sum: " + sum);
  }

  private OwnLockApp() {}
}
