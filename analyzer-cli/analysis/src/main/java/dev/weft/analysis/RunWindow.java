package dev.weft.analysis;

import dev.weft.trace.Definitions;
import dev.weft.trace.ThreadDef;
import java.util.HashMap;
import java.util.Map;

/**
 * The run's duration, one definition for every output (summary, analyze text and JSON, HTML
 * report): the analysis window. It starts when the first thread begins (at its THREAD_BEGIN when
 * that is its first event, else at its definition) and ends at the trace's END record or its last
 * event, whichever is later; a trace that was not closed ends at its last event (the cut). An
 * attached recording's window starts no earlier than when the agent had woven the classes loaded
 * before the attach ({@link AttachLimits#analysedFrom}).
 *
 * <p>Fed the first and last event of each stream, as a tool that reads the trace once (the summary)
 * sees them; the analysis reaches the same window through its replay.
 */
public final class RunWindow {
  private final Definitions defs;
  private final Map<Integer, long[]> firstByStream = new HashMap<>();
  private long firstEvent = Long.MAX_VALUE;
  private long lastEvent = Long.MIN_VALUE;

  public RunWindow(Definitions defs) {
    this.defs = defs;
  }

  /**
   * One stream's first and last event ({@code firstIsThreadBegin}: whether the first is
   * THREAD_BEGIN). Streams without events are not given.
   */
  public void stream(int stream, long firstTime, boolean firstIsThreadBegin, long lastTime) {
    firstByStream.put(stream, new long[] {firstTime, firstIsThreadBegin ? 1 : 0});
    firstEvent = Math.min(firstEvent, firstTime);
    lastEvent = Math.max(lastEvent, lastTime);
  }

  /** The window in the trace's clock. */
  public AnalysisResult.Window window() {
    long end;
    if (defs.closedCleanly() && !defs.cut()) {
      end = Math.max(defs.endTime(), lastEvent);
    } else if (lastEvent != Long.MIN_VALUE) {
      end = lastEvent;
    } else {
      end = 0;
      for (ThreadDef t : defs.threads()) {
        if (!t.names().isEmpty()) {
          end = Math.max(end, t.names().get(0).time());
        }
      }
    }
    long start = Long.MAX_VALUE;
    for (ThreadDef t : defs.threads()) {
      long defined = t.names().isEmpty() ? Long.MAX_VALUE : t.names().get(0).time();
      long[] first = firstByStream.get(t.stream());
      long begin;
      if (first == null) {
        begin = defined <= end ? defined : Long.MAX_VALUE;
      } else if (first[1] == 1) {
        begin = first[0];
      } else {
        begin = Math.min(defined, first[0]);
      }
      start = Math.min(start, begin);
    }
    if (start == Long.MAX_VALUE) {
      start = Math.min(end, firstEvent);
    }
    // An attached recording: from when it saw what it says (AttachLimits), as the analysis.
    start = Math.max(start, Math.min(end, AttachLimits.analysedFrom(defs)));
    return new AnalysisResult.Window(start, end);
  }

  /**
   * The earliest trace time the window of this trace can start at: for a recording attached to a
   * running JVM, when the agent had woven the classes loaded before the attach ({@code
   * agent.recording_from}); {@code Long.MIN_VALUE} otherwise.
   */
  public static long earliestStart(Definitions defs) {
    return AttachLimits.analysedFrom(defs);
  }

  /** Window end - window start, never negative. */
  public long durationNs() {
    AnalysisResult.Window w = window();
    return Math.max(0, w.endNs() - w.startNs());
  }
}
