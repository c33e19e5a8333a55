package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Thread events: THREAD_CREATE where a thread is started (by the application or by a pool adding a
 * worker), THREAD_BEGIN and THREAD_END in the started thread. A thread whose start was not seen
 * (JDK internals) is recorded from its first event, without begin and end.
 */
final class ThreadEvents {
  private final EventPath path;
  private final ObjectDefinitions objects;

  /**
   * Threads whose creation was recorded and that have not begun yet (Java id → pool id, 0 for
   * none): their THREAD_BEGIN is recorded, and their stream names the pool.
   */
  private final Map<Long, Integer> announcedThreads = new ConcurrentHashMap<>();

  ThreadEvents(EventPath path, ObjectDefinitions objects) {
    this.path = path;
    this.objects = objects;
  }

  void threadCreate(int region, Thread child) {
    ThreadState s = path.state();
    if (s.ignored || child == null) {
      return;
    }
    announcedThreads.put(child.getId(), 0);
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.threadCreate(System.nanoTime(), region, child.getId());
      } finally {
        EventPath.end(s);
      }
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
        announcedThreads.put(child.getId(), objects.poolId(pool));
        w.threadCreate(System.nanoTime(), region, child.getId());
      } finally {
        EventPath.end(s);
      }
    }
  }

  void threadBegin() {
    ThreadState s = path.state();
    if (s.begun || s.busy) {
      return;
    }
    Integer pool = announcedThreads.remove(s.thread.getId());
    if (pool == null && !s.virtual) {
      return; // a thread whose start was not seen (JDK internals): recorded from its first event
    }
    if (pool != null && s.stream == null) {
      s.pool = pool;
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.threadBegin(System.nanoTime());
        s.begun = true;
      } finally {
        EventPath.end(s);
      }
    }
  }

  void threadEnd() {
    ThreadState s = path.state();
    if (s.begun) {
      StreamWriter w = path.begin(s);
      if (w != null) {
        try {
          w.threadEnd(System.nanoTime());
          s.begun = false;
        } finally {
          EventPath.end(s);
        }
      }
    }
    if (s.jvmCounted) {
      path.jvmCounts.threadEnded(s); // after the event: its time is not delayed
    }
  }
}
