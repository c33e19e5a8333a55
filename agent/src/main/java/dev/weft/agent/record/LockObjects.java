package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ObjectDef;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;

/**
 * The lock family's knowledge of its objects: which object stands for a lock, whether its
 * acquisitions are shared and whether it has an owner, and how a java.util.concurrent lock is
 * described in the trace (its kind and the JDK class it belongs to). Monitors need none of this:
 * any object is its own monitor, described by {@link ObjectDescriber#OTHER}.
 *
 * <p>One lock, one id: a {@link ReentrantLock}, a {@link ReentrantReadWriteLock}'s read and write
 * locks and the {@code Condition}s of either are all represented by the lock's internal
 * synchronizer, so that a thread waiting on a condition releases the lock that other threads
 * acquire, and readers and writers of one read/write lock contend on one id. The views of a {@link
 * StampedLock} stand for the stamped lock. Every other object is its own lock.
 *
 * <p>The private fields read here ({@code sync}, {@code this$0}, {@code generation}) have had these
 * names from JDK 8 to 25; the agent opens their packages to itself at start. Where a field cannot
 * be read, the object stands for itself, and a condition names no lock (its lock events are not
 * recorded).
 */
final class LockObjects implements ObjectDescriber {
  /** The describer of java.util.concurrent locks, their synchronizers and views. */
  static final LockObjects DESCRIBER = new LockObjects();

  /** Acquisitions are shared: read locks, semaphore permits ({@link LockFlags#SHARED}). */
  static final int SHARED = LockFlags.SHARED;

  /**
   * Acquisitions have no owner (semaphores, stamped locks): never re-entrant, released by anyone.
   */
  static final int UNOWNED = 1 << 8;

  /** A {@code Condition}: stands for its lock, which may be unknown. */
  static final int CONDITION = 1 << 9;

  /** Stands for its internal synchronizer (field {@code sync}). */
  private static final int VIA_SYNC = 1 << 10;

  /** Stands for its enclosing object (field {@code this$0}). */
  private static final int VIA_OUTER = 1 << 11;

  private static final String LOCKS = "java.util.concurrent.locks.";

  private static final VarHandle REENTRANT_SYNC = JdkFields.field(ReentrantLock.class, "sync");
  private static final VarHandle READ_SYNC =
      JdkFields.field(ReentrantReadWriteLock.ReadLock.class, "sync");
  private static final VarHandle WRITE_SYNC =
      JdkFields.field(ReentrantReadWriteLock.WriteLock.class, "sync");
  private static final VarHandle CONDITION_OWNER =
      JdkFields.field(AbstractQueuedSynchronizer.ConditionObject.class, "this$0");
  private static final Class<?> READ_VIEW =
      JdkFields.classNamed(LOCKS + "StampedLock$ReadLockView");
  private static final Class<?> WRITE_VIEW =
      JdkFields.classNamed(LOCKS + "StampedLock$WriteLockView");
  private static final VarHandle READ_VIEW_OWNER = JdkFields.field(READ_VIEW, "this$0");
  private static final VarHandle WRITE_VIEW_OWNER = JdkFields.field(WRITE_VIEW, "this$0");

  private static final ClassValue<Integer> TRAITS =
      new ClassValue<Integer>() {
        @Override
        protected Integer computeValue(Class<?> c) {
          return traitsOf(c);
        }
      };

  private LockObjects() {}

  @Override
  public boolean describes(Object o) {
    return kindOf(o) != null;
  }

  @Override
  public ObjectDef describe(long id, Object o, ConstructKind siteKind) {
    return new ObjectDef(id, kindOf(o), className(o), 0);
  }

  /** The traits of objects of class {@code c}: {@link #SHARED}, {@link #UNOWNED}, ... */
  static int traits(Class<?> c) {
    return TRAITS.get(c);
  }

  private static int traitsOf(Class<?> c) {
    if (ReentrantLock.class.isAssignableFrom(c)) {
      return VIA_SYNC;
    }
    if (ReentrantReadWriteLock.ReadLock.class.isAssignableFrom(c)) {
      return VIA_SYNC | SHARED;
    }
    if (ReentrantReadWriteLock.WriteLock.class.isAssignableFrom(c)) {
      return VIA_SYNC;
    }
    if (AbstractQueuedSynchronizer.ConditionObject.class.isAssignableFrom(c)) {
      return CONDITION | VIA_OUTER;
    }
    if (java.util.concurrent.locks.Condition.class.isAssignableFrom(c)) {
      return CONDITION;
    }
    if (StampedLock.class.isAssignableFrom(c) || Semaphore.class.isAssignableFrom(c)) {
      return UNOWNED;
    }
    if (c == READ_VIEW) {
      return VIA_OUTER | UNOWNED | SHARED;
    }
    if (c == WRITE_VIEW) {
      return VIA_OUTER | UNOWNED;
    }
    return 0;
  }

  /**
   * The object that stands for the lock {@code o} (with traits {@code traits}): the object itself,
   * the lock's internal synchronizer, or a stamped lock. Null for a condition whose lock is unknown
   * (a user's condition implementation, or a condition of a user's synchronizer).
   */
  static Object lockOf(Object o, int traits) {
    if ((traits & (VIA_SYNC | VIA_OUTER)) == 0) {
      return (traits & CONDITION) != 0 ? null : o;
    }
    Object lock = null;
    try {
      if ((traits & CONDITION) != 0) {
        Object owner = CONDITION_OWNER == null ? null : (Object) CONDITION_OWNER.get(o);
        // Only the JDK's locks are represented by their synchronizer: a user's lock built on AQS
        // is its own object in lock events, which its condition cannot name.
        return owner != null && owner.getClass().getName().startsWith(LOCKS + "Reentrant")
            ? owner
            : null;
      } else if (o instanceof ReentrantLock) {
        lock = REENTRANT_SYNC == null ? null : (Object) REENTRANT_SYNC.get(o);
      } else if (o instanceof ReentrantReadWriteLock.ReadLock) {
        lock = READ_SYNC == null ? null : (Object) READ_SYNC.get(o);
      } else if (o instanceof ReentrantReadWriteLock.WriteLock) {
        lock = WRITE_SYNC == null ? null : (Object) WRITE_SYNC.get(o);
      } else if (o.getClass() == READ_VIEW) {
        lock = READ_VIEW_OWNER == null ? null : (Object) READ_VIEW_OWNER.get(o);
      } else if (o.getClass() == WRITE_VIEW) {
        lock = WRITE_VIEW_OWNER == null ? null : (Object) WRITE_VIEW_OWNER.get(o);
      }
    } catch (RuntimeException e) {
      lock = null;
    }
    return lock == null ? o : lock;
  }

  /** The construct kind of lock {@code o}, or null if not a java.util.concurrent lock. */
  private static ConstructKind kindOf(Object o) {
    if (o instanceof ReentrantLock) {
      return ConstructKind.REENTRANT_LOCK;
    }
    if (o instanceof ReentrantReadWriteLock.ReadLock
        || o instanceof ReentrantReadWriteLock.WriteLock) {
      return ConstructKind.READ_WRITE_LOCK;
    }
    if (o instanceof StampedLock || o.getClass() == READ_VIEW || o.getClass() == WRITE_VIEW) {
      return ConstructKind.STAMPED_LOCK;
    }
    if (o instanceof Semaphore) {
      return ConstructKind.SEMAPHORE;
    }
    if (o instanceof AbstractQueuedSynchronizer) {
      // First seen through a condition: the synchronizer of a ReentrantLock or read/write lock.
      return o.getClass().getName().startsWith(LOCKS + "ReentrantReadWriteLock$")
          ? ConstructKind.READ_WRITE_LOCK
          : ConstructKind.REENTRANT_LOCK;
    }
    return null;
  }

  /**
   * The class name a lock's definition shows: the JDK lock a nested JDK class belongs to ({@code
   * ReentrantReadWriteLock} for its read lock, {@code ReentrantLock} for its synchronizer), else
   * the object's own class.
   */
  static String className(Object o) {
    String name = o.getClass().getName();
    int nested = name.indexOf('$');
    return name.startsWith(LOCKS) && nested > 0 ? name.substring(0, nested) : name;
  }

  /**
   * Runs every reflective read above once, on throwaway objects. The first call through a {@link
   * VarHandle} links its call site (about half a millisecond on a cold JVM); done here, on the
   * agent's warm-up thread, it is not counted in an application thread's first lock.
   */
  static void warmUp() {
    Object[] locks = {
      new ReentrantLock(),
      new ReentrantLock().newCondition(),
      new ReentrantReadWriteLock().readLock(),
      new ReentrantReadWriteLock().writeLock(),
      new StampedLock().asReadLock(),
      new StampedLock().asWriteLock()
    };
    for (Object lock : locks) {
      lockOf(lock, traits(lock.getClass()));
    }
  }
}
