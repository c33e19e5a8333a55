package dev.weft.trace;

import dev.weft.trace.pairing.Construct;
import dev.weft.trace.pairing.PairMatcher;

/**
 * The {@link TraceVerifier}'s rules for one thread: its events in time order and none after its
 * end, its constructs (regions, waits, spins, helping, join waits, barriers, tasks) properly paired
 * and nested, its locks paired ({@link HeldLocks}), and its drop counts in agreement. What pairs
 * with what is the pairing grammar's ({@link PairMatcher}); this class says which findings are
 * mistakes and words them. Apart from the verifier, which makes one pass over the merged trace and
 * keeps the messages, because these are the rules FORMAT.md gives per stream ("Well-formed
 * streams"), with the state they need: only what the thread has open.
 */
final class ThreadVerifier implements PairMatcher.Listener {

  final TraceVerifier.Run run;
  private final int stream;
  private final StreamCursor cursor;
  private final String who;
  final PairMatcher pairs = new PairMatcher(this);
  private final HeldLocks locks = new HeldLocks(this);

  private long index = -1;
  private long lastTime = Long.MIN_VALUE;

  /** Index of the thread's own thread_end (not a mounted virtual thread's), or -1. */
  private long endedAt = -1;

  private long droppedEvents;
  private long unmatched;
  private String firstUnmatched;

  /**
   * {@code cursor}: the stream's own, or null for a thread on others' streams (a virtual thread on
   * its carriers', a hosted thread on its host's).
   */
  ThreadVerifier(TraceVerifier.Run run, int stream, StreamCursor cursor) {
    this.run = run;
    this.stream = stream;
    this.cursor = cursor;
    ThreadDef def = run.defs.thread(stream);
    this.who = "thread '" + (def == null ? "?" : def.name()) + "' (stream " + stream + ")";
  }

  String who() {
    return who;
  }

  Definitions definitions() {
    return run.defs;
  }

  int stream() {
    return stream;
  }

  StreamCursor cursor() {
    return cursor;
  }

  /** Index of the thread's current event in its stream, from 0. */
  long index() {
    return index;
  }

  void historyUnknown() {
    pairs.pastUnknown();
  }

  void event(EventCursor c, EventKind k) {
    index++;
    long time = c.time();
    if (time < lastTime) {
      error(time, "time goes back by " + (lastTime - time) + " ns");
    }
    lastTime = time;
    if (endedAt >= 0 && endedAt == index - 1) {
      error(time, k.id() + " after thread_end");
    }
    int r = k.indexOf(Field.REGION);
    if (r >= 0) {
      run.checkRegion(this, c.field(r), index, time);
    }
    if (k == EventKind.DROPPED) {
      droppedEvents += c.field(0);
    }
    locks.check(c, k);
    pairs.event(c);
  }

  // ---- what the pairing grammar finds -----------------------------------------------------------

  @Override
  public void closed(PairMatcher m, int depth, EventCursor e) {
    if (m.key(depth) != e.field(0) && m.construct(depth).closesInnermostWhenKeyDiffers()) {
      error(e.time(), describeCloser(e) + " closes " + describe(m, depth) + " of another site");
      return;
    }
    int top = m.depth() - 1;
    if (depth < top && m.depth() > m.uncertainDepth()) {
      // Constructs opened inside it and not known to have closed unseen are still open.
      error(
          e.time(), describeCloser(e) + " but the innermost open construct is " + describe(m, top));
    }
  }

  @Override
  public void unmatched(PairMatcher m, Construct c, EventCursor e) {
    if (c == Construct.LOCK_HOLD) {
      if (!run.unowned(e.field(0))) {
        unmatched(
            e.time(), "lock_released of lock " + e.field(0) + " that the thread does not hold");
      }
      return;
    }
    if (m.depth() > m.uncertainDepth()) {
      error(
          e.time(),
          describeCloser(e)
              + " but the innermost open construct is "
              + describe(m, m.depth() - 1)
              + " and no matching "
              + c.opener().id()
              + " is open");
      return;
    }
    unmatched(e.time(), describeCloser(e) + " without a matching " + c.opener().id());
  }

  @Override
  public void acquired(PairMatcher m, long lock, int count, boolean took, EventCursor e) {
    if (took && count == 1 && (e.field(1) & LockFlags.REENTRANT) != 0) {
      unmatched(
          e.time(), "reentrant lock_acquired of lock " + lock + " that the thread does not hold");
    }
  }

  @Override
  public void mounted(PairMatcher m, long previous, EventCursor e) {
    if (previous != 0) {
      error(e.time(), "vthread_mount of " + e.field(0) + " while " + previous + " is mounted");
    }
  }

  @Override
  public void unmounted(PairMatcher m, long previous, EventCursor e) {
    if (previous != 0 && previous != e.field(0)) {
      error(e.time(), "vthread_unmount of " + e.field(0) + " while " + previous + " is mounted");
    }
  }

  @Override
  public void ended(PairMatcher m, EventCursor e) {
    endedAt = index;
    String open = openConstructs();
    if (open != null) {
      error(e.time(), "thread_end with " + open);
    }
    locks.atEnd(true, "", e.time());
  }

  /** A closing event whose opening was not recorded: an error unless the past is unknown. */
  void unmatched(long time, String what) {
    if (!pairs.pastKnown()) {
      if (unmatched++ == 0) {
        firstUnmatched = run.at(index, time) + ": " + what;
      }
    } else {
      error(time, what);
    }
  }

  /** End of the stream: what is still open, drop accounting. */
  void atEnd(boolean traceCut) {
    if (unmatched > 0) {
      warn(
          unmatched
              + " closing event(s) without a matching opening, where the thread's past is"
              + " unknown (trace started late, measurement was off, or events were dropped);"
              + " first: "
              + firstUnmatched);
    }
    boolean ended = endedAt >= 0 && endedAt == index;
    String why =
        (cursor != null && cursor.state() == StreamCursor.State.CUT) || traceCut
            ? "at the cut end of the trace"
            : "when recording stopped (thread still running)";
    if (!ended) {
      String open = openConstructs();
      if (open != null) {
        warn(open + " " + why);
      }
      locks.atEnd(false, why, lastTime);
    }
    if (cursor == null) {
      return; // a virtual thread on its carriers' streams: their drops are theirs
    }
    long header = cursor.headerDropped();
    if (droppedEvents > header) {
      error(
          lastTime,
          "dropped records count "
              + droppedEvents
              + " events but the file header counts only "
              + header);
    }
    Long atClose = run.defs.drops().get(stream);
    if (run.defs.closedCleanly() && (atClose == null ? 0 : atClose) != header) {
      warn(
          "drop counts disagree: file header "
              + header
              + ", definitions "
              + (atClose == null ? 0 : atClose)
              + " (events dropped after the trace was closed)");
    }
    long drops = drops();
    if (drops > 0) {
      warn(drops + " event(s) dropped (disk full or trace size limit)");
    }
  }

  /**
   * The constructs still open, lock requests aside ({@link HeldLocks} words those): "N construct(s)
   * still open: innermost ..., outermost ...", or null when there are none.
   */
  private String openConstructs() {
    int n = 0;
    int innermost = -1;
    int outermost = -1;
    for (int d = 0; d < pairs.depth(); d++) {
      if (pairs.construct(d) != Construct.LOCK_WAIT) {
        n++;
        innermost = d;
        outermost = outermost < 0 ? d : outermost;
      }
    }
    if (n == 0) {
      return null;
    }
    return n
        + " construct(s) still open: innermost "
        + describe(pairs, innermost)
        + ", outermost "
        + describe(pairs, outermost);
  }

  long drops() {
    if (cursor == null) {
      return droppedEvents;
    }
    Long atClose = run.defs.drops().get(stream);
    return Math.max(Math.max(droppedEvents, cursor.headerDropped()), atClose == null ? 0 : atClose);
  }

  private String describeCloser(EventCursor e) {
    switch (e.kind()) {
      case BARRIER_EXIT:
        return "barrier_exit of barrier " + e.field(1) + " generation " + e.field(2);
      case TASK_END:
        return "task_end of task " + e.field(0);
      case LOCK_ACQUIRED:
        return "lock_acquired of lock " + e.field(0);
      default:
        return e.kind().id() + " of " + run.region(e.field(0));
    }
  }

  /** The opening event of the construct open at depth {@code d}, and where it is. */
  String describe(PairMatcher m, int d) {
    String what;
    switch (m.construct(d)) {
      case BARRIER_WAIT:
        what = "barrier_enter of barrier " + m.key(d) + " generation " + m.secondKey(d);
        break;
      case TASK:
        what = "task_begin of task " + m.key(d);
        break;
      case LOCK_WAIT:
        what = "lock_request of lock " + m.key(d);
        break;
      default:
        what = m.construct(d).opener().id() + " of " + run.region(m.key(d));
        break;
    }
    return what + " (event #" + m.openIndex(d) + ")";
  }

  void error(long time, String what) {
    run.error(who + ", " + run.at(index, time) + ": " + what);
  }

  void warn(String what) {
    run.warn(who + ": " + what);
  }
}
