package dev.weft.trace;

import dev.weft.trace.pairing.Construct;
import dev.weft.trace.pairing.PairMatcher;

/**
 * The {@link TraceVerifier}'s lock rules for one thread, on top of the pairing grammar's lock waits
 * and holds: a pending lock_request is answered by the next lock_acquired (requests nest), and what
 * is still held or requested at the stream's end is reported. Apart from {@link ThreadVerifier},
 * whose constructs nest, because locks do not: they are held side by side and released in any
 * order.
 */
final class HeldLocks {
  private final ThreadVerifier thread;

  /**
   * The event index of the last pending request an error was reported for: one error per request
   * (the thread went on without it).
   */
  private long reported = -1;

  HeldLocks(ThreadVerifier thread) {
    this.thread = thread;
  }

  /**
   * Before the grammar sees a lock event: while a request is pending, the next acquisition is that
   * request's. Other requests may come first, and releases: those of a lock the requested one is
   * built on (a {@code Lock} implemented with another lock, as Lucene's {@code
   * DocumentsWriterPerThread} is), which are answered innermost first.
   */
  void check(EventCursor c, EventKind k) {
    if (k != EventKind.LOCK_ACQUIRED) {
      return;
    }
    PairMatcher m = thread.pairs;
    int pending = m.innermost(Construct.LOCK_WAIT);
    if (pending < 0 || m.openIndex(pending) <= reported) {
      return;
    }
    long lock = c.get(Field.OBJECT);
    for (int d = pending; d >= 0; d--) {
      if (m.construct(d) == Construct.LOCK_WAIT && m.key(d) == lock) {
        return; // its own request's answer; out of order, the grammar says so
      }
    }
    String request =
        " while the request of lock " + m.key(pending) + " (event #" + m.openIndex(pending) + ")";
    reported = m.openIndex(pending);
    thread.error(c.time(), "lock_acquired of lock " + lock + request + " is pending");
  }

  /**
   * End of the thread (its thread_end, {@code ended}) or of its stream: pending requests and locks
   * still held; errors when the thread ended, at {@code lastTime}, else warnings saying {@code why}
   * they are unknown.
   */
  void atEnd(boolean ended, String why, long lastTime) {
    PairMatcher m = thread.pairs;
    for (int d = 0; d < m.depth(); d++) {
      if (m.construct(d) == Construct.LOCK_WAIT) {
        String what =
            "lock_request of lock " + m.key(d) + " (event #" + m.openIndex(d) + ") never acquired";
        if (ended) {
          thread.error(lastTime, "thread_end with " + what);
        } else {
          thread.warn(what + " " + why);
        }
      }
    }
    int held = 0;
    for (int i = 0; i < m.heldLocks(); i++) {
      if (!givenBackByOthers(m.heldLock(i))) {
        held++;
      }
    }
    if (held > 0) {
      thread.warn(held + " lock(s) still held " + (ended ? "at thread_end" : why));
    }
  }

  /**
   * A semaphore's permits and a stamped lock's stamps may be given back by another thread
   * (FORMAT.md, "Well-formed streams"): one still taken when its taker ends is the program's design
   * (a pool that reserves a thread with a permit that the thread giving it work releases), not a
   * lost release.
   */
  private boolean givenBackByOthers(long lock) {
    ObjectDef o = thread.definitions().object(lock);
    return o != null
        && (o.kind() == ConstructKind.SEMAPHORE || o.kind() == ConstructKind.STAMPED_LOCK);
  }
}
