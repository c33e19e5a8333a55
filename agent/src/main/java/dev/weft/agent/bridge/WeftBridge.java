package dev.weft.agent.bridge;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TransferQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bootstrap-visible facade woven code calls: one static method per event kind (POMP style),
 * taking the int region id of the woven site and the object(s) concerned, forwarding to the
 * installed {@link WeftSink}; a no-op while none is installed. The shaded jar relocates this
 * package to {@code java.lang} and the agent defines it in {@code java.base} ({@code
 * BridgeInstaller}), so that code woven into JDK and application classes links to it; it refers to
 * JDK types only. No exception ever leaves a method: a sink that throws is uninstalled at once and
 * told once ({@link WeftSink#failed}). The happy path is one volatile read and a call.
 */
public final class WeftBridge {
  private static volatile WeftSink sink;

  private WeftBridge() {}

  /** Starts forwarding events to {@code s} (null stops). */
  public static void install(WeftSink s) {
    sink = s;
  }

  /** The installed sink, or null. */
  public static WeftSink installed() {
    return sink;
  }

  /** True when a sink is installed and recording ({@code Weft.isRecording()}). */
  public static boolean isRecording() {
    WeftSink s = sink;
    if (s == null) {
      return false;
    }
    try {
      return s.isRecording();
    } catch (Throwable t) {
      try {
        fault(s, t);
      } catch (Throwable outOfStack) {
        // Nothing may reach the host program.
      }
      return false;
    }
  }

  /** See {@link WeftSink#enter}. */
  public static void enter(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.enter(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#exit}. */
  public static void exit(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.exit(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#userRegionEnter}. */
  public static void userRegionEnter(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.userRegionEnter(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#userRegionEnter}. */
  public static void userRegionEnter(String name, int site) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.userRegionEnter(name, site);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#userRegionExit}. */
  public static void userRegionExit() {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.userRegionExit();
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#measurementOn}. */
  public static void measurementOn() {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.measurementOn();
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#measurementOff}. */
  public static void measurementOff() {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.measurementOff();
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#fork}. */
  public static void fork(int region, Object pool, int parallelism) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.fork(region, pool, parallelism);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#join}. */
  public static void join(int region, Object pool) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.join(region, pool);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#taskWithdrawn}. */
  public static void taskWithdrawn(Object task) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.taskWithdrawn(task);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#tasksWithdrawn}. */
  public static void tasksWithdrawn(Object tasks) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.tasksWithdrawn(tasks);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#taskRemoved}. */
  public static void taskRemoved(boolean removed, Object task) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.taskRemoved(removed, task);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#taskRejected}. */
  public static void taskRejected(Object executor, Object task) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.taskRejected(executor, task);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#taskScheduled}. */
  public static void taskScheduled(int region, int delayedRegion, Object task, Object pool) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.taskScheduled(region, delayedRegion, task, pool);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#taskCreate}. */
  public static void taskCreate(int region, Object task, Object pool) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.taskCreate(region, task, pool);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#taskBegin}. */
  public static void taskBegin(Object task) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.taskBegin(task);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#taskEnd}. */
  public static void taskEnd(Object task) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.taskEnd(task);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#taskSummary}. */
  public static void taskSummary(int region, Object pool, long count, long durationNanos) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.taskSummary(region, pool, count, durationNanos);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#joinWaitEnter}. */
  public static void joinWaitEnter(int region, Object target) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.joinWaitEnter(region, target);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#joinWaitExit}. */
  public static void joinWaitExit(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.joinWaitExit(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#joinBlockedEnter}. */
  public static void joinBlockedEnter(int region, Object task) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.joinBlockedEnter(region, task);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#joinBlockedExit}. */
  public static void joinBlockedExit(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.joinBlockedExit(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#helpEnter}. */
  public static void helpEnter(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.helpEnter(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#helpExit}. */
  public static void helpExit(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.helpExit(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#barrierEnter}. */
  public static void barrierEnter(int region, Object barrier, long generation) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.barrierEnter(region, barrier, generation);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#barrierExit}. */
  public static void barrierExit(int region, Object barrier, long generation, int outcome) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.barrierExit(region, barrier, generation, outcome);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#lockRequest}. */
  public static void lockRequest(int region, Object lock) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.lockRequest(region, lock);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#lockAcquired}. */
  public static void lockAcquired(Object lock, int flags) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.lockAcquired(lock, flags);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /**
   * Makes a {@code lock()} (or, with {@code interruptible}, a {@code lockInterruptibly()}) call's
   * first attempt itself, when that attempt is exactly the call's own: {@code lock} is a non-fair
   * {@code ReentrantLock} of that very class (whose {@code lock()} begins with the barging attempt
   * that {@code tryLock()} makes; a fair lock's {@code tryLock()} would barge where {@code lock()}
   * queues, a subclass may override either), and, for {@code lockInterruptibly()}, the thread is
   * not interrupted (that call would throw first). True when the attempt acquired the lock: the
   * thread never waited, and the request and the acquisition are recorded at one time ({@link
   * WeftSink#lockAcquiredAtOnce}); the woven code then skips the call. False when nothing was done
   * (no sink, another lock, the lock is held by another thread, the sink wants none: {@link
   * WeftSink#noLockFirstTries}): the call is made as usual.
   */
  public static boolean lockFirstTry(int region, Object lock, boolean interruptible) {
    WeftSink s = sink;
    if (s == null || !s.lockFirstTries || lock == null || lock.getClass() != ReentrantLock.class) {
      return false;
    }
    try {
      ReentrantLock l = (ReentrantLock) lock;
      if (l.isFair() || interruptible && Thread.currentThread().isInterrupted() || !l.tryLock()) {
        return false;
      }
    } catch (Throwable hostsOwn) {
      // The hold count's limit, or the host's deep recursion: the call itself then meets it.
      return false;
    }
    try {
      s.lockAcquiredAtOnce(region, lock);
    } catch (Throwable t) {
      try {
        fault(s, t);
      } catch (Throwable outOfStack) {
        // Nothing may reach the host program.
      }
    }
    return true;
  }

  /** {@link #queuePutAtOnce}'s {@code call}: {@code put}. */
  public static final int QUEUE_PUT = 0;

  /** {@link #queuePutAtOnce}'s {@code call}: {@code putFirst}. */
  public static final int QUEUE_PUT_FIRST = 1;

  /** {@link #queuePutAtOnce}'s {@code call}: {@code putLast}. */
  public static final int QUEUE_PUT_LAST = 2;

  /** {@link #queuePutAtOnce}'s {@code call}: {@code transfer}. */
  public static final int QUEUE_TRANSFER = 3;

  /**
   * Makes a blocking queue's {@code put}, {@code putFirst}, {@code putLast} or {@code transfer}
   * ({@code call}) at once when it would not wait: {@code queue} is one of the JDK's own queue
   * classes (not a subclass, which may override either method), the thread is not interrupted (the
   * call would throw first), and {@code offer}, {@code offerFirst}, {@code offerLast} or {@code
   * tryTransfer} took the element, which is then exactly what the call would have done. True when
   * it did: the call did not wait, there is no wait to record, and the woven code skips the call.
   * False when nothing was done (not recording, another class, no room, no waiting taker, or the
   * offer threw, e.g. for a null element): the call is made as usual and meets the same. An element
   * put while a consumer waits in a take is a hand-over at {@code region} ({@link
   * #queueHandedOver}), as the call's woven code records it when the call is made.
   */
  public static boolean queuePutAtOnce(Object queue, Object element, int call, int region) {
    WeftSink s = sink;
    if (s == null || !jdkQueue(queue) || Thread.currentThread().isInterrupted()) {
      return false;
    }
    long since = queueHandOverStart();
    boolean put = offerAtOnce(queue, element, call);
    if (put) {
      queueHandedOver(true, region, queue, since);
    }
    return put;
  }

  private static boolean offerAtOnce(Object queue, Object element, int call) {
    try {
      switch (call) {
        case QUEUE_PUT:
          @SuppressWarnings("unchecked")
          BlockingQueue<Object> q = (BlockingQueue<Object>) queue;
          return q.offer(element);
        case QUEUE_PUT_FIRST:
          @SuppressWarnings("unchecked")
          BlockingDeque<Object> first = (BlockingDeque<Object>) queue;
          return first.offerFirst(element);
        case QUEUE_PUT_LAST:
          @SuppressWarnings("unchecked")
          BlockingDeque<Object> last = (BlockingDeque<Object>) queue;
          return last.offerLast(element);
        case QUEUE_TRANSFER:
          @SuppressWarnings("unchecked")
          TransferQueue<Object> t = (TransferQueue<Object>) queue;
          return t.tryTransfer(element);
        default:
          return false;
      }
    } catch (Throwable hostsOwn) {
      // A null element, a deque that is not one: the call itself then meets it.
      return false;
    }
  }

  /** One of the JDK's own blocking queue classes, whose offers are their puts without waiting. */
  private static boolean jdkQueue(Object queue) {
    if (queue == null) {
      return false;
    }
    Class<?> c = queue.getClass();
    return c == ArrayBlockingQueue.class
        || c == LinkedBlockingQueue.class
        || c == LinkedBlockingDeque.class
        || c == LinkedTransferQueue.class
        || c == SynchronousQueue.class
        || c == PriorityBlockingQueue.class
        || c == DelayQueue.class;
  }

  /** See {@link WeftSink#lockReleased}. */
  public static void lockReleased(Object lock) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.lockReleased(lock);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#waitEnter}. */
  public static void waitEnter(int region, int waitKind) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.waitEnter(region, waitKind);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#waitExit}. */
  public static void waitExit(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.waitExit(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#parkEnter}. */
  public static void parkEnter(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.parkEnter(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#queueTakeEnter}. */
  public static void queueTakeEnter(int region, Object queue) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.queueTakeEnter(region, queue);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#queueTakeExit}. */
  public static void queueTakeExit(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.queueTakeExit(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /**
   * See {@link WeftSink#queueHandOverStart}: woven before a call that puts an element into a queue;
   * 0 when not recording or no consumer waits (the common case: one read of a counter).
   */
  public static long queueHandOverStart() {
    WeftSink s = sink;
    if (s != null) {
      try {
        return s.queueHandOverStart();
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
    return 0;
  }

  /**
   * See {@link WeftSink#queueHandedOver}: woven after the call; {@code put} is what it returned
   * (true for the calls that return nothing), {@code since} what {@link #queueHandOverStart} gave.
   */
  public static void queueHandedOver(boolean put, int region, Object queue, long since) {
    if (since == 0 || !put) {
      return; // no consumer waited when the call began (the common case), or nothing was put
    }
    WeftSink s = sink;
    if (s != null) {
      try {
        s.queueHandedOver(region, queue, since);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#notify}. */
  public static void notify(int region, Object object, int waitKind) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.notify(region, object, waitKind);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#spinEnter}. */
  public static void spinEnter(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.spinEnter(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#spinExit}. */
  public static void spinExit(int region) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.spinExit(region);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#threadCreate}. */
  public static void threadCreate(int region, Thread child) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.threadCreate(region, child);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#poolThreadCreate}. */
  public static void poolThreadCreate(int region, Thread child, Object pool) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.poolThreadCreate(region, child, pool);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#threadBegin}. */
  public static void threadBegin() {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.threadBegin();
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#vthreadMount}. */
  public static void vthreadMount(Thread vthread) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.vthreadMount(vthread);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#vthreadUnmount}. */
  public static void vthreadUnmount(Thread vthread) {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.vthreadUnmount(vthread);
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#threadExiting}. */
  public static void threadExiting() {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.threadExiting();
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#threadEnd}. */
  public static void threadEnd() {
    WeftSink s = sink;
    if (s != null) {
      try {
        s.threadEnd();
      } catch (Throwable t) {
        try {
          fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /**
   * Uninstalls the failed sink (if still installed) and tells it, once. A {@link
   * StackOverflowError} is the host's deep recursion reaching into the recorder, not a fault of it:
   * that event is lost, recording goes on. Callers guard the call itself, which may run out of
   * stack too.
   */
  static void fault(WeftSink s, Throwable t) {
    if (!(t instanceof StackOverflowError)) {
      uninstallAndTell(s, t);
    }
  }

  private static void uninstallAndTell(WeftSink s, Throwable t) {
    synchronized (WeftBridge.class) {
      if (sink != s) {
        return; // already uninstalled: someone else reported
      }
      sink = null;
    }
    try {
      s.failed(t);
    } catch (Throwable ignored) {
      // Nothing may reach the host program.
    }
  }
}
