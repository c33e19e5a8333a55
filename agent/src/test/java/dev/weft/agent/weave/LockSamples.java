package dev.weft.agent.weave;

import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/** Calls of the lock families' targets, directly and through method references, for weaving. */
public final class LockSamples {
  private LockSamples() {}

  /** An action that may throw anything. */
  public interface Action {
    void run() throws Exception;
  }

  public static void lockAndUnlock(Lock lock) {
    lock.lock();
    lock.unlock();
  }

  public static int lockTwiceInterruptibly(ReentrantLock lock) throws Exception {
    lock.lockInterruptibly();
    Action again = lock::lockInterruptibly;
    again.run();
    int holds = lock.getHoldCount();
    lock.unlock();
    lock.unlock();
    return holds;
  }

  public static boolean tryLockByReference(ReentrantLock lock) {
    BooleanSupplier attempt = lock::tryLock;
    boolean acquired = attempt.getAsBoolean();
    lock.unlock();
    return acquired;
  }

  public static void lockInterruptiblyWhenInterrupted(ReentrantLock lock) throws Exception {
    Action acquire = lock::lockInterruptibly;
    Thread.currentThread().interrupt();
    acquire.run();
  }

  public static int readThenWrite(ReentrantReadWriteLock lock) {
    lock.readLock().lock();
    lock.readLock().unlock();
    Runnable write = lock.writeLock()::lock;
    write.run();
    lock.writeLock().unlock();
    return lock.getWriteHoldCount();
  }

  public static boolean stamps(StampedLock lock) {
    long write = lock.writeLock();
    lock.unlockWrite(write);
    LongSupplier read = lock::tryReadLock;
    long stamp = read.getAsLong();
    lock.unlockRead(stamp);
    return stamp != 0;
  }

  public static void unlockReadNotHeld(StampedLock lock) {
    lock.unlockRead(1L);
  }

  public static boolean permits(Semaphore semaphore) throws Exception {
    semaphore.acquire();
    semaphore.release();
    BooleanSupplier attempt = semaphore::tryAcquire;
    boolean first = attempt.getAsBoolean();
    boolean second = attempt.getAsBoolean();
    return first && !second;
  }

  public static void acquireWhenInterrupted(Semaphore semaphore) throws Exception {
    Action acquire = semaphore::acquire;
    Thread.currentThread().interrupt();
    acquire.run();
  }

  /** Lock classes subclassed, called through the subclasses' own static types. */
  public static final class OwnLock extends ReentrantLock {}

  public static final class OwnSemaphore extends Semaphore {
    public OwnSemaphore(int permits) {
      super(permits);
    }
  }

  public static final class OwnStampedLock extends StampedLock {}

  public static boolean subclasses(OwnLock lock, OwnSemaphore semaphore, OwnStampedLock stamped)
      throws Exception {
    lock.lock();
    lock.unlock();
    semaphore.acquire();
    semaphore.release();
    stamped.unlockWrite(stamped.writeLock());
    return true;
  }
}
