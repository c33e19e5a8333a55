package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import org.junit.jupiter.api.Test;

/** Each family's describer claims its own objects and describes them as the trace shows them. */
class ObjectDescribersTest {

  @Test
  void locksAreDescribedByTheirJdkClassAndKindWhateverTheSite() {
    assertLock(new ReentrantLock(), ConstructKind.REENTRANT_LOCK, "ReentrantLock");
    assertLock(
        new ReentrantReadWriteLock().readLock(),
        ConstructKind.READ_WRITE_LOCK,
        "ReentrantReadWriteLock");
    assertLock(new StampedLock().asWriteLock(), ConstructKind.STAMPED_LOCK, "StampedLock");
    assertLock(new Semaphore(2), ConstructKind.SEMAPHORE, "Semaphore");
    assertFalse(LockObjects.DESCRIBER.describes(new Object()));
    assertFalse(LockObjects.DESCRIBER.describes(new CyclicBarrier(2)));
  }

  private static void assertLock(Object lock, ConstructKind kind, String jdkClass) {
    assertTrue(LockObjects.DESCRIBER.describes(lock), jdkClass);
    assertFalse(BarrierObjects.DESCRIBER.describes(lock), jdkClass);
    ObjectDef def = LockObjects.DESCRIBER.describe(7, lock, ConstructKind.MONITOR);
    assertEquals(new ObjectDef(7, kind, "java.util.concurrent." + pkg(jdkClass), 0), def);
  }

  private static String pkg(String jdkClass) {
    return jdkClass.equals("Semaphore") ? jdkClass : "locks." + jdkClass;
  }

  @Test
  void barriersAreDescribedWithTheirPartiesAndTheKindOfTheirSite() {
    assertEquals(
        new ObjectDef(3, ConstructKind.CYCLIC_BARRIER, "java.util.concurrent.CyclicBarrier", 4),
        BarrierObjects.DESCRIBER.describe(3, new CyclicBarrier(4), ConstructKind.CYCLIC_BARRIER));
    assertEquals(
        new ObjectDef(4, ConstructKind.PHASER, "java.util.concurrent.Phaser", 2),
        BarrierObjects.DESCRIBER.describe(4, new Phaser(2), ConstructKind.PHASER));
    assertEquals(
        new ObjectDef(5, ConstructKind.COUNT_DOWN_LATCH, "java.util.concurrent.CountDownLatch", 5),
        BarrierObjects.DESCRIBER.describe(
            5, new CountDownLatch(5), ConstructKind.COUNT_DOWN_LATCH));
    assertFalse(BarrierObjects.DESCRIBER.describes(new Object()));
  }

  @Test
  void anyOtherObjectIsDescribedByItsClassAndTheKindOfItsSite() {
    assertEquals(
        new ObjectDef(9, ConstructKind.MONITOR, "java.lang.Object", 0),
        ObjectDescriber.OTHER.describe(9, new Object(), ConstructKind.MONITOR));
    // A nested java.util.concurrent.locks class shows as the JDK lock class it belongs to.
    Object condition = new ReentrantLock().newCondition();
    assertEquals(
        "java.util.concurrent.locks.AbstractQueuedSynchronizer",
        ObjectDescriber.OTHER.describe(9, condition, ConstructKind.NOTIFY).className());
  }

  @Test
  void poolsAreDescribedWithKindNameAndParallelism() throws InterruptedException {
    ForkJoinPool forkJoin = new ForkJoinPool(3);
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(2, 4, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
    try {
      int id = PoolObjects.idOf(forkJoin);
      assertTrue(id > 0);
      PoolDef def = PoolObjects.describe(id, forkJoin, false);
      assertEquals(ConstructKind.FORK_JOIN_POOL, def.kind());
      assertEquals(3, def.parallelism());
      assertEquals("java.util.concurrent.ForkJoinPool@" + Integer.toHexString(id), def.name());
      assertEquals(
          "ForkJoinPool.commonPool",
          PoolObjects.describe(1, ForkJoinPool.commonPool(), false).name());
      PoolDef tpe = PoolObjects.describe(2, executor, false);
      assertEquals(ConstructKind.EXECUTOR, tpe.kind());
      assertEquals(2, tpe.parallelism());
      PoolDef carriers = PoolObjects.describe(id, forkJoin, true);
      assertEquals(ConstructKind.VIRTUAL_THREAD, carriers.kind());
      assertEquals("virtual thread scheduler", carriers.name());
      assertFalse(PoolObjects.isVirtualThreadScheduler(forkJoin));
    } finally {
      forkJoin.shutdownNow();
      executor.shutdownNow();
    }
  }
}
