package dev.weft.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Checks that a trace is well formed: readable, and with every thread's events properly paired and
 * nested (the rules are in FORMAT.md, "Well-formed streams").
 *
 * <p>Reads the trace once, all threads merged in time order, keeping per thread only its open
 * constructs and held locks: memory is bounded by threads × nesting depth, not by trace length.
 *
 * <p>A trace that was cut off (process killed, disk full) or that starts late (attach, measurement
 * switched on later) is not wrong: what is unknown at its edges is reported as a warning. Errors
 * are what cannot happen in a trace written by a correct recorder of a real program.
 */
public final class TraceVerifier {
  /** At most this many errors and this many warnings are listed; the rest are counted. */
  static final int MAX_MESSAGES = 200;

  private TraceVerifier() {}

  /**
   * What {@link #verify} found.
   *
   * @param errors what is wrong, one line each, naming the thread, stream and event
   * @param warnings what is unknown or lost (cut end, late start, drops), one line each
   * @param events events read
   * @param dropped events the recorder dropped (disk full, size limit)
   * @param cut the trace ends early: not closed cleanly, or a file is cut
   * @param integrity the reader's verdict (the same every command reports): errors above are only
   *     about how well formed the events are; damage is here
   */
  public record VerifyReport(
      List<String> errors,
      List<String> warnings,
      long events,
      long dropped,
      boolean cut,
      Trace.Integrity integrity) {

    public VerifyReport {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
    }

    /** True when the trace is intact (complete or cut) and well formed (warnings are allowed). */
    public boolean ok() {
      return errors.isEmpty() && intact();
    }

    /** True when the reader found no damage. */
    public boolean intact() {
      return integrity.status() == Trace.Status.COMPLETE || integrity.status() == Trace.Status.CUT;
    }
  }

  /**
   * Verifies a trace. Opens its own cursors on {@code trace}; never throws for bad trace content
   * (that is reported as errors).
   */
  public static VerifyReport verify(Trace trace) {
    return new Run(trace).run();
  }

  // ---- one verification run ---------------------------------------------------------------------

  private static final class Run {
    private final Trace trace;
    private final Definitions defs;
    private final List<String> errors = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private int moreErrors;
    private int moreWarnings;
    private final Set<Integer> undefinedRegions = new HashSet<>();

    /** Defined region ids below 2^24, for a lookup without boxing on every event. */
    private final BitSet definedRegions = new BitSet();

    private ThreadState[] byId = new ThreadState[0];
    private final Map<Integer, ThreadState> byLargeId = new HashMap<>();
    private long origin = Long.MIN_VALUE;

    Run(Trace trace) {
      this.trace = trace;
      this.defs = trace.definitions();
      for (RegionDef r : defs.regions()) {
        if (r.id() >= 0 && r.id() < (1 << 24)) {
          definedRegions.set(r.id());
        }
      }
    }

    VerifyReport run() {
      boolean cut = defs.cut() || !defs.closedCleanly();
      for (String w : trace.warnings()) {
        warn(w);
      }
      if (defs.clock() != null) {
        origin = defs.clock().nanoBase();
      }
      Set<Integer> withFiles = new HashSet<>(trace.streamIds());
      long droppedWithoutFiles = 0;
      for (Map.Entry<Integer, Long> d : defs.drops().entrySet()) {
        if (!withFiles.contains(d.getKey())) {
          droppedWithoutFiles += d.getValue(); // a stream that never got a file, or stream 0
        }
      }
      for (ThreadDef t : defs.threads()) {
        if (!withFiles.contains(t.stream())) {
          Long lost = defs.drops().get(t.stream());
          warn(
              "thread '"
                  + t.name()
                  + "' (stream "
                  + t.stream()
                  + ") has no event file"
                  + (lost != null
                      ? ": the recorder could not create it, and its "
                          + lost
                          + " events were dropped"
                      : " (the recorder stopped before creating it)"));
        }
      }
      List<StreamCursor> cursors = new ArrayList<>();
      List<ThreadState> threads = new ArrayList<>();
      for (int id : trace.streamIds()) {
        try {
          StreamCursor c = trace.stream(id);
          cursors.add(c);
          ThreadState t = new ThreadState(this, id, c);
          threads.add(t);
          put(id, t);
        } catch (TraceFormatException e) {
          error(e.getMessage());
        }
      }
      long events = 0;
      MergedCursor merged = new MergedCursor(cursors);
      while (merged.next()) {
        events++;
        if (origin == Long.MIN_VALUE) {
          origin = merged.time();
        }
        EventKind k = merged.kind();
        if (k == EventKind.MEASUREMENT_ON) {
          // Measurement was off for every thread: what each had open may have closed unseen.
          for (ThreadState t : threads) {
            t.historyUnknown();
          }
        }
        get(merged.stream()).event(merged, k);
      }
      long dropped = droppedWithoutFiles;
      Trace.Integrity integrity = trace.integrity();
      boolean damaged = !integrity.damage().isEmpty();
      for (ThreadState t : threads) {
        StreamCursor c = t.cursor;
        if (c.state() == StreamCursor.State.CUT) {
          cut = true;
          warn(t.who() + ": stream is cut: " + c.problem());
        }
        if (!c.damage().isEmpty() && !damaged) {
          cut = true;
        }
        t.atEnd(cut || damaged);
        dropped += t.drops();
      }
      cut |= integrity.status() == Trace.Status.CUT;
      if (moreErrors > 0) {
        errors.add("... and " + moreErrors + " more errors");
      }
      if (moreWarnings > 0) {
        warnings.add("... and " + moreWarnings + " more warnings");
      }
      return new VerifyReport(errors, warnings, events, dropped, cut, integrity);
    }

    private void put(int id, ThreadState t) {
      if (id >= 0 && id < (1 << 20)) {
        if (id >= byId.length) {
          byId = Arrays.copyOf(byId, Math.max(id + 1, byId.length * 2));
        }
        byId[id] = t;
      } else {
        byLargeId.put(id, t);
      }
    }

    private ThreadState get(int id) {
      return id >= 0 && id < byId.length ? byId[id] : byLargeId.get(id);
    }

    void error(String message) {
      if (errors.size() < MAX_MESSAGES) {
        errors.add(message);
      } else {
        moreErrors++;
      }
    }

    void warn(String message) {
      if (warnings.size() < MAX_MESSAGES) {
        warnings.add(message);
      } else {
        moreWarnings++;
      }
    }

    String at(long index, long time) {
      return String.format(
          Locale.ROOT, "event #%d at +%.6f ms", index, (time - origin) / 1_000_000.0);
    }

    String region(long id) {
      RegionDef r = defs.region((int) id);
      return r == null
          ? "region " + id
          : "region " + id + " '" + r.name() + "' (" + r.location() + ")";
    }

    void checkRegion(ThreadState t, long region, long index, long time) {
      if (region == 0
          || (region < (1 << 24) && definedRegions.get((int) region))
          || (region >= (1 << 24) && defs.region((int) region) != null)) {
        return;
      }
      if (undefinedRegions.size() < MAX_MESSAGES && undefinedRegions.add((int) region)) {
        error(t.who() + ", " + at(index, time) + ": region " + region + " is not defined");
      }
    }

    boolean unowned(long lock) {
      ObjectDef o = defs.object(lock);
      return o != null
          && (o.kind() == ConstructKind.SEMAPHORE || o.kind() == ConstructKind.STAMPED_LOCK);
    }
  }

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

  /** What one thread has open: its construct stack, its locks, its pending lock request. */
  private static final class ThreadState {
    private final Run run;
    private final int stream;
    private final StreamCursor cursor;
    private final String who;
    private final ArrayList<Frame> stack = new ArrayList<>();

    /** Frames below this depth were open before a gap in the recording and may have closed. */
    private int uncertainDepth;

    /** The thread's past is unknown (stream start without THREAD_BEGIN, measurement gap, drops). */
    private boolean historyUnknown = true;

    /** Locks held and how often (reentrant): few at a time, so searched linearly. */
    private long[] heldLocks = new long[4];

    private int[] heldCounts = new int[4];
    private int held;
    private boolean requestPending;
    private long requestLock;
    private long requestIndex;
    private long index = -1;
    private long lastTime = Long.MIN_VALUE;
    private EventKind lastKind;
    private long droppedEvents;
    private long unmatched;
    private String firstUnmatched;

    ThreadState(Run run, int stream, StreamCursor cursor) {
      this.run = run;
      this.stream = stream;
      this.cursor = cursor;
      ThreadDef def = run.defs.thread(stream);
      this.who = "thread '" + (def == null ? "?" : def.name()) + "' (stream " + stream + ")";
    }

    String who() {
      return who;
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
          lockRequest(c.field(1), time);
          break;
        case LOCK_ACQUIRED:
          lockAcquired(c.field(0), (int) c.field(1), time);
          break;
        case LOCK_RELEASED:
          lockReleased(c.field(0), time);
          break;
        case DROPPED:
          droppedEvents += c.field(0);
          historyUnknown();
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
    private void unmatched(long time, String what) {
      if (historyUnknown) {
        if (unmatched++ == 0) {
          firstUnmatched = run.at(index, time) + ": " + what;
        }
      } else {
        error(time, what);
      }
    }

    private void lockRequest(long lock, long time) {
      if (requestPending) {
        error(
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
      requestIndex = index;
    }

    private void lockAcquired(long lock, int flags, long time) {
      if (requestPending && requestLock != lock) {
        error(
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
        unmatched(
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

    private void lockReleased(long lock, long time) {
      if (requestPending) {
        error(
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
        if (!run.unowned(lock)) {
          unmatched(time, "lock_released of lock " + lock + " that the thread does not hold");
        }
        return;
      }
      if (--heldCounts[i] == 0) {
        held--;
        heldLocks[i] = heldLocks[held];
        heldCounts[i] = heldCounts[held];
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
          cursor.state() == StreamCursor.State.CUT || traceCut
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
      if (requestPending) {
        String what =
            "lock_request of lock " + requestLock + " (event #" + requestIndex + ") never acquired";
        if (ended) {
          error(lastTime, "thread_end with " + what);
        } else {
          warn(what + " " + why);
        }
      }
      if (held > 0) {
        warn(held + " lock(s) still held " + (ended ? "at thread_end" : why));
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
      Long atClose = run.defs.drops().get(stream);
      return Math.max(
          Math.max(droppedEvents, cursor.headerDropped()), atClose == null ? 0 : atClose);
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

    private void error(long time, String what) {
      run.error(who + ", " + run.at(index, time) + ": " + what);
    }

    private void warn(String what) {
      run.warn(who + ": " + what);
    }
  }
}
