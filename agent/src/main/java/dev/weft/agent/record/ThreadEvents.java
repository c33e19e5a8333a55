package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * Thread events: THREAD_CREATE where a thread is started (by the application or by a pool adding a
 * worker), THREAD_BEGIN and THREAD_END in the started thread, and in every fork-join worker. Any
 * other thread whose start was not seen (JDK internals) is recorded from its first event, without
 * begin and end.
 */
final class ThreadEvents {
  private final EventPath path;
  private final ObjectDefinitions objects;

  /**
   * Threads whose creation was recorded and that have not begun yet (Java id → pool id, 0 for
   * none): their THREAD_BEGIN is recorded, and their stream (opened for them at their creation,
   * {@link EventPath#preOpen}) names the pool.
   */
  private final Map<Long, Integer> announcedThreads = new ConcurrentHashMap<>();

  /**
   * Threads that began during a thread start, before anyone announced them (the thread of a {@code
   * Thread.Builder.start}, whose THREAD_CREATE follows the call): the announcement that comes after
   * their begin is not kept.
   */
  private final Map<Long, Boolean> begunUnannounced = new ConcurrentHashMap<>();

  ThreadEvents(EventPath path, ObjectDefinitions objects) {
    this.path = path;
    this.objects = objects;
  }

  void threadCreate(int region, Thread child) {
    ThreadState s = path.state();
    if (s.ignored || child == null) {
      return;
    }
    StreamWriter w = path.begin(s);
    if (begunUnannounced.remove(child.getId()) == null) {
      announcedThreads.put(child.getId(), 0);
    }
    if (w == null) {
      return;
    }
    try {
      w.threadCreate(System.nanoTime(), region, child.getId());
      path.preOpen(child, 0);
    } finally {
      s.writing.busy = false;
    }
  }

  void poolThreadCreate(int region, Thread child, Object pool) {
    ThreadState s = path.state();
    if (s.ignored || child == null) {
      return;
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        int poolId = objects.poolId(pool);
        w.threadCreate(System.nanoTime(), region, child.getId());
        announcedThreads.put(child.getId(), poolId);
        path.preOpen(child, poolId);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void threadBegin() {
    ThreadState s = path.state();
    if (s.begun || s.busy) {
      return;
    }
    Integer pool = announcedThreads.remove(s.thread.getId());
    // A fork-join worker (not a virtual threads' carrier): its pool is the application's, and
    // without an end its time after the pool terminated would count as idle.
    boolean forkJoinWorker = s.thread instanceof ForkJoinWorkerThread && !s.carrier;
    if (pool == null && !s.virtual && !forkJoinWorker) {
      if (path.threadStartsUnderway.get() == 0 || jdkInternal(s.thread)) {
        return; // a thread whose start was not seen (JDK internals): recorded from its first event
      }
      begunUnannounced.put(s.thread.getId(), Boolean.TRUE); // a builder's: announced after
    }
    if (pool != null && s.stream == null) {
      s.pool = pool;
    }
    s.beginning = true; // its stream opens with this event: its times count from 0
    StreamWriter w;
    try {
      w = path.begin(s);
    } finally {
      s.beginning = false;
    }
    if (w != null) {
      try {
        w.threadBegin(System.nanoTime());
        s.begun = true;
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * A thread the JDK starts for itself (in the system thread group, or of a {@code jdk.internal}
   * class such as the virtual-thread unblocker's), which may begin while an application thread is
   * starting one of its own.
   */
  private static boolean jdkInternal(Thread t) {
    ThreadGroup g = t.getThreadGroup();
    return g == null || g.getParent() == null || t.getClass().getName().startsWith("jdk.internal.");
  }

  void threadEnd() {
    ThreadState s = path.state();
    if (s.begun) {
      StreamWriter w = path.begin(s);
      if (w != null) {
        try {
          w.threadEnd(System.nanoTime());
          s.begun = false;
          path.streamEnded(s);
        } finally {
          s.writing.busy = false;
        }
        path.retire(s, w);
      }
    }
    if (s.jvmCounted) {
      path.jvmCounts.threadEnded(s); // after the event: its time is not delayed
    }
    path.forget(s);
  }

  /**
   * The calling platform thread terminates ({@code Thread.exit()}): the THREAD_END and the JVM's
   * counts of a thread that ended without its hooked {@code run()} returning (entered before an
   * attach, {@code main} after {@code main()}, a thread started by code the agent did not weave),
   * which would otherwise count as alive to the end of the recording, and go unchecked. Nothing for
   * a thread that recorded its THREAD_END already.
   */
  void threadExiting() {
    ThreadState s = path.state();
    path.endStream(s);
    if (s.jvmCounted) {
      path.jvmCounts.threadEnded(s);
    } else {
      path.jvmCounts.unclaimedEnded(s); // a stream opened at the attach that it never took
    }
    path.forget(s);
  }
}
