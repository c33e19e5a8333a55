package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.StreamWriter;

/**
 * Lock events: LOCK_REQUEST, LOCK_ACQUIRED, LOCK_RELEASED of monitors and java.util.concurrent
 * locks.
 *
 * <p>A lock's id is the id of the object that stands for it ({@link LockObjects}: a ReentrantLock's
 * synchronizer, a stamped lock for its views; a monitor's object whatever its class). Each thread
 * remembers what it holds, even while measurement is off, to mark re-entrant acquisitions and to
 * find the id of a held lock by reference: hashing an object whose monitor is held can inflate the
 * monitor, so a monitor is hashed only at its first request, before it is entered.
 */
final class LockEvents {
  private final EventPath path;
  private final RegionRegistry regions;
  private final ObjectDefinitions objects;

  LockEvents(EventPath path, RegionRegistry regions, ObjectDefinitions objects) {
    this.path = path;
    this.regions = regions;
    this.objects = objects;
  }

  void lockRequest(int region, Object lock) {
    request(region, lock, false, 0);
  }

  /**
   * LOCK_REQUEST at {@code time}, or at the moment it is written when {@code timed} is false (after
   * the lock's first-sight definition, which is the recorder's time, not the wait's).
   */
  private void request(int region, Object lock, boolean timed, long time) {
    if (lock == null) {
      return; // the call throws NullPointerException
    }
    ThreadState s = path.state();
    long id = 0;
    Object standsFor = lock;
    if (!s.busy && !s.ignored) {
      id = s.heldIdOf(lock);
      int traits = 0;
      ConstructKind kind = regions.kind(region);
      boolean monitor = kind == ConstructKind.MONITOR || kind == ConstructKind.SYNCHRONIZED_METHOD;
      if (!monitor && kind != ConstructKind.OBJECT_WAIT) {
        traits = traits(s, lock);
        if (id == 0) {
          standsFor = LockObjects.lockOf(lock, traits);
          if (standsFor == null) {
            return; // a condition of an unknown lock
          }
        }
      }
      if (id == 0) {
        id = lockId(s, region, standsFor);
      }
      s.requestObject = lock;
      s.requestId = id;
      s.requestTraits = traits;
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.lockRequest(timed ? time : System.nanoTime(), region, id);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void lockAcquired(Object lock, int flags) {
    if (lock == null) {
      return;
    }
    ThreadState s = path.state();
    long id = 0;
    if (!s.busy && !s.ignored) {
      int traits;
      if (s.requestObject == lock) {
        id = s.requestId;
        traits = s.requestTraits;
      } else {
        // No request seen (e.g. a synchronized method entered before the agent could weave it).
        traits = traits(s, lock);
        id = s.heldIdOf(lock);
        if (id == 0) {
          Object standsFor = LockObjects.lockOf(lock, traits);
          if (standsFor == null) {
            return;
          }
          id = lockId(s, 0, standsFor);
        }
      }
      s.requestObject = null;
      flags |= traits & LockObjects.SHARED;
      if ((flags & (LockFlags.FAILED | LockFlags.ABORTED)) == 0
          && (traits & LockObjects.UNOWNED) == 0) {
        if ((flags & LockFlags.AFTER_WAIT) == 0 && s.holds(id)) {
          flags |= LockFlags.REENTRANT;
        }
        s.hold(lock, id);
      }
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.lockAcquired(System.nanoTime(), id, flags);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * LOCK_REQUEST and LOCK_ACQUIRED at one time, for a lock the thread acquired at its first attempt
   * (a ReentrantLock's {@code tryLock()} in place of the call's own first attempt): it never
   * waited, so the wait is exactly zero. One state lookup and one guard for both events.
   */
  void lockAcquiredAtOnce(int region, Object lock) {
    ThreadState s = path.state();
    long id = 0;
    int flags = 0;
    if (!s.busy && !s.ignored) {
      id = idOf(s, region, lock);
      if (s.holds(id)) {
        flags = LockFlags.REENTRANT;
      }
      s.hold(lock, id);
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        long t = System.nanoTime();
        w.lockRequest(t, region, id);
        w.lockAcquired(t, id, flags);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void lockReleased(Object lock) {
    release(lock, true);
  }

  /**
   * LOCK_RELEASED; {@code atCallSite}: written for a woven call site, which the thread remembers
   * ({@link #releasedAtCallSite}).
   */
  void release(Object lock, boolean atCallSite) {
    if (lock == null) {
      return;
    }
    ThreadState s = path.state();
    s.releasedObject = atCallSite ? lock : null;
    long id = 0;
    if (!s.busy && !s.ignored) {
      id = idOf(s, 0, lock);
      if (id < 0) {
        return;
      }
      s.unhold(id);
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.lockReleased(System.nanoTime(), id);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * The id of the lock {@code lock} stands for: the held one's, else looked up; -1 for a condition
   * of an unknown lock.
   */
  private long idOf(ThreadState s, int region, Object lock) {
    long id = s.heldIdOf(lock);
    if (id != 0) {
      return id;
    }
    Object standsFor = LockObjects.lockOf(lock, traits(s, lock));
    return standsFor == null ? -1 : lockId(s, region, standsFor);
  }

  /** The traits of the lock's class, from the thread's one-class cache. */
  private static int traits(ThreadState s, Object lock) {
    Class<?> c = lock.getClass();
    if (c != s.traitsClass) {
      s.traitsClass = c;
      s.traits = LockObjects.traits(c);
    }
    return s.traits;
  }

  /**
   * The id of the object that stands for a lock, from the thread's one-entry cache or {@link
   * ObjectDefinitions#objectId}; called outside the guard (lock ids are kept while measurement is
   * off too), so the guard is taken around the lookup, which may write a definition.
   */
  private long lockId(ThreadState s, int region, Object standsFor) {
    if (standsFor == s.lastLock) {
      return s.lastLockId;
    }
    boolean was = s.busy;
    s.busy = true;
    long id;
    try {
      id = objects.objectId(region, standsFor);
    } finally {
      s.busy = was;
    }
    s.lastLock = standsFor;
    s.lastLockId = id;
    return id;
  }

  // ---- for waits in frames running since before the attach (RunningFrames)

  /** Whether this thread's last LOCK_REQUEST, still unanswered, named {@code lock}. */
  boolean requestOpenAtCallSite(Object lock) {
    return path.state().requestObject == lock;
  }

  /**
   * Whether this thread holds, as far as recorded, the lock {@code o} stands for (a lock, or a
   * condition's lock).
   */
  boolean holdsLockOf(Object o) {
    ThreadState s = path.state();
    if (s.heldIdOf(o) != 0) {
      return true;
    }
    Object standsFor = LockObjects.lockOf(o, traits(s, o));
    if (standsFor == null) {
      return false;
    }
    return s.heldIdOf(standsFor) != 0 || s.holds(lockId(s, 0, standsFor));
  }

  /**
   * Whether this thread's last LOCK_RELEASED was {@code lock}'s, written by a woven call site;
   * forgets it (a call site's release is followed by one call of the releasing method).
   */
  boolean releasedAtCallSite(Object lock) {
    ThreadState s = path.state();
    boolean at = s.releasedObject == lock;
    s.releasedObject = null;
    return at;
  }

  /** {@link #lockRequest} at time {@code t}, for the JDK's locks (not monitors). */
  void lockRequestAt(long t, int region, Object lock) {
    request(region, lock, true, t);
  }
}
