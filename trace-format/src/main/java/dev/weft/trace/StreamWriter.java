package dev.weft.trace;

import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;

/**
 * One thread's event stream: writes events straight into the thread's memory-mapped window of its
 * own file. <b>Single writer</b>: only the owning thread calls the event methods; there is no lock
 * and no allocation per event. One method per event kind (POMP style), each taking the event's
 * timestamp ({@code System.nanoTime()}) first.
 *
 * <p>Each event is written payload first and its kind byte last, behind a store-store fence, so a
 * process killed at any instant leaves either a whole event or a zero byte where the event would
 * start: the reader never sees half an event (see FORMAT.md, "Valid end").
 *
 * <p>When the window is full the stream switches to the next window, which a background thread has
 * already pre-allocated, mapped and pre-touched. If no window can be had (disk full, size limit),
 * events are counted as dropped; the count is kept live in the file header and written as a DROPPED
 * event when recording resumes.
 */
public final class StreamWriter {
  /** Largest encoded event: code + delta + four fields, 10 bytes each at most. */
  static final int MAX_EVENT_BYTES = 1 + 10 * (1 + EventKind.MAX_FIELDS);

  /**
   * Attempt a new window every this many dropped events (a size limit may never lift; a disk may).
   */
  private static final long RETRY_EVERY = 1 << 16;

  // Event codes as compile-time constants (EventKind is the contract; a test checks they agree).
  private static final int ENTER = 0x01;
  private static final int EXIT = 0x02;
  private static final int FORK = 0x03;
  private static final int JOIN = 0x04;
  private static final int TASK_CREATE = 0x05;
  private static final int TASK_BEGIN = 0x06;
  private static final int TASK_END = 0x07;
  private static final int JOIN_WAIT_ENTER = 0x08;
  private static final int JOIN_WAIT_EXIT = 0x09;
  private static final int BARRIER_ENTER = 0x0A;
  private static final int BARRIER_EXIT = 0x0B;
  private static final int LOCK_REQUEST = 0x0C;
  private static final int LOCK_ACQUIRED = 0x0D;
  private static final int LOCK_RELEASED = 0x0E;
  private static final int WAIT_ENTER = 0x0F;
  private static final int WAIT_EXIT = 0x10;
  private static final int MEASUREMENT_ON = 0x11;
  private static final int MEASUREMENT_OFF = 0x12;
  private static final int DROPPED = 0x13;
  private static final int THREAD_CREATE = 0x14;
  private static final int THREAD_BEGIN = 0x15;
  private static final int THREAD_END = 0x16;
  private static final int SPIN_ENTER = 0x17;
  private static final int SPIN_EXIT = 0x18;
  private static final int TASK_SUMMARY = 0x19;
  private static final int HELP_ENTER = 0x1A;
  private static final int HELP_EXIT = 0x1B;
  private static final int NOTIFY = 0x1C;
  private static final int VTHREAD_MOUNT = 0x1D;
  private static final int VTHREAD_UNMOUNT = 0x1E;
  private static final int WAIT_ENTER_ON = 0x1F;

  private final TraceWriter owner;
  private final int id;
  private final StreamFile file;

  /**
   * The current window; volatile only so that {@link #committedEnd()} (the trace's closing thread)
   * sees a whole window, the owner's hot path reads it as a plain field through {@link #window}.
   */
  private volatile Block block;

  private MappedByteBuffer window;

  /** File offset of the current window (blocks follow each other without gaps). */
  private long windowOffset = TraceFiles.EVENTS_HEADER_SIZE;

  /** {@link #events} when the current window was opened. */
  private long windowFirstEvent;

  /** A window taken from the file by a roll that did not finish (see {@link #roll}). */
  private MappedByteBuffer spare;

  /** Where the next event's kind byte goes. */
  private int pos;

  /**
   * The hot path's only bound: past it, {@link #makeRoom()} runs. First the half-way mark of the
   * window (where the next window is requested), then {@link #hardLimit}; -1 while there is no
   * window.
   */
  private int limit = -1;

  /** Last position at which an event of any size still fits, with a byte left for BLOCK_END. */
  private int hardLimit = -1;

  private long last;
  private boolean dropping;

  private long droppedSinceResume;
  private long droppedTotal;
  private long events;

  StreamWriter(TraceWriter owner, int id, StreamFile file, long startTime) {
    this.owner = owner;
    this.id = id;
    this.file = file;
    this.last = startTime;
  }

  /** The stream id (names the file and is the thread's key in the definitions). */
  public int id() {
    return id;
  }

  /** Events written so far (not counting dropped ones, counting DROPPED records). */
  public long events() {
    return events;
  }

  /** Events lost to a full disk or the size limit. */
  public long dropped() {
    return droppedTotal;
  }

  /** The time of the last event written (the stream's start before any). */
  public long lastTime() {
    return last;
  }

  // ---- one method per event kind ----------------------------------------------------------------
  // Every method takes the event's System.nanoTime() first. int parameters are stored as unsigned
  // 32-bit values, long parameters as unsigned 64-bit values (see FORMAT.md, "Events").

  /** A traced method or user region is entered. */
  public void enter(long t, int region) {
    event1(t, ENTER, u32(region));
  }

  /** A traced method or user region is left (normally or by an exception). */
  public void exit(long t, int region) {
    event1(t, EXIT, u32(region));
  }

  /** This thread starts a parallel region run by {@code pool} with the given parallelism. */
  public void fork(long t, int region, int pool, int parallelism) {
    event3(t, FORK, u32(region), u32(pool), u32(parallelism));
  }

  /** The parallel region started by the matching {@link #fork} is complete. */
  public void join(long t, int region, int pool) {
    event2(t, JOIN, u32(region), u32(pool));
  }

  /** A task is submitted to {@code pool} (0 when unknown) at call site {@code region}. */
  public void taskCreate(long t, int region, long task, int pool) {
    event3(t, TASK_CREATE, u32(region), task, u32(pool));
  }

  /** This thread starts running a task. */
  public void taskBegin(long t, long task) {
    event1(t, TASK_BEGIN, task);
  }

  /** This thread finished running a task. */
  public void taskEnd(long t, long task) {
    event1(t, TASK_END, task);
  }

  /** This thread starts waiting for forked or submitted work ({@code target}: task or thread). */
  public void joinWaitEnter(long t, int region, long target) {
    event2(t, JOIN_WAIT_ENTER, u32(region), target);
  }

  /** The wait started by {@link #joinWaitEnter} is over. */
  public void joinWaitExit(long t, int region) {
    event1(t, JOIN_WAIT_EXIT, u32(region));
  }

  /** This thread arrives at a barrier (generation or phase {@code generation}). */
  public void barrierEnter(long t, int region, long barrier, long generation) {
    event3(t, BARRIER_ENTER, u32(region), barrier, generation);
  }

  /** This thread leaves a barrier; {@code outcome} holds {@link BarrierOutcome} bits. */
  public void barrierExit(long t, int region, long barrier, long generation, int outcome) {
    event4(t, BARRIER_EXIT, u32(region), barrier, generation, u32(outcome));
  }

  /** This thread asks for a lock (before it may have to wait). */
  public void lockRequest(long t, int region, long lock) {
    event2(t, LOCK_REQUEST, u32(region), lock);
  }

  /** This thread got a lock, or gave up trying; {@code flags} holds {@link LockFlags} bits. */
  public void lockAcquired(long t, long lock, int flags) {
    event2(t, LOCK_ACQUIRED, lock, u32(flags));
  }

  /** This thread released a lock. */
  public void lockReleased(long t, long lock) {
    event1(t, LOCK_RELEASED, lock);
  }

  /** This thread starts waiting; {@code waitKind} is a {@link WaitKind} code. */
  public void waitEnter(long t, int region, int waitKind) {
    event2(t, WAIT_ENTER, u32(region), u32(waitKind));
  }

  /**
   * This thread starts waiting on {@code object} (since 1.4): a wait as {@link #waitEnter}, which a
   * NOTIFY of the same wait kind naming {@code object} may end (a consumer's take from a queue,
   * ended by a producer's hand-over).
   */
  public void waitEnterOn(long t, int region, int waitKind, long object) {
    event3(t, WAIT_ENTER_ON, u32(region), u32(waitKind), object);
  }

  /** The wait started by {@link #waitEnter} or {@link #waitEnterOn} is over. */
  public void waitExit(long t, int region) {
    event1(t, WAIT_EXIT, u32(region));
  }

  /** Measurement was switched on (recording resumes; state before it is unknown). */
  public void measurementOn(long t) {
    event0(t, MEASUREMENT_ON);
  }

  /** Measurement is being switched off (events until the next MEASUREMENT_ON are not recorded). */
  public void measurementOff(long t) {
    event0(t, MEASUREMENT_OFF);
  }

  /** This thread starts another thread whose Java thread id is {@code childJavaId}. */
  public void threadCreate(long t, int region, long childJavaId) {
    event2(t, THREAD_CREATE, u32(region), childJavaId);
  }

  /** This thread begins to run (its first event when it started during the recording). */
  public void threadBegin(long t) {
    event0(t, THREAD_BEGIN);
  }

  /** This thread ends (its last event). */
  public void threadEnd(long t) {
    event0(t, THREAD_END);
  }

  /** This thread starts spinning ({@code Thread.onSpinWait} loops, {@code Thread.yield}). */
  public void spinEnter(long t, int region) {
    event1(t, SPIN_ENTER, u32(region));
  }

  /** The spin started by {@link #spinEnter} is over. */
  public void spinExit(long t, int region) {
    event1(t, SPIN_EXIT, u32(region));
  }

  /** Aggregated mode: {@code count} tasks of a kind ran, together taking {@code durationNanos}. */
  public void taskSummary(long t, int region, int pool, long count, long durationNanos) {
    event4(t, TASK_SUMMARY, u32(region), u32(pool), count, durationNanos);
  }

  /** Inside a join, this thread starts running other tasks (fork/join helping). */
  public void helpEnter(long t, int region) {
    event1(t, HELP_ENTER, u32(region));
  }

  /** The helping started by {@link #helpEnter} is over. */
  public void helpExit(long t, int region) {
    event1(t, HELP_EXIT, u32(region));
  }

  /**
   * This thread wakes waiters of {@code object} ({@code notify}, {@code signal}, {@code unpark}).
   */
  public void notify(long t, int region, long object, int waitKind) {
    event3(t, NOTIFY, u32(region), object, u32(waitKind));
  }

  /** A virtual thread is mounted on this carrier thread. */
  public void vthreadMount(long t, long vthreadJavaId) {
    event1(t, VTHREAD_MOUNT, vthreadJavaId);
  }

  /** A virtual thread is unmounted from this carrier thread. */
  public void vthreadUnmount(long t, long vthreadJavaId) {
    event1(t, VTHREAD_UNMOUNT, vthreadJavaId);
  }

  // ---- encoding ---------------------------------------------------------------------------------
  // The fast path takes numbers of at most four varint bytes (deltas below 268 ms, ids below 2^28).
  // Their varints are assembled in longs and stored with one putLong when the payload fits in
  // eight bytes (the usual case), else with two or three stores; then the kind byte is stored. The
  // bytes of a long past the payload are zeros, stored over space that is still zero (the window
  // is zeroed, and each store only reaches ahead of what has been committed). One combined sign
  // test sends everything else (the half-way mark or end of the window, drops, large numbers, a
  // clock that stepped back) to slowEvent, kept out of line so the fast path stays small. Lengths
  // come from branches, not arithmetic: a predicted branch lets the next store's address be known
  // early, and measured (benchmarks/encode.sh) this was faster than a branch-free encoding.

  private static long u32(int v) {
    return v & 0xFFFF_FFFFL;
  }

  /**
   * The varint of {@code v} in the low four bytes of a long and its length in the top byte; -1 when
   * {@code v} is negative or needs more than four bytes.
   */
  private static long packed(long v) {
    if ((v >>> 7) == 0) {
      return v | 1L << 56;
    }
    if ((v >>> 14) == 0) {
      return (v & 0x7F) | 0x80 | ((v << 1) & 0x7F00) | 2L << 56;
    }
    if ((v >>> 21) == 0) {
      return (v & 0x7F) | 0x8080 | ((v << 1) & 0x7F00) | ((v << 2) & 0x7F_0000) | 3L << 56;
    }
    if ((v >>> 28) == 0) {
      long spread = (v & 0x7F) | ((v << 1) & 0x7F00) | ((v << 2) & 0x7F_0000);
      return spread | 0x80_8080 | ((v << 3) & 0x7F00_0000L) | 4L << 56;
    }
    return -1;
  }

  private static final long BYTES = 0xFFFF_FFFFL;

  private void event0(long t, int code) {
    int p = pos;
    long x0 = packed(t - last);
    if ((x0 | (limit - p)) < 0) {
      slowEvent(t, code, 0, 0, 0, 0, 0);
      return;
    }
    window.putInt(p + 1, (int) (x0 & BYTES));
    commit(p, code, p + 1 + (int) (x0 >>> 56), t);
  }

  private void event1(long t, int code, long a) {
    int p = pos;
    long x0 = packed(t - last);
    long x1 = packed(a);
    if ((x0 | x1 | (limit - p)) < 0) { // two numbers of at most four bytes always fit in a long
      slowEvent(t, code, 1, a, 0, 0, 0);
      return;
    }
    int n0 = (int) (x0 >>> 56);
    window.putLong(p + 1, (x0 & BYTES) | (x1 & BYTES) << (n0 << 3));
    commit(p, code, p + 1 + n0 + (int) (x1 >>> 56), t);
  }

  private void event2(long t, int code, long a, long b) {
    int p = pos;
    long x0 = packed(t - last);
    long x1 = packed(a);
    long x2 = packed(b);
    if ((x0 | x1 | x2 | (limit - p)) < 0) {
      slowEvent(t, code, 2, a, b, 0, 0);
      return;
    }
    int n0 = (int) (x0 >>> 56);
    int n1 = n0 + (int) (x1 >>> 56);
    int n = n1 + (int) (x2 >>> 56);
    long low = (x0 & BYTES) | (x1 & BYTES) << (n0 << 3);
    if (n <= 8) {
      window.putLong(p + 1, low | (x2 & BYTES) << (n1 << 3));
    } else {
      window.putLong(p + 1, low);
      window.putInt(p + 1 + n1, (int) x2);
    }
    commit(p, code, p + 1 + n, t);
  }

  private void event3(long t, int code, long a, long b, long c) {
    int p = pos;
    long x0 = packed(t - last);
    long x1 = packed(a);
    long x2 = packed(b);
    long x3 = packed(c);
    if ((x0 | x1 | x2 | x3 | (limit - p)) < 0) {
      slowEvent(t, code, 3, a, b, c, 0);
      return;
    }
    int n0 = (int) (x0 >>> 56);
    int n1 = n0 + (int) (x1 >>> 56);
    int m2 = (int) (x2 >>> 56);
    int n = n1 + m2 + (int) (x3 >>> 56);
    long low = (x0 & BYTES) | (x1 & BYTES) << (n0 << 3);
    long high = (x2 & BYTES) | (x3 & BYTES) << (m2 << 3);
    if (n <= 8) {
      window.putLong(p + 1, low | high << (n1 << 3));
    } else {
      window.putLong(p + 1, low);
      window.putLong(p + 1 + n1, high);
    }
    commit(p, code, p + 1 + n, t);
  }

  private void event4(long t, int code, long a, long b, long c, long e) {
    int p = pos;
    long x0 = packed(t - last);
    long x1 = packed(a);
    long x2 = packed(b);
    long x3 = packed(c);
    long x4 = packed(e);
    if ((x0 | x1 | x2 | x3 | x4 | (limit - p)) < 0) {
      slowEvent(t, code, 4, a, b, c, e);
      return;
    }
    int n0 = (int) (x0 >>> 56);
    int n1 = n0 + (int) (x1 >>> 56);
    int m2 = (int) (x2 >>> 56);
    int n3 = n1 + m2 + (int) (x3 >>> 56);
    MappedByteBuffer w = window;
    w.putLong(p + 1, (x0 & BYTES) | (x1 & BYTES) << (n0 << 3));
    w.putLong(p + 1 + n1, (x2 & BYTES) | (x3 & BYTES) << (m2 << 3));
    w.putInt(p + 1 + n3, (int) x4);
    commit(p, code, p + 1 + n3 + (int) (x4 >>> 56), t);
  }

  /**
   * Everything the fast path does not take: the half-way mark or end of the window, drops, numbers
   * of more than four bytes, payloads of more than eight bytes, a clock that stepped back.
   */
  private void slowEvent(long t, int code, int fieldCount, long a, long b, long c, long e) {
    int p = pos;
    if (p > limit) {
      if (!makeRoom()) {
        drop();
        return;
      }
      p = pos;
    }
    // A clock that steps back is clamped (times stay monotonic). Nothing is stored in fields
    // before commit: a stack overflow in here (the host's deep recursion) loses this event only.
    long time = Math.max(t, last);
    int q = put(p + 1, time - last);
    if (fieldCount > 0) {
      q = put(q, a);
    }
    if (fieldCount > 1) {
      q = put(q, b);
    }
    if (fieldCount > 2) {
      q = put(q, c);
    }
    if (fieldCount > 3) {
      q = put(q, e);
    }
    commit(p, code, q, time);
  }

  /**
   * Stores the varint of {@code v} (unsigned 64-bit) at {@code p}, byte by byte; returns its end.
   */
  private int put(int p, long v) {
    MappedByteBuffer w = window;
    while ((v & ~0x7FL) != 0) {
      w.put(p++, (byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    w.put(p++, (byte) v);
    return p;
  }

  /**
   * Makes the event at {@code p} valid by storing its kind byte, after its payload, then records
   * its end and time. Fields are read before the fence and written after it, so the fence (which
   * the compiler treats as a barrier for all memory) costs no reloads.
   */
  private void commit(int p, int code, int end, long time) {
    MappedByteBuffer w = window;
    long count = events + 1;
    // The payload must reach memory before the kind byte that makes the event valid.
    VarHandle.storeStoreFence();
    w.put(p, (byte) code);
    pos = end;
    last = time;
    events = count;
  }

  // ---- windows and drops ------------------------------------------------------------------------

  /** Opens the first window; false when none can be had (the stream starts out dropping). */
  boolean start() {
    return roll();
  }

  /**
   * The slow path of the hot path's bound check: at the half-way mark, asks the background thread
   * for the next window and writes on; at the hard limit, moves to the next window. False when no
   * window can be had.
   */
  private boolean makeRoom() {
    if (window != null && pos <= hardLimit) {
      limit = hardLimit;
      file.requestNext(owner);
      return true;
    }
    return roll();
  }

  /**
   * Moves to the next window. Returns false if no window can be had.
   *
   * <p>A stack overflow (the host's deep recursion) can strike at any call in here. So every call
   * comes first and can be repeated, the window taken is kept in {@link #spare} until it is in use,
   * and the switch itself is plain stores, which cannot overflow: a roll cut short leaves the old
   * window current and the next roll does it again, never a gap in the file or a block whose base
   * time is not the previous event's. No event goes into the old window in between (its position is
   * still past the hard limit, so the next event rolls again), so sealing it twice seals the same
   * bytes. Left: an overflow inside the seal itself, right before the trace closes, can leave a
   * half-written trailer.
   */
  private boolean roll() {
    MappedByteBuffer next = spare;
    if (next == null) {
      next = file.takeNext(owner, !dropping, window == null);
      if (next == null) {
        dropping = true;
        return false;
      }
      spare = next;
    }
    long nextOffset = windowOffset;
    if (window != null) {
      // The reader continues with the next block; the new block header follows, so a process
      // killed in between leaves a block end followed by zeros: a valid end.
      window.put(pos, (byte) TraceFiles.CODE_BLOCK_END);
      WindowSeal.seal(window, events - windowFirstEvent);
      nextOffset += window.capacity();
    }
    Block nextBlock = new Block(next, nextOffset);
    int capacity = next.capacity();
    next.order(ByteOrder.LITTLE_ENDIAN);
    next.putInt(1, capacity);
    next.putLong(5, last);
    VarHandle.storeStoreFence();
    next.put(0, (byte) TraceFiles.CODE_BLOCK);
    int nextHardLimit = capacity - TraceFiles.BLOCK_TRAILER_SIZE - MAX_EVENT_BYTES - 1;
    // The switch: no calls from here on.
    spare = null;
    dropping = false;
    windowOffset = nextOffset;
    windowFirstEvent = events;
    block = nextBlock;
    window = next;
    pos = TraceFiles.BLOCK_HEADER_SIZE;
    hardLimit = nextHardLimit;
    limit = pos + (nextHardLimit - pos) / 2;
    if (droppedSinceResume > 0) {
      // A fresh window always has room for one event. The count is cleared only once written.
      event1(last, DROPPED, droppedSinceResume);
      droppedSinceResume = 0;
    }
    return true;
  }

  /** The current window and where it lies in the file. */
  private record Block(MappedByteBuffer window, long offset) {}

  /**
   * Where the stream's committed events end in its current (unsealed) window, with the CRC-32C of
   * the block up to there; null when the stream has no window. Called by the thread that closes the
   * trace while the owner may still be writing: events committed later lie after the end found
   * here.
   */
  WindowSeal.CommittedEnd committedEnd() {
    Block b = block;
    return b == null ? null : WindowSeal.committedEnd(b.window(), b.offset());
  }

  /**
   * This stream's thread has ended and its THREAD_END is written: the stream is finished now rather
   * than at the trace's close ({@link TraceWriter#retire}). Called by the stream's owner.
   */
  public void retire() {
    owner.retire(this);
  }

  /** Closes the stream's file for further windows (called when the trace is closed). */
  void closeFile() {
    file.close();
  }

  private void drop() {
    droppedSinceResume++;
    droppedTotal++;
    file.publishDropped(droppedTotal);
    if ((droppedSinceResume & (RETRY_EVERY - 1)) == 1) {
      file.requestNext(owner); // at the first drop, then now and then: disk space may come back
    }
  }
}
