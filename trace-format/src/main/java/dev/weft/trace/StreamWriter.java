package dev.weft.trace;

import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;

/**
 * One thread's event stream: writes events straight into the thread's memory-mapped window of its own
 * file. <b>Single writer</b>: only the owning thread calls the event methods; there is no lock and no
 * allocation per event. One method per event kind (POMP style), each taking the event's timestamp
 * ({@code System.nanoTime()}) first.
 *
 * <p>Each event is written payload first and its kind byte last, behind a store-store fence, so a process
 * killed at any instant leaves either a whole event or a zero byte where the event would start: the
 * reader never sees half an event (see FORMAT.md, "Valid end").
 *
 * <p>When the window is full the stream switches to the next window, which a background thread has
 * already pre-allocated, mapped and pre-touched. If no window can be had (disk full, size limit), events
 * are counted as dropped; the count is kept live in the file header and written as a DROPPED event when
 * recording resumes.
 */
public final class StreamWriter {
  /** Largest encoded event: code + delta + four fields, 10 bytes each at most. */
  static final int MAX_EVENT_BYTES = 1 + 10 * (1 + EventKind.MAX_FIELDS);

  /** Kept free at the end of each window for a DROPPED event and the BLOCK_END byte. */
  static final int WINDOW_RESERVE = MAX_EVENT_BYTES + 1;

  /** Attempt a new window every this many dropped events (a size limit may never lift; a disk may). */
  private static final long RETRY_EVERY = 1 << 16;

  private final TraceWriter owner;
  private final int id;
  private final StreamFile file;

  private MappedByteBuffer window;
  private int pos;
  private int limit;
  private long last;
  private boolean nextRequested;
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

  /** Events written so far (not counting dropped ones). */
  public long events() {
    return events;
  }

  /** Events lost to a full disk or the size limit. */
  public long dropped() {
    return droppedTotal;
  }

  // ---- one method per event kind -----------------------------------------------------------------

  public void enter(long t, int region) {
    if (pos > limit && !roll()) {
      drop();
      return;
    }
    int p = time(pos + 1, t);
    p = put(p, region);
    commit(p, 0x01);
  }

  public void exit(long t, int region) {
    if (pos > limit && !roll()) {
      drop();
      return;
    }
    int p = time(pos + 1, t);
    p = put(p, region);
    commit(p, 0x02);
  }

  public void fork(long t, int region, int pool, int parallelism) {
    event3(t, 0x03, region, pool, parallelism);
  }

  public void join(long t, int region, int pool) {
    event2(t, 0x04, region, pool);
  }

  public void taskCreate(long t, int region, long task, int pool) {
    event3(t, 0x05, region, task, pool);
  }

  public void taskBegin(long t, long task) {
    event1(t, 0x06, task);
  }

  public void taskEnd(long t, long task) {
    event1(t, 0x07, task);
  }

  public void joinWaitEnter(long t, int region, long target) {
    event2(t, 0x08, region, target);
  }

  public void joinWaitExit(long t, int region) {
    event1(t, 0x09, region);
  }

  public void barrierEnter(long t, int region, long barrier, long generation) {
    event3(t, 0x0A, region, barrier, generation);
  }

  public void barrierExit(long t, int region, long barrier, long generation, int outcome) {
    event4(t, 0x0B, region, barrier, generation, outcome);
  }

  public void lockRequest(long t, int region, long lock) {
    event2(t, 0x0C, region, lock);
  }

  public void lockAcquired(long t, long lock, int flags) {
    event2(t, 0x0D, lock, flags);
  }

  public void lockReleased(long t, long lock) {
    event1(t, 0x0E, lock);
  }

  public void waitEnter(long t, int region, int waitKind) {
    event2(t, 0x0F, region, waitKind);
  }

  public void waitExit(long t, int region) {
    event1(t, 0x10, region);
  }

  public void measurementOn(long t) {
    event0(t, 0x11);
  }

  public void measurementOff(long t) {
    event0(t, 0x12);
  }

  public void threadCreate(long t, int region, long childJavaId) {
    event2(t, 0x14, region, childJavaId);
  }

  public void threadBegin(long t) {
    event0(t, 0x15);
  }

  public void threadEnd(long t) {
    event0(t, 0x16);
  }

  public void spinEnter(long t, int region) {
    event1(t, 0x17, region);
  }

  public void spinExit(long t, int region) {
    event1(t, 0x18, region);
  }

  public void taskSummary(long t, int region, int pool, long count, long durationNanos) {
    event4(t, 0x19, region, pool, count, durationNanos);
  }

  public void helpEnter(long t, int region) {
    event1(t, 0x1A, region);
  }

  public void helpExit(long t, int region) {
    event1(t, 0x1B, region);
  }

  public void notify(long t, int region, long object, int waitKind) {
    event3(t, 0x1C, region, object, waitKind);
  }

  public void vthreadMount(long t, long vthreadJavaId) {
    event1(t, 0x1D, vthreadJavaId);
  }

  public void vthreadUnmount(long t, long vthreadJavaId) {
    event1(t, 0x1E, vthreadJavaId);
  }

  // ---- encoding -----------------------------------------------------------------------------------

  private void event0(long t, int code) {
    if (pos > limit && !roll()) {
      drop();
      return;
    }
    commit(time(pos + 1, t), code);
  }

  private void event1(long t, int code, long a) {
    if (pos > limit && !roll()) {
      drop();
      return;
    }
    int p = time(pos + 1, t);
    p = put(p, a);
    commit(p, code);
  }

  private void event2(long t, int code, long a, long b) {
    if (pos > limit && !roll()) {
      drop();
      return;
    }
    int p = time(pos + 1, t);
    p = put(p, a);
    p = put(p, b);
    commit(p, code);
  }

  private void event3(long t, int code, long a, long b, long c) {
    if (pos > limit && !roll()) {
      drop();
      return;
    }
    int p = time(pos + 1, t);
    p = put(p, a);
    p = put(p, b);
    p = put(p, c);
    commit(p, code);
  }

  private void event4(long t, int code, long a, long b, long c, long d) {
    if (pos > limit && !roll()) {
      drop();
      return;
    }
    int p = time(pos + 1, t);
    p = put(p, a);
    p = put(p, b);
    p = put(p, c);
    p = put(p, d);
    commit(p, code);
  }

  /** Writes the delta from the previous event; a clock that steps back is clamped (times stay monotonic). */
  private int time(int p, long t) {
    long delta = t - last;
    if (delta < 0) {
      delta = 0;
    } else {
      last = t;
    }
    return put(p, delta);
  }

  private int put(int p, long v) {
    MappedByteBuffer w = window;
    while ((v & ~0x7FL) != 0) {
      w.put(p++, (byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    w.put(p++, (byte) v);
    return p;
  }

  private void commit(int end, int code) {
    // The payload must be in memory before the code byte that makes the event valid.
    VarHandle.storeStoreFence();
    window.put(pos, (byte) code);
    pos = end;
    events++;
    if (!nextRequested && pos > (limit >>> 1)) {
      nextRequested = true;
      file.requestNext(owner);
    }
  }

  // ---- windows and drops --------------------------------------------------------------------------

  /** Opens the first window; false when none can be had (the stream starts out dropping). */
  boolean start() {
    return roll();
  }

  /** Moves to the next window. Returns false if no window can be had. */
  private boolean roll() {
    MappedByteBuffer next = file.takeNext(owner, !dropping);
    if (next == null) {
      dropping = true;
      return false;
    }
    dropping = false;
    if (window != null) {
      window.put(pos, (byte) TraceFiles.CODE_BLOCK_END);
    }
    window = next;
    next.order(ByteOrder.LITTLE_ENDIAN);
    next.putInt(1, next.capacity());
    next.putLong(5, last);
    VarHandle.storeStoreFence();
    next.put(0, (byte) TraceFiles.CODE_BLOCK);
    pos = TraceFiles.BLOCK_HEADER_SIZE;
    limit = next.capacity() - WINDOW_RESERVE - MAX_EVENT_BYTES;
    nextRequested = false;
    if (droppedSinceResume > 0) {
      // Safe: a fresh window always has room for one event.
      int p = time(pos + 1, last);
      p = put(p, droppedSinceResume);
      commit(p, EventKind.DROPPED.code());
      droppedSinceResume = 0;
    }
    return true;
  }

  private void drop() {
    droppedSinceResume++;
    droppedTotal++;
    if ((droppedTotal & 1023) == 1) {
      file.publishDropped(droppedTotal);
    }
    if (droppedSinceResume % RETRY_EVERY == 0) {
      file.requestNext(owner);
    }
  }

  /**
   * Publishes the drop count into the file header. Safe from any thread (called by {@link
   * TraceWriter#close} while the owner may still be running): it writes only the header's counter.
   */
  void publishDropped() {
    file.publishDropped(droppedTotal);
  }
}
