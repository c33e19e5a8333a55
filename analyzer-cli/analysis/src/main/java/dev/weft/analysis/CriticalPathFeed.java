package dev.weft.analysis;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What the replay tells the {@link CriticalPath}, in replay order: either applied at once on the
 * replaying thread ({@link #inline}), or written as compact operations into batches that a thread
 * of its own applies ({@link #onItsOwnThread}). The critical path is half of a single-threaded
 * replay's time and needs nothing back from the replay while it runs, so the two can run on two
 * cores; the operations and their order are the same either way, and so is the result.
 *
 * <p>The replay never reads the critical path before {@link #finish}: every question it used to ask
 * (the chain at a lock's release, at a task's creation, at a barrier's latest arrival, at a
 * notification) is one operation here, naming the slot or handle the critical path keeps the chain
 * under. The call-path tree is the only state the two threads share: each batch carries the tree's
 * {@linkplain CallPathTree#ancestry() ancestry} as it was when the batch was handed over, which
 * covers every node its operations name.
 *
 * <p>Memory is fixed: {@link #BATCHES} batches of {@link #BATCH_LONGS} longs (2 MiB in all),
 * recycled; the replay waits while they are all full.
 */
final class CriticalPathFeed {
  /**
   * Longs per batch: 2 to 6 per operation, so a batch holds 11,000 to 32,000 of them. The critical
   * path's thread keeps up and waits for most batches, so each hand-over wakes it: a quarter of the
   * batches (this size against 16,384 longs, with the reader's larger batches) took 3–4 % less CPU
   * and 7–11 % less wall time on the 100 M mixed and the 40 M lock benchmark traces.
   */
  static final int BATCH_LONGS = 65_536;

  /** Batches in flight. */
  static final int BATCHES = 4;

  /** The longest operation, in longs: a batch is handed over when the next might not fit. */
  private static final int MAX_OP = 6;

  /** How often a waiting thread looks whether the other has gone away. */
  private static final long POLL_MS = 20;

  private static final class Batch {
    final long[] ops = new long[BATCH_LONGS];
    int size;
    CallPathTree.Ancestry ancestry;
    boolean last;
  }

  /** The critical path, applied to at once; null when it runs on a thread of its own. */
  private final CriticalPath direct;

  // ---- the threaded form
  private final CriticalPath path;
  private final CallPathTree tree;
  private final BlockingQueue<Batch> full;
  private final BlockingQueue<Batch> empty;
  private final Thread worker;
  private volatile boolean closed;
  private volatile Throwable failure;

  /** Set by the critical path's thread once it has taken the last batch. */
  private volatile boolean applied;

  private Batch batch;
  private long[] ops;
  private int n;
  private boolean finished;

  private CriticalPathFeed(CriticalPath direct) {
    this.direct = direct;
    this.path = direct;
    this.tree = null;
    this.full = null;
    this.empty = null;
    this.worker = null;
  }

  private CriticalPathFeed(CriticalPath path, CallPathTree tree) {
    this.direct = null;
    this.path = path;
    this.tree = tree;
    this.full = new ArrayBlockingQueue<>(BATCHES);
    this.empty = new ArrayBlockingQueue<>(BATCHES);
    for (int b = 1; b < BATCHES; b++) {
      empty.add(new Batch());
    }
    this.batch = new Batch();
    this.ops = batch.ops;
    this.worker = new Thread(this::applyBatches, "weft-critical-path");
    worker.setDaemon(true);
    worker.start();
  }

  /** Applies every operation to {@code path} at once, on the calling thread. */
  static CriticalPathFeed inline(CriticalPath path) {
    return new CriticalPathFeed(path);
  }

  /**
   * Applies the operations to a critical path of the replay's threads ({@code daemon}: which are
   * daemon threads) on a new daemon thread; the caller must {@link #finish} or {@link #close}.
   */
  static CriticalPathFeed onItsOwnThread(boolean[] daemon, CallPathTree tree) {
    return new CriticalPathFeed(new CriticalPath(daemon, null), tree);
  }

  /**
   * The critical path once every operation has been applied: the last batch is handed over and its
   * thread waited for. A failure on that thread is thrown here.
   */
  CriticalPath finish() {
    if (direct != null) {
      return path;
    }
    if (finished) {
      rethrow();
      return path;
    }
    if (closed) {
      throw new IllegalStateException("the critical path was closed before its end");
    }
    finished = true;
    batch.last = true;
    handOver();
    try {
      worker.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
      throw new IllegalStateException("interrupted while the critical path was computed", e);
    }
    rethrow();
    if (!applied) {
      throw new IllegalStateException("the critical path's thread ended before the last batch");
    }
    return path;
  }

  /**
   * Stops the critical path's thread, if any, without its result, and waits for it: once this
   * returns, nothing runs on the feed's behalf.
   */
  void close() {
    if (worker == null) {
      return;
    }
    closed = true;
    try {
      worker.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether the critical path's thread runs. */
  boolean threadAlive() {
    return worker != null && worker.isAlive();
  }

  // ---- the replay's side: one method per operation ---------------------------------------------

  void work(int th, int node, long t) {
    if (direct != null) {
      direct.work(th, node, t);
      return;
    }
    put2(header(WORK, th, node), t);
  }

  void waiting(int th, int node, long t) {
    if (direct != null) {
      direct.waiting(th, node, t);
      return;
    }
    put2(header(WAITING, th, node), t);
  }

  void waited(int th, int node, long t) {
    if (direct != null) {
      direct.waited(th, node, t);
      return;
    }
    put2(header(Op.WAITED, th, node), t);
  }

  void idled(int th, int node, long t) {
    if (direct != null) {
      direct.idled(th, node, t);
      return;
    }
    put2(header(Op.IDLED, th, node), t);
  }

  void timerWaited(int th, int node, long t) {
    if (direct != null) {
      direct.timerWaited(th, node, t);
      return;
    }
    put2(header(Op.TIMER_WAITED, th, node), t);
  }

  void lockReleased(int slot, int th, long t) {
    if (direct != null) {
      direct.lockReleased(slot, th, t);
      return;
    }
    put2(header(Op.LOCK_RELEASED, th, slot), t);
  }

  void lockHandOver(int th, int node, int slot, int releaser, long releaseTime, long t) {
    if (direct != null) {
      direct.lockHandOver(th, node, slot, releaser, releaseTime, t);
      return;
    }
    put4(
        header(Op.LOCK_HAND_OVER, th, node),
        ((long) slot << 32) | (releaser & 0xFFFFFFFFL),
        releaseTime,
        t);
  }

  void taskCreated(int slot, int th) {
    if (direct != null) {
      direct.taskCreated(slot, th);
      return;
    }
    put2(header(Op.TASK_CREATED, th, slot), 0);
  }

  void taskBegun(int th, int node, int slot, boolean idleWorker, long created, long t) {
    if (direct != null) {
      direct.taskBegun(th, node, slot, idleWorker, created, t);
      return;
    }
    put4(header(Op.TASK_BEGUN, th, node), ((long) slot << 1) | (idleWorker ? 1 : 0), created, t);
  }

  void completed(int th, long t, long taskId, boolean thread) {
    if (direct != null) {
      direct.completed(th, t, taskId, thread);
      return;
    }
    put3(header(Op.COMPLETED, th, thread ? 1 : 0), t, taskId);
  }

  void joinEntered(int th, int frame, long target) {
    if (direct != null) {
      direct.joinEntered(th, frame, target);
      return;
    }
    put2(header(Op.JOIN_ENTERED, th, frame), target);
  }

  void joinEnded(int th, int frame, int node, long start, long t) {
    if (direct != null) {
      direct.joinEnded(th, frame, node, start, t);
      return;
    }
    put4(header(Op.JOIN_ENDED, th, node), frame, start, t);
  }

  void notified(int th, long obj) {
    if (direct != null) {
      direct.notified(th, obj);
      return;
    }
    put2(header(Op.NOTIFIED, th, 0), obj);
  }

  void notificationsCleared() {
    if (direct != null) {
      direct.notificationsCleared();
      return;
    }
    put2(header(Op.NOTIFICATIONS_CLEARED, 0, 0), 0);
  }

  void notifiedWaitEnded(int th, long obj, long notifyTime, int node, long t) {
    if (direct != null) {
      direct.notifiedWaitEnded(th, obj, notifyTime, node, t);
      return;
    }
    put4(header(Op.NOTIFIED_WAIT_ENDED, th, node), obj, notifyTime, t);
  }

  void barrierArrivedLast(int handle, int th) {
    if (direct != null) {
      direct.barrierArrivedLast(handle, th);
      return;
    }
    put2(header(Op.BARRIER_ARRIVED_LAST, th, handle), 0);
  }

  void barrierHandOver(int th, int node, int handle, long releaseTime, long t) {
    if (direct != null) {
      direct.barrierHandOver(th, node, handle, releaseTime, t);
      return;
    }
    put4(header(Op.BARRIER_HAND_OVER, th, node), handle, releaseTime, t);
  }

  void barrierDropped(int handle) {
    if (direct != null) {
      direct.barrierDropped(handle);
      return;
    }
    put2(header(Op.BARRIER_DROPPED, 0, handle), 0);
  }

  void threadCreated(int th, long childJavaId, int node, long t) {
    if (direct != null) {
      direct.threadCreated(th, childJavaId, node, t);
      return;
    }
    put3(header(Op.THREAD_CREATED, th, node), childJavaId, t);
  }

  void threadBegan(int th, long javaId, int rootNode, long t) {
    if (direct != null) {
      direct.threadBegan(th, javaId, rootNode, t);
      return;
    }
    put3(header(Op.THREAD_BEGAN, th, rootNode), javaId, t);
  }

  void recordingEnded() {
    if (direct != null) {
      direct.recordingEnded();
      return;
    }
    put2(header(Op.RECORDING_ENDED, 0, 0), 0);
  }

  /**
   * An operation's first long: its code in bits 0–7, the thread in bits 8–31 (the analysis has
   * fewer than 2^24 threads), and an int (a call-path node, a slot, a handle) in bits 32–63.
   */
  private static long header(Op op, int th, int arg) {
    return header(op.code(), th, arg);
  }

  private static long header(int code, int th, int arg) {
    return ((long) arg << 32) | ((long) th << 8) | code;
  }

  private void put2(long header, long value) {
    room();
    ops[n] = header;
    ops[n + 1] = value;
    n += 2;
  }

  private void put3(long header, long a, long b) {
    room();
    ops[n] = header;
    ops[n + 1] = a;
    ops[n + 2] = b;
    n += 3;
  }

  private void put4(long header, long a, long b, long c) {
    room();
    ops[n] = header;
    ops[n + 1] = a;
    ops[n + 2] = b;
    ops[n + 3] = c;
    n += 4;
  }

  /** Hands the batch over when the next operation might not fit. */
  private void room() {
    if (n > BATCH_LONGS - MAX_OP) {
      handOver();
    }
  }

  private void handOver() {
    Batch b = batch;
    b.size = n;
    b.ancestry = tree.ancestry();
    try {
      while (!full.offer(b, POLL_MS, TimeUnit.MILLISECONDS)) {
        stopIfGone();
      }
      if (b.last) {
        return;
      }
      Batch next;
      while ((next = empty.poll(POLL_MS, TimeUnit.MILLISECONDS)) == null) {
        stopIfGone();
      }
      next.last = false;
      batch = next;
      ops = next.ops;
      n = 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
      throw new IllegalStateException("interrupted while the critical path was computed", e);
    }
  }

  /** The critical path's thread ended early: only a failure (it drains every batch otherwise). */
  private void stopIfGone() {
    if (!worker.isAlive()) {
      rethrow();
      throw new IllegalStateException("the critical path's thread ended early");
    }
  }

  private void rethrow() {
    Throwable t = failure;
    if (t instanceof RuntimeException) {
      throw (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    if (t != null) {
      throw new IllegalStateException(t);
    }
  }

  // ---- the critical path's thread ---------------------------------------------------------------

  private void applyBatches() {
    try {
      while (true) {
        Batch b = full.poll(POLL_MS, TimeUnit.MILLISECONDS);
        if (closed) {
          return;
        }
        if (b == null) {
          continue;
        }
        if (failure == null) {
          try {
            path.fed(b.ancestry);
            apply(b.ops, b.size);
          } catch (Throwable t) { // thrown to the replay at finish(); the batches still drain
            failure = t;
          }
        }
        if (b.last) {
          applied = true;
          return;
        }
        b.ancestry = null;
        empty.put(b);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void apply(long[] ops, int size) {
    CriticalPath p = path;
    for (int i = 0; i < size; ) {
      long h = ops[i];
      int code = (int) (h & 0xFF);
      int th = (int) ((h >>> 8) & 0xFFFFFF);
      int arg = (int) (h >>> 32);
      if (code == WORK || code == WAITING) {
        // Most operations, one per event (a thread's time since its previous one): applied here,
        // without a call through Op and its vtable (on a 40 M-event lock trace, this
        // thread took 2.08 s of CPU with them all called through it, 1.96 s so).
        p.advance(th, arg, code == WORK ? CriticalPath.WORK : CriticalPath.WAIT, ops[i + 1]);
        i += 2;
        continue;
      }
      if (code >= OPS.length) {
        throw new IllegalStateException("unknown critical-path operation " + code + " at " + i);
      }
      // A call through the operations' implementations is never inlined: each is compiled on its
      // own, instead of all of them into this loop (one compilation of 70 KB of code, done twice).
      i = OPS[code].apply(p, th, arg, ops, i);
    }
  }

  private static final Op[] OPS = Op.values();

  /** The codes of the two commonest operations, as constants for {@link #apply}. */
  private static final int WORK = Op.WORK.code();

  private static final int WAITING = Op.WAITING.code();

  /**
   * How the critical path's thread applies each operation: its code is its ordinal; {@code th} and
   * {@code arg} come from the operation's first long ({@link #header}), the rest follow it. Each
   * returns where the next operation starts.
   */
  private enum Op {
    WORK {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.work(th, arg, ops[i + 1]);
        return i + 2;
      }
    },
    WAITING {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.waiting(th, arg, ops[i + 1]);
        return i + 2;
      }
    },
    WAITED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.waited(th, arg, ops[i + 1]);
        return i + 2;
      }
    },
    IDLED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.idled(th, arg, ops[i + 1]);
        return i + 2;
      }
    },
    TIMER_WAITED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.timerWaited(th, arg, ops[i + 1]);
        return i + 2;
      }
    },
    LOCK_RELEASED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.lockReleased(arg, th, ops[i + 1]);
        return i + 2;
      }
    },
    LOCK_HAND_OVER {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.lockHandOver(
            th, arg, (int) (ops[i + 1] >>> 32), (int) ops[i + 1], ops[i + 2], ops[i + 3]);
        return i + 4;
      }
    },
    TASK_CREATED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.taskCreated(arg, th);
        return i + 2;
      }
    },
    TASK_BEGUN {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.taskBegun(
            th, arg, (int) (ops[i + 1] >>> 1), (ops[i + 1] & 1) != 0, ops[i + 2], ops[i + 3]);
        return i + 4;
      }
    },
    COMPLETED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.completed(th, ops[i + 1], ops[i + 2], arg != 0);
        return i + 3;
      }
    },
    JOIN_ENTERED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.joinEntered(th, arg, ops[i + 1]);
        return i + 2;
      }
    },
    JOIN_ENDED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.joinEnded(th, (int) ops[i + 1], arg, ops[i + 2], ops[i + 3]);
        return i + 4;
      }
    },
    NOTIFIED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.notified(th, ops[i + 1]);
        return i + 2;
      }
    },
    NOTIFICATIONS_CLEARED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.notificationsCleared();
        return i + 2;
      }
    },
    NOTIFIED_WAIT_ENDED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.notifiedWaitEnded(th, ops[i + 1], ops[i + 2], arg, ops[i + 3]);
        return i + 4;
      }
    },
    BARRIER_ARRIVED_LAST {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.barrierArrivedLast(arg, th);
        return i + 2;
      }
    },
    BARRIER_HAND_OVER {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.barrierHandOver(th, arg, (int) ops[i + 1], ops[i + 2], ops[i + 3]);
        return i + 4;
      }
    },
    BARRIER_DROPPED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.barrierDropped(arg);
        return i + 2;
      }
    },
    THREAD_CREATED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.threadCreated(th, ops[i + 1], arg, ops[i + 2]);
        return i + 3;
      }
    },
    THREAD_BEGAN {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.threadBegan(th, ops[i + 1], arg, ops[i + 2]);
        return i + 3;
      }
    },
    RECORDING_ENDED {
      @Override
      int apply(CriticalPath p, int th, int arg, long[] ops, int i) {
        p.recordingEnded();
        return i + 2;
      }
    };

    abstract int apply(CriticalPath p, int th, int arg, long[] ops, int i);

    /** The operation's code, its ordinal, as written in the first long's low byte. */
    int code() {
      return ordinal();
    }
  }
}
