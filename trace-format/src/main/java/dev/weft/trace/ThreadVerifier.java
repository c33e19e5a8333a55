package dev.weft.trace;

import java.util.ArrayList;

/**
 * The {@link TraceVerifier}'s rules for one thread: its events in time order and none after its
 * end, its constructs (regions, waits, spins, helping, join waits, barriers, tasks) properly paired
 * and nested, its locks paired ({@link HeldLocks}), and its drop counts in agreement. Apart from
 * the verifier, which makes one pass over the merged trace and keeps the messages, because these
 * are the rules FORMAT.md gives per stream ("Well-formed streams"), with the state they need: only
 * what the thread has open.
 */
final class ThreadVerifier {

  /** A construct a thread has entered and not yet left. */
  private static final class Frame {
    final EventKind opener;
    final long key;
    final long generation;
    final long index;

    Frame(EventKind opener, long key, long generation, long index) {
      this.opener = opener;
      this.key = key;
      this.generation = generation;
      this.index = index;
    }
  }

  final TraceVerifier.Run run;
  private final int stream;
  private final StreamCursor cursor;
  private final String who;
  private final ArrayList<Frame> stack = new ArrayList<>();
  private final HeldLocks locks = new HeldLocks(this);

  /** Frames below this depth were open before a gap in the recording and may have closed. */
  private int uncertainDepth;

  /** The thread's past is unknown (stream start without THREAD_BEGIN, measurement gap, drops). */
  private boolean historyUnknown = true;

  private long index = -1;
  private long lastTime = Long.MIN_VALUE;
  private EventKind lastKind;
  private long droppedEvents;

  /** Of a carrier: the Java id of the virtual thread mounted on it, or 0. */
  private long mountedVthread;

  private long unmatched;
  private String firstUnmatched;

  /** {@code cursor}: the stream's own, or null for a virtual thread on its carriers' streams. */
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

  StreamCursor cursor() {
    return cursor;
  }

  /** Index of the thread's current event in its stream, from 0. */
  long index() {
    return index;
  }

  void historyUnknown() {
    historyUnknown = true;
    uncertainDepth = stack.size();
  }

  void event(EventCursor c, EventKind k) {
    index++;
    long time = c.time();
    if (time < lastTime) {
      error(time, "time goes back by " + (lastTime - time) + " ns");
    }
    lastTime = time;
    if (lastKind == EventKind.THREAD_END) {
      error(time, k.id() + " after thread_end");
    }
    if (index == 0 && k == EventKind.THREAD_BEGIN) {
      historyUnknown = false; // the thread started inside the recording: nothing was open
    }
    lastKind = k;
    int r = k.indexOf(Field.REGION);
    if (r >= 0) {
      run.checkRegion(this, c.field(r), index, time);
    }
    switch (k) {
      case ENTER:
      case JOIN_WAIT_ENTER:
      case WAIT_ENTER:
      case SPIN_ENTER:
      case HELP_ENTER:
        push(k, c.field(0), 0);
        break;
      case BARRIER_ENTER:
        push(k, c.field(1), c.field(2));
        break;
      case TASK_BEGIN:
        push(k, c.field(0), 0);
        break;
      case EXIT:
        close(k, EventKind.ENTER, c.field(0), 0, time);
        break;
      case JOIN_WAIT_EXIT:
        close(k, EventKind.JOIN_WAIT_ENTER, c.field(0), 0, time);
        break;
      case WAIT_EXIT:
        close(k, EventKind.WAIT_ENTER, c.field(0), 0, time);
        break;
      case SPIN_EXIT:
        close(k, EventKind.SPIN_ENTER, c.field(0), 0, time);
        break;
      case HELP_EXIT:
        close(k, EventKind.HELP_ENTER, c.field(0), 0, time);
        break;
      case BARRIER_EXIT:
        close(k, EventKind.BARRIER_ENTER, c.field(1), c.field(2), time);
        break;
      case TASK_END:
        close(k, EventKind.TASK_BEGIN, c.field(0), 0, time);
        break;
      case LOCK_REQUEST:
        locks.request(c.field(1), time);
        break;
      case LOCK_ACQUIRED:
        locks.acquired(c.field(0), (int) c.field(1), time);
        break;
      case LOCK_RELEASED:
        locks.released(c.field(0), time);
        break;
      case DROPPED:
        droppedEvents += c.field(0);
        historyUnknown();
        break;
      case VTHREAD_MOUNT:
        if (mountedVthread != 0) {
          error(
              time, "vthread_mount of " + c.field(0) + " while " + mountedVthread + " is mounted");
        }
        mountedVthread = c.field(0);
        break;
      case VTHREAD_UNMOUNT:
        if (mountedVthread != 0 && mountedVthread != c.field(0)) {
          error(
              time,
              "vthread_unmount of " + c.field(0) + " while " + mountedVthread + " is mounted");
        }
        mountedVthread = 0;
        break;
      default:
        break;
    }
  }

  private void push(EventKind opener, long key, long generation) {
    stack.add(new Frame(opener, key, generation, index));
  }

  private static boolean matches(Frame f, EventKind opener, long key, long generation) {
    return f.opener == opener && f.key == key && f.generation == generation;
  }

  private void close(EventKind closer, EventKind opener, long key, long generation, long time) {
    int top = stack.size() - 1;
    if (top >= 0 && matches(stack.get(top), opener, key, generation)) {
      pop(top);
      return;
    }
    int found = -1;
    for (int i = top; i >= 0; i--) {
      if (matches(stack.get(i), opener, key, generation)) {
        found = i;
        break;
      }
    }
    boolean certainOnTop = stack.size() > uncertainDepth;
    if (!certainOnTop && found >= 0) {
      pop(found); // the constructs above it closed while nothing was recorded
      return;
    }
    if (certainOnTop) {
      error(
          time,
          describe(closer, key, generation)
              + " but the innermost open construct is "
              + describe(stack.get(top))
              + (found >= 0 ? "" : " and no matching " + opener.id() + " is open"));
      if (found >= 0) {
        pop(found);
      }
      return;
    }
    unmatched(time, describe(closer, key, generation) + " without a matching " + opener.id());
  }

  private void pop(int depth) {
    while (stack.size() > depth) {
      stack.remove(stack.size() - 1);
    }
    uncertainDepth = Math.min(uncertainDepth, stack.size());
  }

  /** A closing event whose opening was not recorded: an error unless the past is unknown. */
  void unmatched(long time, String what) {
    if (historyUnknown) {
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
    boolean ended = lastKind == EventKind.THREAD_END;
    String why =
        (cursor != null && cursor.state() == StreamCursor.State.CUT) || traceCut
            ? "at the cut end of the trace"
            : "when recording stopped (thread still running)";
    if (!stack.isEmpty()) {
      String what =
          stack.size()
              + " construct(s) still open: innermost "
              + describe(stack.get(stack.size() - 1))
              + ", outermost "
              + describe(stack.get(0));
      if (ended) {
        error(lastTime, "thread_end with " + what);
      } else {
        warn(what + " " + why);
      }
    }
    locks.atEnd(ended, why, lastTime);
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

  long drops() {
    if (cursor == null) {
      return droppedEvents;
    }
    Long atClose = run.defs.drops().get(stream);
    return Math.max(Math.max(droppedEvents, cursor.headerDropped()), atClose == null ? 0 : atClose);
  }

  private String describe(EventKind closer, long key, long generation) {
    switch (closer) {
      case BARRIER_EXIT:
        return "barrier_exit of barrier " + key + " generation " + generation;
      case TASK_END:
        return "task_end of task " + key;
      default:
        return closer.id() + " of " + run.region(key);
    }
  }

  private String describe(Frame f) {
    String what;
    switch (f.opener) {
      case BARRIER_ENTER:
        what = "barrier_enter of barrier " + f.key + " generation " + f.generation;
        break;
      case TASK_BEGIN:
        what = "task_begin of task " + f.key;
        break;
      default:
        what = f.opener.id() + " of " + run.region(f.key);
        break;
    }
    return what + " (event #" + f.index + ")";
  }

  void error(long time, String what) {
    run.error(who + ", " + run.at(index, time) + ": " + what);
  }

  void warn(String what) {
    run.warn(who + ": " + what);
  }
}
