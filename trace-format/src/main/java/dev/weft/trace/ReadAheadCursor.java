package dev.weft.trace;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Another cursor's events, read ahead on a thread of their own: that thread runs the source (for
 * {@link Trace#events()}: decoding every stream, the merge by time and the virtual threads' demux)
 * and copies its events into batches of primitive arrays, and this cursor hands them out in the
 * same order. The consumer, an analysis replaying them, then spends its core on the replay alone
 * while the reading runs on another.
 *
 * <p>The events, their order and everything the source's cursors record while reading (their
 * states, problems and damage) are exactly what reading the source directly gives: it is the same
 * reading, on another thread. An exception the source throws is thrown by {@link #next()} here once
 * the events before it have been handed out. Once {@link #next()} has returned false the source is
 * read to its end and the reading thread has finished, so the source's cursors may be inspected.
 * ({@link #field} of an index the kind does not have is as undefined as it is on the source.)
 *
 * <p>Memory is fixed: {@link #BATCHES} batches of {@link #BATCH_EVENTS} events (about 2.9 MiB in
 * all), recycled; the reader waits while they are all full. {@link #close()} stops the reading
 * thread and waits for it, so that nothing reads the trace's files once the consumer gives up.
 */
public final class ReadAheadCursor implements EventCursor, AutoCloseable {
  /**
   * Events per batch. The reader is faster than the replay and waits for an empty batch, so handing
   * one back wakes it: a system call on both sides, some microseconds. At 4,096 events those
   * wake-ups were 8 % of the reading thread's CPU and 3 % of the replay's.
   */
  static final int BATCH_EVENTS = 16_384;

  /** Batches in flight: enough for the reader to keep going while the consumer has one. */
  static final int BATCHES = 4;

  /** How often a waiting reader looks whether the consumer has closed this cursor. */
  private static final long POLL_MS = 20;

  private static final EventKind[] KINDS = EventKind.values();

  /** A batch of events, column by column; fields at {@code event * MAX_FIELDS + index}. */
  private static final class Batch {
    final long[] times = new long[BATCH_EVENTS];
    final int[] streams = new int[BATCH_EVENTS];
    final byte[] kinds = new byte[BATCH_EVENTS];
    final long[] fields = new long[BATCH_EVENTS * EventKind.MAX_FIELDS];
    int size;

    /** The source has no more events after this batch's. */
    boolean last;

    /** What the source threw after this batch's events, or null. */
    Throwable failure;
  }

  private final EventCursor source;
  private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES);
  private final BlockingQueue<Batch> empty = new ArrayBlockingQueue<>(BATCHES);
  private final Thread reader;
  private volatile boolean closed;

  private Batch batch;
  private int i;
  private boolean done;

  /** Starts reading {@code source} on a new daemon thread; the caller must {@link #close()}. */
  public ReadAheadCursor(EventCursor source) {
    this.source = source;
    for (int b = 0; b < BATCHES; b++) {
      empty.add(new Batch());
    }
    this.reader = new Thread(this::read, "weft-trace-reader");
    reader.setDaemon(true);
    reader.start();
  }

  // ---- the reading thread -----------------------------------------------------------------------

  private void read() {
    try {
      boolean more = true;
      while (more) {
        Batch b = take(empty);
        if (b == null) {
          return; // closed
        }
        more = fill(b);
        if (!put(b)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Fills {@code b} from the source; false when the source has ended (or failed). */
  private boolean fill(Batch b) {
    EventCursor c = source;
    long[] times = b.times;
    int[] streams = b.streams;
    byte[] kinds = b.kinds;
    long[] fields = b.fields;
    int n = 0;
    b.last = false;
    b.failure = null;
    try {
      while (n < BATCH_EVENTS) {
        if (!c.next()) {
          b.last = true;
          break;
        }
        EventKind k = c.kind();
        times[n] = c.time();
        streams[n] = c.stream();
        kinds[n] = (byte) k.ordinal();
        int at = n * EventKind.MAX_FIELDS;
        for (int f = 0, count = k.fieldCount(); f < count; f++) {
          fields[at + f] = c.field(f);
        }
        n++;
      }
    } catch (Throwable t) { // handed to the consumer, which would have met it reading directly
      b.failure = t;
      b.last = true;
    }
    b.size = n;
    return !b.last;
  }

  private Batch take(BlockingQueue<Batch> q) throws InterruptedException {
    while (!closed) {
      Batch b = q.poll(POLL_MS, TimeUnit.MILLISECONDS);
      if (b != null) {
        return b;
      }
    }
    return null;
  }

  private boolean put(Batch b) throws InterruptedException {
    while (!closed) {
      if (full.offer(b, POLL_MS, TimeUnit.MILLISECONDS)) {
        return true;
      }
    }
    return false;
  }

  // ---- the consumer -----------------------------------------------------------------------------

  @Override
  public boolean next() {
    Batch b = batch;
    if (b != null && ++i < b.size) {
      return true;
    }
    return nextBatch();
  }

  private boolean nextBatch() {
    Batch b = batch;
    if (b != null) {
      batch = null;
      if (b.failure != null) {
        Throwable t = b.failure;
        done = true;
        join();
        if (t instanceof Error e) {
          throw e;
        }
        throw t instanceof RuntimeException r ? r : new IllegalStateException(t);
      }
      if (b.last) {
        done = true;
        join();
        return false;
      }
      empty.add(b);
    }
    if (done) {
      return false;
    }
    try {
      while ((b = full.poll(POLL_MS, TimeUnit.MILLISECONDS)) == null) {
        if (!reader.isAlive() && full.isEmpty()) {
          throw new IllegalStateException("the trace reader thread stopped");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the trace", e);
    }
    batch = b;
    i = 0;
    return b.size > 0 || nextBatch();
  }

  /** Waits for the reading thread, which has handed out its last batch, to end. */
  private void join() {
    try {
      reader.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public EventKind kind() {
    return KINDS[batch.kinds[i] & 0xFF];
  }

  @Override
  public long time() {
    return batch.times[i];
  }

  @Override
  public int stream() {
    return batch.streams[i];
  }

  @Override
  public long field(int index) {
    return batch.fields[i * EventKind.MAX_FIELDS + index];
  }

  /** Stops the reading thread (if it is still reading) and waits for it. */
  @Override
  public void close() {
    closed = true;
    join();
  }
}
