package dev.weft.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntUnaryOperator;

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

  /** One verification run: the pass over the merged trace and what it found. */
  static final class Run {
    private final Trace trace;
    final Definitions defs;
    private final List<String> errors = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private int moreErrors;
    private int moreWarnings;
    private final Set<Integer> undefinedRegions = new HashSet<>();

    /** Defined region ids below 2^24, for a lookup without boxing on every event. */
    private final BitSet definedRegions = new BitSet();

    private ThreadVerifier[] byId = new ThreadVerifier[0];
    private final Map<Integer, ThreadVerifier> byLargeId = new HashMap<>();
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
      for (ThreadDef t : defs.streamDefinitions()) {
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
      // Each stream's verifier is made when its file is opened: before its first event, and, for
      // a trace of many short-lived threads, not all at once (Trace.leaf).
      List<MergedCursor.Leaf> leaves = new ArrayList<>();
      List<ThreadVerifier> threads = new ArrayList<>();
      for (int id : trace.streamIds()) {
        try {
          leaves.add(
              trace.leaf(
                  id,
                  c -> {
                    ThreadVerifier t = new ThreadVerifier(this, id, c);
                    threads.add(t);
                    put(id, t);
                  }));
        } catch (TraceFormatException e) {
          error(e.getMessage());
        }
      }
      List<ThreadVerifier> carried = new ArrayList<>();
      for (ThreadDef t : defs.threads()) {
        if (t.isCarried()) {
          ThreadVerifier v = new ThreadVerifier(this, t.stream(), null);
          carried.add(v);
          put(t.stream(), v);
        }
      }
      long events = 0;
      EventCursor merged =
          VirtualThreadCursor.over(
              MergedCursor.ofLeaves(leaves, IntUnaryOperator.identity()), defs);
      while (merged.next()) {
        events++;
        if (origin == Long.MIN_VALUE) {
          origin = merged.time();
        }
        EventKind k = merged.kind();
        if (k == EventKind.MEASUREMENT_ON) {
          // Measurement was off for every thread: what each had open may have closed unseen.
          for (ThreadVerifier t : threads) {
            t.historyUnknown();
          }
          for (ThreadVerifier t : carried) {
            t.historyUnknown();
          }
        }
        get(merged.stream()).event(merged, k);
      }
      threads.sort(Comparator.comparingInt(ThreadVerifier::stream));
      long dropped = droppedWithoutFiles;
      Trace.Integrity integrity = trace.integrity();
      boolean damaged = !integrity.damage().isEmpty();
      for (ThreadVerifier t : threads) {
        StreamCursor c = t.cursor();
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
      for (ThreadVerifier t : carried) {
        t.atEnd(cut || damaged);
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

    private void put(int id, ThreadVerifier t) {
      if (id >= 0 && id < (1 << 20)) {
        if (id >= byId.length) {
          byId = Arrays.copyOf(byId, Math.max(id + 1, byId.length * 2));
        }
        byId[id] = t;
      } else {
        byLargeId.put(id, t);
      }
    }

    private ThreadVerifier get(int id) {
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

    void checkRegion(ThreadVerifier t, long region, long index, long time) {
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
}
