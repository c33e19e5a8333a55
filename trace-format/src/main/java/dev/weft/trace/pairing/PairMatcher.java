package dev.weft.trace.pairing;

import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.WaitKind;
import java.util.Arrays;

/**
 * Applies the pairing grammar ({@link Construct}) to one thread's events, in order, and tells a
 * {@link Listener} what pairs up: an opening, a closing with the opening it matches (whatever was
 * opened inside is closed with it), a closing that matches nothing, lock holds taken and given
 * back, virtual threads mounted. What is still open at the end is left on the stack, for the caller
 * to read. Every reader of event pairs (verifier, timeline, exporters) uses this, so they agree on
 * what pairs with what.
 *
 * <p>Runs once per event on the readers' hot path: it allocates only when a thread's nesting or its
 * held locks outgrow what they were before. The opening event's time, index and fields stay
 * readable for as long as its construct is open.
 *
 * <p>The past of a thread may be unknown: its stream starts without {@code thread_begin}, or events
 * were dropped, or measurement was off ({@link #pastUnknown}). What was open then may have closed
 * unseen, so a closing that skips over such constructs is no mistake ({@link #uncertainDepth}).
 */
public final class PairMatcher {

  /** What the matcher finds; each call comes with the event that caused it (the cursor). */
  public interface Listener {
    /** A nested construct was opened: it is at {@code depth} (0 = outermost). */
    default void opened(PairMatcher m, int depth, EventCursor e) {}

    /**
     * The nested construct at {@code depth} is closed by {@code e}; those above it (up to {@link
     * #depth()} - 1), opened inside it, are closed with it. Called before they are removed.
     */
    default void closed(PairMatcher m, int depth, EventCursor e) {}

    /** {@code e} closes a construct with this key, and none is open (or the lock is not held). */
    default void unmatched(PairMatcher m, Construct c, EventCursor e) {}

    /**
     * A {@code lock_acquired}, after it closed its lock wait if one was open: the thread now holds
     * the lock {@code count} times; {@code took} is false when that is unchanged (a failed or
     * aborted try, or a re-acquisition after a wait of a lock the thread still holds).
     */
    default void acquired(PairMatcher m, long lock, int count, boolean took, EventCursor e) {}

    /**
     * A {@code lock_released} of a held lock, now held {@code count} times; {@code since} is the
     * time of the acquisition that took it from not held (the hold ends when count is 0).
     */
    default void released(PairMatcher m, long lock, int count, long since, EventCursor e) {}

    /** A {@code vthread_mount}; {@code previous} is the virtual thread mounted before, or 0. */
    default void mounted(PairMatcher m, long previous, EventCursor e) {}

    /** A {@code vthread_unmount}; {@code previous} is the virtual thread it finds mounted, or 0. */
    default void unmounted(PairMatcher m, long previous, EventCursor e) {}

    /**
     * The thread's {@code thread_end}, with what it still has open readable; afterwards it has
     * nothing open.
     */
    default void ended(PairMatcher m, EventCursor e) {}
  }

  private static final Construct[] CONSTRUCTS = Construct.values();
  private static final int FIELDS = EventKind.MAX_FIELDS;
  private static final int NOT_TAKEN = LockFlags.FAILED | LockFlags.ABORTED;

  private final Listener listener;

  private int depth;
  private byte[] construct = new byte[8];
  private long[] key = new long[8];
  private long[] secondKey = new long[8];
  private long[] openTime = new long[8];
  private long[] openIndex = new long[8];
  private int[] tag = new int[8];
  private long[] openFields = new long[8 * FIELDS];

  private int held;
  private long[] heldLock = new long[4];
  private int[] heldCount = new int[4];
  private long[] heldSince = new long[4];

  /** The last LOCK_RELEASED: its lock, its index, and the count it left. */
  private long releasedLock;

  private long releasedIndex = -2;
  private int releasedCount;

  /**
   * The lock a notifiable wait gave up in full while held deeper than one (its LOCK_RELEASED came
   * just before its WAIT_ENTER, and counted one), or 0: its AFTER_WAIT re-acquisition takes back
   * that one.
   */
  private long gaveUpForWait;

  private long mounted;
  private long index = -1;
  private int uncertainDepth;
  private boolean pastKnown;

  public PairMatcher(Listener listener) {
    this.listener = listener;
  }

  /** Applies the grammar to the cursor's current event, the thread's next. */
  public void event(EventCursor e) {
    index++;
    EventKind k = e.kind();
    switch (k) {
      case THREAD_BEGIN:
        if (index == 0) {
          pastKnown = true; // the thread started inside the recording: nothing was open
        }
        return;
      case THREAD_END:
        if (mounted == 0) {
          listener.ended(this, e);
          popTo(0);
          held = 0;
          gaveUpForWait = 0;
        }
        return;
      case DROPPED:
        pastUnknown();
        return;
      case VTHREAD_MOUNT:
        listener.mounted(this, mounted, e);
        mounted = e.field(0);
        return;
      case VTHREAD_UNMOUNT:
        listener.unmounted(this, mounted, e);
        mounted = 0;
        return;
      case LOCK_ACQUIRED:
        close(Construct.LOCK_WAIT, e);
        acquire(e);
        return;
      case LOCK_RELEASED:
        release(e);
        return;
      case WAIT_ENTER:
        if (releasedIndex == index - 1
            && releasedCount > 0
            && (e.field(1) == WaitKind.OBJECT_WAIT || e.field(1) == WaitKind.CONDITION_AWAIT)) {
          gaveUpForWait = releasedLock;
        }
        break;
      default:
        break;
    }
    Construct opens = Construct.openedBy(k);
    if (opens != null) {
      open(opens, e);
      return;
    }
    Construct closes = Construct.closedBy(k);
    if (closes != null) {
      close(closes, e);
    }
  }

  /**
   * What the thread has open now may have closed unseen (measurement was off, events were dropped):
   * a later closing may skip over it.
   */
  public void pastUnknown() {
    pastKnown = false;
    uncertainDepth = depth;
  }

  private void open(Construct c, EventCursor e) {
    if (depth == construct.length) {
      grow();
    }
    construct[depth] = (byte) c.ordinal();
    key[depth] = e.field(c.openerKey);
    secondKey[depth] = c.openerSecondKey < 0 ? 0 : e.field(c.openerSecondKey);
    openTime[depth] = e.time();
    openIndex[depth] = index;
    tag[depth] = -1;
    int n = e.kind().fieldCount();
    for (int i = 0; i < n; i++) {
      openFields[depth * FIELDS + i] = e.field(i);
    }
    depth++;
    listener.opened(this, depth - 1, e);
  }

  private void grow() {
    int n = construct.length * 2;
    construct = Arrays.copyOf(construct, n);
    key = Arrays.copyOf(key, n);
    secondKey = Arrays.copyOf(secondKey, n);
    openTime = Arrays.copyOf(openTime, n);
    openIndex = Arrays.copyOf(openIndex, n);
    tag = Arrays.copyOf(tag, n);
    openFields = Arrays.copyOf(openFields, n * FIELDS);
  }

  private void close(Construct c, EventCursor e) {
    long k = e.field(c.closerKey);
    long k2 = c.closerSecondKey < 0 ? 0 : e.field(c.closerSecondKey);
    int ordinal = c.ordinal();
    for (int d = depth - 1; d >= 0; d--) {
      if (construct[d] == ordinal && key[d] == k && secondKey[d] == k2) {
        listener.closed(this, d, e);
        popTo(d);
        return;
      }
    }
    if (c.closesInnermostWhenKeyDiffers()) {
      for (int d = depth - 1; d >= 0; d--) {
        if (construct[d] == ordinal) {
          listener.closed(this, d, e);
          popTo(d);
          return;
        }
      }
    }
    if (!c.closeIsOptional()) {
      listener.unmatched(this, c, e);
    }
  }

  private void popTo(int d) {
    depth = d;
    uncertainDepth = Math.min(uncertainDepth, d);
  }

  private void acquire(EventCursor e) {
    long lock = e.field(0);
    int flags = (int) e.field(1);
    int i = heldIndex(lock);
    if ((flags & LockFlags.AFTER_WAIT) != 0 && i >= 0 && lock == gaveUpForWait) {
      // The re-acquisition after a wait whose recorded release gave the lock up in full from
      // deeper than one (FORMAT.md, "Well-formed streams"): the release counted one; this takes
      // that one back, and the thread holds the lock as deep as before the wait.
      gaveUpForWait = 0;
      listener.acquired(this, lock, ++heldCount[i], true, e);
      return;
    }
    if ((flags & NOT_TAKEN) != 0 || (flags & LockFlags.AFTER_WAIT) != 0 && i >= 0) {
      // Not taken; or re-taken after a wait whose release was not recorded: still held as before.
      listener.acquired(this, lock, i < 0 ? 0 : heldCount[i], false, e);
      return;
    }
    if (i < 0) {
      if (held == heldLock.length) {
        heldLock = Arrays.copyOf(heldLock, held * 2);
        heldCount = Arrays.copyOf(heldCount, held * 2);
        heldSince = Arrays.copyOf(heldSince, held * 2);
      }
      i = held++;
      heldLock[i] = lock;
      heldCount[i] = 0;
      heldSince[i] = e.time();
    }
    listener.acquired(this, lock, ++heldCount[i], true, e);
  }

  private void release(EventCursor e) {
    long lock = e.field(0);
    int i = heldIndex(lock);
    releasedLock = lock;
    releasedIndex = index;
    releasedCount = i < 0 ? 0 : heldCount[i] - 1;
    if (i < 0) {
      listener.unmatched(this, Construct.LOCK_HOLD, e);
      return;
    }
    int count = --heldCount[i];
    long since = heldSince[i];
    if (count == 0) {
      held--;
      heldLock[i] = heldLock[held];
      heldCount[i] = heldCount[held];
      heldSince[i] = heldSince[held];
    }
    listener.released(this, lock, count, since, e);
  }

  private int heldIndex(long lock) {
    for (int i = held - 1; i >= 0; i--) {
      if (heldLock[i] == lock) {
        return i;
      }
    }
    return -1;
  }

  // ---- what is open -----------------------------------------------------------------------------

  /** Nested constructs open now. */
  public int depth() {
    return depth;
  }

  /**
   * Constructs below this depth were open when the thread's past became unknown: they may have
   * closed unseen. A closing that skips over open constructs is a mistake only when one of them is
   * at or above it.
   */
  public int uncertainDepth() {
    return uncertainDepth;
  }

  /** False until a {@code thread_begin} opens the stream, and again after a gap. */
  public boolean pastKnown() {
    return pastKnown;
  }

  /** Events seen, minus one: the index of the current event in the thread's stream. */
  public long index() {
    return index;
  }

  public Construct construct(int d) {
    return CONSTRUCTS[construct[d]];
  }

  /** The key the construct at {@code d} was opened with. */
  public long key(int d) {
    return key[d];
  }

  /** Its second key (barrier generation), or 0. */
  public long secondKey(int d) {
    return secondKey[d];
  }

  public long openTime(int d) {
    return openTime[d];
  }

  /** The opening event's index in the thread's stream. */
  public long openIndex(int d) {
    return openIndex[d];
  }

  /** Field {@code i} of the event that opened the construct at {@code d}. */
  public long openField(int d, int i) {
    return openFields[d * FIELDS + i];
  }

  /** A number the listener keeps with the open construct at {@code d}; -1 until it sets one. */
  public int tag(int d) {
    return tag[d];
  }

  public void setTag(int d, int value) {
    tag[d] = value;
  }

  /** Depth of the innermost open construct {@code c}, or -1. */
  public int innermost(Construct c) {
    for (int d = depth - 1; d >= 0; d--) {
      if (construct[d] == c.ordinal()) {
        return d;
      }
    }
    return -1;
  }

  /** Locks held now. */
  public int heldLocks() {
    return held;
  }

  public long heldLock(int i) {
    return heldLock[i];
  }

  public int heldCount(int i) {
    return heldCount[i];
  }

  /** When lock {@code i} was taken from not held. */
  public long heldSince(int i) {
    return heldSince[i];
  }

  /** Forgets the held locks (the caller ended them, e.g. at the end of the trace). */
  public void clearHeld() {
    held = 0;
  }

  /** The virtual thread mounted on this (carrier) thread, or 0. */
  public long mounted() {
    return mounted;
  }
}
