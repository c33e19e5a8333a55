package dev.weft.analysis;

import dev.weft.trace.Definitions;
import dev.weft.trace.EventKind;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceFormatException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleConsumer;

/**
 * Wait-state analysis of a Weft trace (EXPERT/Scalasca for the JVM):
 *
 * <pre>{@code
 * AnalysisResult r = Analyzer.analyze(Path.of("weft-trace"));
 * long barrier = r.property("barrier_wait").severityNs();
 * }</pre>
 *
 * <p>The trace is replayed once, as one time-ordered stream, in memory bounded by threads × stack
 * depth plus live objects. A trace cut off (not closed cleanly, or a stream cut) is analysed over
 * the window all threads cover, which costs one extra read of each stream to find it; a trace that
 * starts late is analysed without inventing waits from the missing events. Both are reported in
 * {@link AnalysisResult#notes()}.
 */
public final class Analyzer {

  /** Immutable analysis options; {@code withX} returns a changed copy. */
  public static final class Options {
    private final DoubleConsumer progress;

    private Options(DoubleConsumer progress) {
      this.progress = progress;
    }

    /** No progress reporting. */
    public static Options defaults() {
      return new Options(null);
    }

    /**
     * Told the fraction of the trace replayed (0..1) every million events or so, on the analysing
     * thread; must be cheap. Null for none.
     */
    public Options withProgress(DoubleConsumer listener) {
      return new Options(listener);
    }
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
   * @throws TraceFormatException with a one-line message when it is not a readable Weft trace
   */
  public static AnalysisResult analyze(Path traceDir, Options options) {
    try (Trace trace = Trace.open(traceDir)) {
      return new Analyzer(trace, options).run();
    }
  }

  /** What one stream holds, for deciding the window of an incomplete trace. */
  private record StreamFacts(
      int stream,
      long events,
      long lastTime,
      boolean endedWithThreadEnd,
      StreamCursor.State state,
      String problem,
      long headerDropped) {}

  private AnalysisResult run() {
    List<Integer> ids = trace.streamIds();
    boolean closed = defs.closedCleanly() && !defs.cut();
    List<StreamFacts> scan = closed ? null : scanStreams(ids);
    long limit = scan == null ? Long.MAX_VALUE : windowEnd(scan);

    Replay replay = replay(limit);
    replay.run(trace.events());
    List<StreamCursor> cursors = lastOpened(ids.size());
    if (scan == null && !allComplete(cursors)) {
      // Closed cleanly, yet a stream file is cut short: narrow the window and replay again.
      scan = new ArrayList<>();
      for (StreamCursor c : cursors) {
        scan.add(
            new StreamFacts(
                c.stream(),
                c.eventCount(),
                replay.thread(c.stream()) != null
                    ? replay.thread(c.stream()).lastEventTime
                    : Long.MIN_VALUE,
                replay.thread(c.stream()) != null && replay.thread(c.stream()).lastWasThreadEnd,
                c.state(),
                c.problem(),
                c.headerDropped()));
      }
      limit = windowEnd(scan);
      if (limit < replay.maxTime) {
        replay = replay(limit);
        replay.run(trace.events());
        cursors = lastOpened(ids.size());
      }
    }
    long end;
    if (scan == null) {
      end = Math.max(defs.endTime(), replay.maxTime);
    } else {
      end = limit == Long.MAX_VALUE ? replay.maxTime : limit;
    }
    if (end == Long.MIN_VALUE) {
      end = 0;
    }
    replay.finish(end);

    long start = Long.MAX_VALUE;
    for (ThreadState th : replay.threads) {
      if (th.started) {
        start = Math.min(start, th.begin);
      }
    }
    if (start == Long.MAX_VALUE) {
      start = Math.min(end, replay.minTime);
    }
    long events = 0;
    if (scan != null) {
      for (StreamFacts f : scan) {
        events += f.events();
      }
    } else {
      events = replay.eventsRead;
    }
    boolean complete = scan == null && closed;
    List<String> notes = new ArrayList<>();
    long dropped = dropped(replay, cursors, notes);
    notes.addAll(0, windowNotes(scan, end, events - replay.eventsRead, replay));
    notes.addAll(Notes.fromCounters(replay.counters));
    return Results.build(dir, defs, replay, start, end, complete, events, dropped, notes);
  }

  private Replay replay(long limit) {
    List<ThreadDef> defined = new ArrayList<>(defs.threads());
    Map<String, Integer> nameCount = new HashMap<>();
    for (ThreadDef t : defined) {
      nameCount.merge(t.name(), 1, Integer::sum);
    }
    PoolTable pools = new PoolTable(defs);
    ThreadState[] states = new ThreadState[defined.size()];
    int maxStream = 0;
    for (int i = 0; i < states.length; i++) {
      ThreadDef t = defined.get(i);
      String name = nameCount.get(t.name()) > 1 ? t.name() + " #" + t.stream() : t.name();
      int pool = t.pool() != 0 ? pools.slot(t.pool()) : -1;
      long begin = t.names().isEmpty() ? Long.MAX_VALUE : t.names().get(0).time();
      states[i] = new ThreadState(i, t.stream(), name, pool, begin);
      if (pool >= 0) {
        pools.addWorker(pool, i);
      }
      maxStream = Math.max(maxStream, t.stream());
    }
    long from = Long.MAX_VALUE;
    for (ThreadState s : states) {
      from = Math.min(from, s.begin);
    }
    long to =
        limit != Long.MAX_VALUE ? limit : defs.closedCleanly() ? defs.endTime() : Long.MIN_VALUE;
    return new Replay(
        defs,
        PropertyRegistry.create(),
        states,
        pools,
        maxStream,
        limit,
        options.progress,
        from,
        to);
  }

  private List<StreamFacts> scanStreams(List<Integer> ids) {
    List<StreamFacts> facts = new ArrayList<>();
    for (int id : ids) {
      StreamCursor c = trace.stream(id);
      long n = 0;
      long last = Long.MIN_VALUE;
      boolean ended = false;
      while (c.next()) {
        n++;
        last = c.time();
        ended = c.kind() == EventKind.THREAD_END;
      }
      facts.add(new StreamFacts(id, n, last, ended, c.state(), c.problem(), c.headerDropped()));
      c.close();
    }
    return facts;
  }

  /** The earliest last event among streams that did not end with THREAD_END. */
  private static long windowEnd(List<StreamFacts> scan) {
    long end = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (StreamFacts f : scan) {
      if (f.events() == 0) {
        continue;
      }
      max = Math.max(max, f.lastTime());
      if (!f.endedWithThreadEnd()) {
        end = Math.min(end, f.lastTime());
      }
    }
    return end != Long.MAX_VALUE ? end : max != Long.MIN_VALUE ? max : Long.MAX_VALUE;
  }

  private List<StreamCursor> lastOpened(int n) {
    List<StreamCursor> all = trace.streams();
    return all.subList(Math.max(0, all.size() - n), all.size());
  }

  private static boolean allComplete(List<StreamCursor> cursors) {
    for (StreamCursor c : cursors) {
      if (c.state() != StreamCursor.State.COMPLETE) {
        return false;
      }
    }
    return true;
  }

  private List<String> windowNotes(
      List<StreamFacts> scan, long end, long ignoredEvents, Replay replay) {
    List<String> notes = new ArrayList<>();
    for (String w : trace.warnings()) {
      if (!w.startsWith("trace was not closed cleanly")) {
        notes.add(w);
      }
    }
    if (scan == null) {
      return notes;
    }
    List<String> why = new ArrayList<>();
    if (!defs.closedCleanly()) {
      why.add("not closed cleanly (process killed or still running)");
    }
    if (defs.cut()) {
      why.add("definitions file cut");
    }
    for (StreamFacts f : scan) {
      if (f.state() != StreamCursor.State.COMPLETE) {
        why.add(f.problem() != null ? f.problem() : "stream " + f.stream() + " " + f.state());
      }
    }
    String limiting = null;
    for (StreamFacts f : scan) {
      if (f.events() > 0 && !f.endedWithThreadEnd() && f.lastTime() == end) {
        ThreadState th = null;
        for (ThreadState s : replay.threads) {
          if (s.stream == f.stream()) {
            th = s;
          }
        }
        limiting = th != null ? th.name : "stream " + f.stream();
        break;
      }
    }
    StringBuilder b = new StringBuilder("trace is incomplete (").append(String.join("; ", why));
    b.append("): analysed the window all threads cover, up to ").append(end).append(" ns");
    if (limiting != null) {
      b.append(" (the last event of thread '").append(limiting).append("')");
    }
    b.append("; ")
        .append(Math.max(0, ignoredEvents))
        .append(" later events of other threads were ignored");
    b.append(", and waits still open at the window end are counted up to it");
    notes.add(b.toString());
    return notes;
  }

  private long dropped(Replay replay, List<StreamCursor> cursors, List<String> notes) {
    Map<Integer, Long> byStream = new HashMap<>(defs.drops());
    for (StreamCursor c : cursors) {
      byStream.merge(c.stream(), c.headerDropped(), Math::max);
    }
    for (ThreadState th : replay.threads) {
      byStream.merge(th.stream, th.droppedEvents, Math::max);
    }
    long total = 0;
    for (long n : byStream.values()) {
      total += n;
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
