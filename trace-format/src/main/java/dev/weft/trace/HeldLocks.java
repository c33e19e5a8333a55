package dev.weft.trace;

import java.util.Arrays;

/**
 * The {@link TraceVerifier}'s lock rules for one thread: a lock_request is followed by the
 * lock_acquired of the same lock before any other lock event, a lock_released releases a lock the
 * thread holds (reentrant acquisitions counted; semaphores and stamped locks excepted, which any
 * thread may release), and what is still held or requested at the stream's end is reported. Apart
 * from {@link ThreadVerifier}, whose constructs nest, because locks do not: they are held side by
 * side and released in any order.
 */
final class HeldLocks {
  private final ThreadVerifier thread;

  /** Locks held and how often (reentrant): few at a time, so searched linearly. */
  private long[] heldLocks = new long[4];

  private int[] heldCounts = new int[4];
  private int held;
  private boolean requestPending;
  private long requestLock;
  private long requestIndex;

  HeldLocks(ThreadVerifier thread) {
    this.thread = thread;
  }

  void request(long lock, long time) {
    if (requestPending) {
      thread.error(
          time,
          "lock_request of lock "
              + lock
              + " while the request of lock "
              + requestLock
              + " (event #"
              + requestIndex
              + ") has no lock_acquired");
    }
    requestPending = true;
    requestLock = lock;
    requestIndex = thread.index();
  }

  void acquired(long lock, int flags, long time) {
    if (requestPending && requestLock != lock) {
      thread.error(
          time,
          "lock_acquired of lock "
              + lock
              + " while the request of lock "
              + requestLock
              + " (event #"
              + requestIndex
              + ") is pending");
    }
    requestPending = false;
    if ((flags & (LockFlags.FAILED | LockFlags.ABORTED)) != 0) {
      return; // not acquired: no lock_released follows
    }
    int i = heldIndex(lock);
    int count = i < 0 ? 0 : heldCounts[i];
    if ((flags & LockFlags.REENTRANT) != 0 && count == 0) {
      thread.unmatched(
          time, "reentrant lock_acquired of lock " + lock + " that the thread does not hold");
    }
    if ((flags & LockFlags.AFTER_WAIT) != 0 && count > 0) {
      return; // re-taken after a wait whose release was not recorded: still held once
    }
    if (i >= 0) {
      heldCounts[i]++;
      return;
    }
    if (held == heldLocks.length) {
      heldLocks = Arrays.copyOf(heldLocks, held * 2);
      heldCounts = Arrays.copyOf(heldCounts, held * 2);
    }
    heldLocks[held] = lock;
    heldCounts[held] = 1;
    held++;
  }

  private int heldIndex(long lock) {
    for (int i = held - 1; i >= 0; i--) {
      if (heldLocks[i] == lock) {
        return i;
      }
    }
    return -1;
  }

  void released(long lock, long time) {
    if (requestPending) {
      thread.error(
          time,
          "lock_released of lock "
              + lock
              + " while the request of lock "
              + requestLock
              + " (event #"
              + requestIndex
              + ") is pending");
    }
    int i = heldIndex(lock);
    if (i < 0) {
      if (!thread.run.unowned(lock)) {
        thread.unmatched(time, "lock_released of lock " + lock + " that the thread does not hold");
      }
      return;
    }
    if (--heldCounts[i] == 0) {
      held--;
      heldLocks[i] = heldLocks[held];
      heldCounts[i] = heldCounts[held];
    }
  }

  /**
   * End of the stream: a pending request and locks still held; errors when the thread ended ({@code
   * ended}, at {@code lastTime}), else warnings saying {@code why} they are unknown.
   */
  void atEnd(boolean ended, String why, long lastTime) {
    if (requestPending) {
      String what =
          "lock_request of lock " + requestLock + " (event #" + requestIndex + ") never acquired";
      if (ended) {
        thread.error(lastTime, "thread_end with " + what);
      } else {
        thread.warn(what + " " + why);
      }
    }
    if (held > 0) {
      thread.warn(held + " lock(s) still held " + (ended ? "at thread_end" : why));
    }
  }
}
