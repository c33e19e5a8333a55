package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;

/**
 * What the recorder knows about java.util.concurrent objects that lock events name: which object
 * stands for a lock, whether its acquisitions are shared and whether it has an owner, and the
 * generation a {@link CyclicBarrier} is in.
 *
 * <p>One lock, one id: a {@link ReentrantLock}, a {@link ReentrantReadWriteLock}'s read and write
 * locks and the {@code Condition}s of either are all represented by the lock's internal
 * synchronizer, so that a thread waiting on a condition releases the lock that other threads
 * acquire, and readers and writers of one read/write lock contend on one id. The views of a {@link
 * StampedLock} stand for the stamped lock. Every other object is its own lock.
 *
 * <p>The private fields read here ({@code sync}, {@code this$0}, {@code generation}) have had these
 * names from JDK 8 to 25; the agent opens their packages to itself at start. Where a field cannot
 * be read, the object stands for itself, a condition names no lock (its lock events are not
 * recorded), and every CyclicBarrier generation is 0.
 */
final class SyncObjects {
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

  private static final VarHandle REENTRANT_SYNC = field(ReentrantLock.class, "sync");
  private static final VarHandle READ_SYNC = field(ReentrantReadWriteLock.ReadLock.class, "sync");
  private static final VarHandle WRITE_SYNC = field(ReentrantReadWriteLock.WriteLock.class, "sync");
  private static final VarHandle CONDITION_OWNER =
      field(AbstractQueuedSynchronizer.ConditionObject.class, "this$0");
  private static final Class<?> READ_VIEW = classNamed(LOCKS + "StampedLock$ReadLockView");
  private static final Class<?> WRITE_VIEW = classNamed(LOCKS + "StampedLock$WriteLockView");
  private static final VarHandle READ_VIEW_OWNER = field(READ_VIEW, "this$0");
  private static final VarHandle WRITE_VIEW_OWNER = field(WRITE_VIEW, "this$0");
  private static final VarHandle GENERATION = field(CyclicBarrier.class, "generation");

  private static final ClassValue<Integer> TRAITS =
      new ClassValue<Integer>() {
        @Override
        protected Integer computeValue(Class<?> c) {
          return traitsOf(c);
        }
      };

  /** Per barrier: the generation object last seen and its number. Weak keys: barriers may die. */
  private static final Map<CyclicBarrier, Generations> GENERATIONS = new WeakHashMap<>();

  private SyncObjects() {}

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

  /**
   * The construct kind of lock {@code o} for its object definition, or null if not a j.u.c lock.
   */
  static ConstructKind kindOf(Object o) {
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
   * The number of the generation {@code barrier} is in, counted from 0 at the first generation the
   * recorder saw. A generation is the barrier's private generation object, which changes when the
   * barrier trips, breaks or is reset; every party reads it before it arrives, and the barrier
   * cannot trip before all of them did, so all parties of one generation get one number.
   */
  static long generation(CyclicBarrier barrier) {
    if (GENERATION == null) {
      return 0;
    }
    Object current;
    try {
      current = GENERATION.getVolatile(barrier);
    } catch (RuntimeException e) {
      return 0;
    }
    synchronized (GENERATIONS) {
      Generations g = GENERATIONS.get(barrier);
      if (g == null) {
        g = new Generations();
        GENERATIONS.put(barrier, g);
      }
      if (g.current != current) {
        if (g.current != null) {
          g.number++;
        }
        g.current = current;
      }
      return g.number;
    }
  }

  /**
   * Runs every reflective read above once, on throwaway objects. The first call through a {@link
   * VarHandle} links its call site (about half a millisecond on a cold JVM); done here, on the
   * agent's warm-up thread, it is not counted in an application thread's first lock or barrier.
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
    generation(new CyclicBarrier(1));
  }

  private static final class Generations {
    Object current;
    long number;
  }

  private static Class<?> classNamed(String name) {
    try {
      return Class.forName(name, false, null);
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  /** A handle on a private field, or null when the field is missing or its package is closed. */
  private static VarHandle field(Class<?> owner, String name) {
    if (owner == null) {
      return null;
    }
    try {
      Field f = owner.getDeclaredField(name);
      return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).unreflectVarHandle(f);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
