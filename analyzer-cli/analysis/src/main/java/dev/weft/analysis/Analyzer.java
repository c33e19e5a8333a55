package dev.weft.analysis;

import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.ReadAheadCursor;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceFiles;
import dev.weft.trace.TraceFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleConsumer;
import java.util.function.IntPredicate;

/**
 * Wait-state analysis of a Weft trace (EXPERT/Scalasca for the JVM):
 *
 * <pre>{@code
 * AnalysisResult r = Analyzer.analyze(Path.of("weft-trace"));
 * long barrier = r.property("barrier_wait").severityNs();
 * }</pre>
 *
 * <p>The trace is replayed once, as one time-ordered stream, in memory bounded by threads × stack
 * depth plus live objects. Every event is analysed. A trace cut off (process killed, not closed, or
 * a stream file cut short) is analysed up to the cut, the last event of any thread: a thread
 * blocked there (in a join, at a barrier, on a lock, in a wait, or an idle pool worker) counts up
 * to the cut with its open waits marked open; a thread running there counts up to its own last
 * event (see {@link Replay#finish}). A trace that starts late is analysed without inventing waits
 * from the missing events. Both are reported: {@link AnalysisResult#status()}, {@link
 * AnalysisResult#statusDetail()} and {@link AnalysisResult#notes()}.
 */
public final class Analyzer {
  /** Threads named in a status line or note before "and N more". */
  private static final int NAMED = 3;

  /** Sets the analysis threads where {@link Options#withThreads} is 0 (automatic). */
  static final String THREADS_PROPERTY = "weft.analyze.threads";

  /** Event bytes from which reading ahead on another thread pays (below, a thread start is all). */
  static final long READ_AHEAD_BYTES = 4L << 20;

  /** Immutable analysis options; {@code withX} returns a changed copy. */
  public static final class Options {
    private final DoubleConsumer progress;
    private final String partial;
    private final boolean salvage;
    private final CellSink cells;
    private final WaitSink waits;
    private final int threads;

    private Options(
        DoubleConsumer progress,
        String partial,
        boolean salvage,
        CellSink cells,
        WaitSink waits,
        int threads) {
      this.progress = progress;
      this.partial = partial;
      this.salvage = salvage;
      this.cells = cells;
      this.waits = waits;
      this.threads = threads;
    }

    /**
     * No progress reporting; the status comes from the trace alone; a damaged trace fails; threads
     * as {@link #withThreads} 0 says.
     */
    public static Options defaults() {
      return new Options(null, null, false, null, null, 0);
    }

    /**
     * How many threads the analysis runs on: 1 reads and replays the trace on the calling thread
     * alone; 2 reads it (decoding every stream and merging them by time) on a thread of its own
     * while the calling thread replays; 3 or more also computes the critical path on a thread of
     * its own ({@link CriticalPathFeed}); 0 (the default) takes 3 when the machine has more than
     * one core and the trace more than one stream and at least 4 MiB of events (about half a
     * million), else 1. The system property {@code weft.analyze.threads} overrides 0. The result is
     * the same either way.
     */
    public Options withThreads(int threads) {
      if (threads < 0) {
        throw new IllegalArgumentException("threads must be 0 (automatic) or more: " + threads);
      }
      return new Options(progress, partial, salvage, cells, waits, threads);
    }

    /**
     * Reads a damaged trace's valid part ({@link Trace#openSalvaging}) instead of failing; the
     * result is then {@link AnalysisResult.Status#PARTIAL} with the reader's verdict as its detail.
     */
    public Options withSalvage(boolean salvage) {
      return new Options(progress, partial, salvage, cells, waits, threads);
    }

    /**
     * Told the fraction of the trace replayed (0..1) every million events or so, on the analysing
     * thread; must be cheap. Null for none. (Only for a trace closed cleanly, whose end is known
     * before the replay.)
     */
    public Options withProgress(DoubleConsumer listener) {
      return new Options(listener, partial, salvage, cells, waits, threads);
    }

    /**
     * Marks the analysis {@link AnalysisResult.Status#PARTIAL}: the trace was salvaged, and only
     * part of it could be read. For the caller that salvaged it (e.g. a reader that skipped damaged
     * blocks): the result's status is {@code partial} whatever the trace looks like, and its {@code
     * statusDetail} starts with {@code reason}, followed by what the analyzer itself found (e.g.
     * the cut). Null for none.
     *
     * @param reason one line: what was salvaged and what was lost
     */
    public Options withPartial(String reason) {
      if (reason != null && reason.isBlank()) {
        throw new IllegalArgumentException("a partial analysis needs a reason");
      }
      return new Options(
          progress, reason == null ? null : reason.strip(), salvage, cells, waits, threads);
    }

    /**
     * Also told every (property, call path, thread) cell of the severity cube once the replay is
     * done, before the result is built: the result keeps only the by-thread and by-call-path sums,
     * which a store of results needs both of at once. Null for none.
     */
    public Options withCells(CellSink sink) {
      return new Options(progress, partial, salvage, sink, waits, threads);
    }

    /**
     * Also told every wait the analysis counts, one part per property, as the wait ends during the
     * replay (for a table of wait intervals). Null for none.
     */
    public Options withWaits(WaitSink sink) {
      return new Options(progress, partial, salvage, cells, sink, threads);
    }
  }

  /**
   * Receives the waits of an analysis, in the order they end: every part a wait property (a
   * descendant of {@code time} other than {@code execution}) or {@code pool_queue_wait} counted.
   * Pool workers' idle time is not among them (the analysis sums a worker's idle stretches and
   * hands them out together); waits the analysis counts as execution (sleep, a lock found free) are
   * not either.
   */
  public interface WaitSink {
    /** One part of a wait; {@code w} is valid only during the call. */
    void wait(CountedWait w);
  }

  /** Receives the exclusive severity cells of an analysis (zeros left out). */
  public interface CellSink {
    /**
     * One cell.
     *
     * @param property the property's id
     * @param callpath region labels from the outermost, as in {@code by_callpath}
     * @param thread the thread's name, as in {@code by_thread}
     * @param ns exclusive severity
     */
    void cell(String property, List<String> callpath, String thread, long ns);
  }

  private final Trace trace;
  private final Definitions defs;
  private final Options options;
  private final Path dir;

  private Analyzer(Trace trace, Options options) {
    this.trace = trace;
    this.defs = trace.definitions();
    this.options = options;
    this.dir = trace.directory();
  }

  /**
   * Analyses the trace in {@code traceDir}.
   *
   * @throws TraceFormatException with a one-line message when it is not a readable Weft trace
   */
  public static AnalysisResult analyze(Path traceDir) {
    return analyze(traceDir, Options.defaults());
  }

  /**
   * Analyses the trace in {@code traceDir} with {@code options}.
   *
   * @throws TraceFormatException with a one-line message when it is not a readable Weft trace, or
   *     is damaged and {@code options} do not salvage it
   */
  public static AnalysisResult analyze(Path traceDir, Options options) {
    try (Trace trace = options.salvage ? Trace.openSalvaging(traceDir) : Trace.open(traceDir)) {
      AnalysisResult r = new Analyzer(trace, options).run();
      // The reader's verdict, the same every command gives: damage fails here, after the replay
      // that found it; a salvaged trace is partial.
      Trace.Integrity integrity = trace.requireIntact();
      if (integrity.status() == Trace.Status.PARTIAL) {
        String more = r.statusDetail() == null ? "" : "; " + r.statusDetail();
        r = r.withStatus(AnalysisResult.Status.PARTIAL, integrity.summary() + more);
      }
      return r;
    }
  }

  private AnalysisResult run() {
    boolean closed = defs.closedCleanly() && !defs.cut();
    Replay replay = replay(closed);
    if (options.waits != null) {
      replay.handWaitsTo(options.waits);
    }
    int threads = threads();
    if (threads >= 3) {
      replay.criticalPathOnItsOwnThread();
    }
    try {
      return run(replay, closed, threads);
    } finally {
      replay.closeCriticalPath();
    }
  }

  private AnalysisResult run(Replay replay, boolean closed, int threads) {
    EventCursor events = trace.events();
    if (threads >= 2) {
      try (ReadAheadCursor ahead = new ReadAheadCursor(events)) {
        replay.run(ahead);
      }
    } else {
      replay.run(events);
    }

    // How each stream's reading ended: a damaged one lost its later events.
    Map<Integer, StreamCursor> damaged = new LinkedHashMap<>();
    for (StreamCursor c : trace.streams()) {
      if (c.state() != StreamCursor.State.COMPLETE) {
        damaged.put(c.stream(), c);
      }
    }
    // A thread hosted on a damaged stream's file (FORMAT.md, "Hosted platform threads") lost its
    // later events with it, unless its end was read.
    Map<Integer, StreamCursor> hostedOnDamaged = new LinkedHashMap<>();
    if (!damaged.isEmpty()) {
      for (ThreadState th : replay.threads) {
        StreamCursor host = th.ended ? null : damaged.get(trace.host(th.stream));
        if (host != null) {
          hostedOnDamaged.put(th.stream, host);
        }
      }
    }
    IntPredicate lostEvents = s -> damaged.containsKey(s) || hostedOnDamaged.containsKey(s);
    long end;
    if (closed) {
      end = Math.max(defs.endTime(), replay.maxTime);
    } else if (replay.maxTime != Long.MIN_VALUE) {
      end = replay.maxTime; // the cut: the last event of any thread
    } else {
      end = latestDefinition(replay);
    }
    replay.finish(end, closed, lostEvents);

    long start = Long.MAX_VALUE;
    for (ThreadState th : replay.threads) {
      if (th.started) {
        start = Math.min(start, th.begin);
      }
    }
    if (start == Long.MAX_VALUE) {
      start = Math.min(end, replay.minTime);
    }
    boolean complete = closed && damaged.isEmpty();

    List<String> notes = new ArrayList<>();
    for (String w : trace.warnings()) {
      if (!w.startsWith("trace was not closed cleanly")) {
        notes.add(w);
      }
    }
    AnalysisResult.Cut cut = null;
    String detail = null;
    if (!complete) {
      cut = cut(replay, end, damaged);
      detail = cutDetail(replay, start, end, closed, cut, damaged, hostedOnDamaged);
      notes.addAll(cutNotes(replay, end, damaged, hostedOnDamaged));
    }
    Set<Integer> withDrops = new HashSet<>();
    long dropped = dropped(replay, trace.streams(), notes, withDrops);
    notes.addAll(Notes.fromCounters(replay.counters));
    notes.addAll(RecorderLosses.notes(defs.attributes()));
    if (replay.eventsRead == 0 && replay.threads.length == 1 && complete) {
      notes.add(
          "no parallel constructs were used: only "
              + replay.threads[0].name
              + " ran, and it used no thread, pool, task, lock, barrier or wait that Weft records");
    }
    IntPredicate notCompared = stream -> withDrops.contains(stream) || lostEvents.test(stream);
    String unseen = JvmCrossCheck.note(defs, replay, notCompared);
    if (unseen != null) {
      notes.add(unseen);
    }
    String unseenWaits = JvmCrossCheck.waitsNote(defs, replay, notCompared);
    if (unseenWaits != null) {
      notes.add(unseenWaits);
    }
    CpuCrossCheck.Findings cpu = CpuCrossCheck.find(defs, replay, notCompared);
    int cpuNotesAt = notes.size(); // written once the critical path is known
    String unchecked = JvmCrossCheck.uncheckedNote(defs, replay, notCompared);
    if (unchecked != null) {
      notes.add(unchecked);
    }
    String load = replay.load.note(defs, replay);
    if (load != null) {
      notes.add(load);
    }
    if (replay.tree.folded() > 0) {
      notes.add(
          replay.tree.folded()
              + " call paths were deeper than "
              + CallPathTree.MAX_DEPTH
              + " regions: what ran deeper is attributed to '"
              + CallPathTree.FOLDED_LABEL
              + "' at that depth");
    }
    if (options.cells != null) {
      Results.cells(defs, replay, options.cells);
    }
    AnalysisResult r =
        Results.build(
            dir,
            defs,
            replay,
            start,
            end,
            complete ? AnalysisResult.Status.COMPLETE : AnalysisResult.Status.CUT,
            detail,
            cut,
            replay.eventsRead,
            dropped,
            notes);
    if (!cpu.isEmpty()) {
      List<String> all = new ArrayList<>(r.notes());
      all.addAll(cpuNotesAt, CpuCrossCheck.notes(cpu, r.criticalPath()));
      r = r.withNotes(all);
    }
    if (options.partial != null) {
      r =
          r.withStatus(
              AnalysisResult.Status.PARTIAL,
              detail == null ? options.partial : options.partial + "; " + detail);
    }
    return r;
  }

  /**
   * The threads the analysis runs on ({@link Options#withThreads}): 1, 2 (the trace read ahead on
   * its own thread) or 3 (the critical path on one more).
   */
  private int threads() {
    int threads = options.threads;
    if (threads == 0) {
      threads = threadsFromProperty();
    }
    if (threads != 0) {
      return Math.min(threads, 3);
    }
    List<Integer> streams = trace.streamIds();
    if (Runtime.getRuntime().availableProcessors() < 2 || streams.size() < 2) {
      return 1;
    }
    long bytes = 0;
    for (int id : streams) {
      try {
        bytes += Files.size(TraceFiles.streamFile(dir, id));
      } catch (IOException e) {
        // its reading will say what is wrong; the size only decides how to read
      }
    }
    // Even on two cores, shared with the JIT compilers and the GC, three threads took at most as
    // long as two (15-20 % less on a lock-heavy trace; BENCHMARKS.md, "Analyzer").
    return bytes >= READ_AHEAD_BYTES ? 3 : 1;
  }

  /** The {@link #THREADS_PROPERTY} setting: a count ≥ 1, else 0 (automatic). */
  private static int threadsFromProperty() {
    String v = System.getProperty(THREADS_PROPERTY);
    if (v == null || v.isBlank()) {
      return 0;
    }
    try {
      return Math.max(0, Integer.parseInt(v.strip()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The run's end when no event was read: the latest thread definition, else 0. */
  private static long latestDefinition(Replay replay) {
    long t = Long.MIN_VALUE;
    for (ThreadState th : replay.threads) {
      if (th.begin != Long.MAX_VALUE) {
        t = Math.max(t, th.begin);
      }
    }
    return t == Long.MIN_VALUE ? 0 : t;
  }

  private Replay replay(boolean closed) {
    List<ThreadDef> defined = new ArrayList<>(defs.threads());
    Map<String, Integer> nameCount = new HashMap<>();
    for (ThreadDef t : defined) {
      nameCount.merge(t.name(), 1, Integer::sum);
    }
    PoolTable pools = new PoolTable(defs);
    ThreadState[] states = new ThreadState[defined.size()];
    long floor = AttachLimits.analysedFrom(defs);
    for (int i = 0; i < states.length; i++) {
      ThreadDef t = defined.get(i);
      String name = nameCount.get(t.name()) > 1 ? t.name() + " #" + t.stream() : t.name();
      int pool = t.pool() != 0 ? pools.slot(t.pool()) : -1;
      long begin = t.names().isEmpty() ? Long.MAX_VALUE : Math.max(floor, t.names().get(0).time());
      states[i] = new ThreadState(i, t.stream(), name, pool, begin);
      states[i].daemon = (t.flags() & ThreadDef.DAEMON) != 0;
      if (pool >= 0) {
        pools.addWorker(pool, i);
      }
    }
    long from = Long.MAX_VALUE;
    for (ThreadState s : states) {
      from = Math.min(from, s.begin);
    }
    long to = closed ? defs.endTime() : Long.MIN_VALUE;
    Replay replay =
        new Replay(defs, PropertyRegistry.create(), states, pools, options.progress, from, to);
    replay.startAt(floor);
    return replay;
  }

  private static AnalysisResult.Cut cut(
      Replay replay, long end, Map<Integer, StreamCursor> damaged) {
    int withoutEnd = 0;
    for (ThreadState th : replay.threads) {
      if (th.started && th.endKind != ThreadState.END_RECORDED) {
        withoutEnd++;
      }
    }
    return new AnalysisResult.Cut(end, withoutEnd, replay.counters.openWaitsAtCut, damaged.size());
  }

  /** The status line of a cut trace: where it was cut and what that means for the counts. */
  private String cutDetail(
      Replay replay,
      long start,
      long end,
      boolean closed,
      AnalysisResult.Cut cut,
      Map<Integer, StreamCursor> damaged,
      Map<Integer, StreamCursor> hostedOnDamaged) {
    StringBuilder b = new StringBuilder();
    if (!closed) {
      List<String> names = new ArrayList<>();
      for (ThreadState th : replay.threads) {
        if (th.started && th.endKind != ThreadState.END_RECORDED) {
          names.add(th.name);
        }
      }
      b.append("cut at ")
          .append(TimeText.duration(end - start))
          .append(" (trace clock ")
          .append(end)
          .append(" ns, the last event of any thread; ")
          .append(
              defs.cut()
                  ? "definitions file cut"
                  : "not closed cleanly: the process was killed or is still running")
          .append("): ")
          .append(cut.threadsWithoutEnd())
          .append(cut.threadsWithoutEnd() == 1 ? " thread" : " threads")
          .append(" without a clean end");
      if (!names.isEmpty()) {
        b.append(" (").append(named(names)).append(')');
      }
      b.append("; ")
          .append(cut.openWaits())
          .append(cut.openWaits() == 1 ? " wait was" : " waits were")
          .append(" still open at the cut and ")
          .append(cut.openWaits() == 1 ? "is" : "are")
          .append(" counted up to it");
    }
    if (!damaged.isEmpty()) {
      List<String> names = new ArrayList<>();
      for (StreamCursor c : damaged.values()) {
        ThreadState th = replay.thread(c.stream());
        names.add(th != null ? th.name : "stream " + c.stream());
      }
      if (b.length() > 0) {
        b.append("; ");
      }
      b.append(damaged.size())
          .append(damaged.size() == 1 ? " stream file was" : " stream files were")
          .append(" cut short or damaged (")
          .append(named(names))
          .append("): ")
          .append(damaged.size() == 1 ? "its thread counts" : "their threads count")
          .append(" up to the last whole event");
      if (!hostedOnDamaged.isEmpty()) {
        List<String> hosted = new ArrayList<>();
        for (int stream : hostedOnDamaged.keySet()) {
          hosted.add(replay.thread(stream).name);
        }
        b.append(", and so do ")
            .append(hosted.size())
            .append(hosted.size() == 1 ? " thread" : " threads")
            .append(" hosted on ")
            .append(damaged.size() == 1 ? "it" : "them")
            .append(" (")
            .append(named(hosted))
            .append(')');
      }
    }
    return b.toString();
  }

  /** What the cut meant for single threads: those that stopped at their own last event. */
  private List<String> cutNotes(
      Replay replay,
      long end,
      Map<Integer, StreamCursor> damaged,
      Map<Integer, StreamCursor> hostedOnDamaged) {
    List<String> notes = new ArrayList<>();
    for (StreamCursor c : damaged.values()) {
      String problem = c.problem() != null ? c.problem() : "stream " + c.stream() + " " + c.state();
      ThreadState th = replay.thread(c.stream());
      if (th == null || !th.ended || hostedOnDamaged.isEmpty()) {
        notes.add(
            problem + ": the events after it are lost, so " + countsUpTo(th, c.stream(), end));
      }
      for (Map.Entry<Integer, StreamCursor> h : hostedOnDamaged.entrySet()) {
        if (h.getValue() == c) {
          notes.add(
              problem
                  + ": the events after it are lost, so "
                  + countsUpTo(replay.thread(h.getKey()), h.getKey(), end)
                  + ", hosted on that file");
        }
      }
    }
    List<String> running = new ArrayList<>();
    List<String> idle = new ArrayList<>();
    for (ThreadState th : replay.threads) {
      if (th.endKind == ThreadState.END_RUNNING && th.end < end) {
        running.add(th.name + " " + TimeText.duration(end - th.end) + " before the cut");
      } else if (th.endKind == ThreadState.END_IDLE) {
        idle.add(th.name);
      }
    }
    if (!running.isEmpty()) {
      notes.add(
          running.size()
              + (running.size() == 1
                  ? " thread was running (no wait open) at its last event"
                  : " threads were running (no wait open) at their last event")
              + " before the cut, without a clean end ("
              + named(running)
              + "): what "
              + (running.size() == 1 ? "it" : "they")
              + " did after it is unknown, so "
              + (running.size() == 1 ? "it counts" : "each counts")
              + " up to its own last event, where its open regions and tasks end");
    }
    if (!idle.isEmpty()) {
      notes.add(
          idle.size()
              + (idle.size() == 1 ? " pool worker was" : " pool workers were")
              + " idle (outside any task) at the cut ("
              + named(idle)
              + "): counted idle up to it");
    }
    return notes;
  }

  private static String countsUpTo(ThreadState th, int stream, long end) {
    return "thread '"
        + (th != null ? th.name : "stream " + stream)
        + "' counts up to its last whole event"
        + (th != null && th.started
            ? " (" + TimeText.duration(end - th.end) + " before the end)"
            : "");
  }

  /** The first few names, then how many more. */
  private static String named(List<String> names) {
    if (names.size() <= NAMED + 1) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, NAMED)) + " and " + (names.size() - NAMED) + " more";
  }

  private long dropped(
      Replay replay, List<StreamCursor> cursors, List<String> notes, Set<Integer> withDrops) {
    Map<Integer, Long> byStream = new HashMap<>(defs.drops());
    for (StreamCursor c : cursors) {
      byStream.merge(c.stream(), c.headerDropped(), Math::max);
    }
    for (ThreadState th : replay.threads) {
      byStream.merge(th.stream, th.droppedEvents, Math::max);
    }
    long total = 0;
    for (Map.Entry<Integer, Long> e : byStream.entrySet()) {
      long n = e.getValue();
      if (n != 0) {
        withDrops.add(e.getKey());
      }
      total = n < 0 || total + n < total ? Long.MAX_VALUE : total + n; // counts are unsigned
    }
    if (total > 0) {
      notes.add(
          total
              + " events were dropped by the recorder (disk full or size limit): waits around the"
              + " gaps may be missing or misattributed");
    }
    return total;
  }
}
