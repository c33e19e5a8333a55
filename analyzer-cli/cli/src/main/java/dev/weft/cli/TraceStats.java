package dev.weft.cli;

import dev.weft.analysis.RunWindow;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.Trace;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Counts over a whole trace, read one stream at a time (memory does not grow with the trace):
 * events and encoded bytes per kind, time span, drops, and how each stream ended.
 */
final class TraceStats {

  /** What one stream held and how it ended. */
  record StreamStats(
      int stream,
      long events,
      long eventBytes,
      long firstTime,
      long lastTime,
      long dropped,
      StreamCursor.State state,
      String problem) {}

  final long[] eventsByKind = new long[EventKind.values().length];
  final long[] bytesByKind = new long[EventKind.values().length];
  final List<StreamStats> streams;
  final long events;
  final long eventBytes;
  final long firstTime;
  final long lastTime;
  final long dropped;

  /** The reader's verdict (complete, cut, partial; damaged only if the caller did not check). */
  final Trace.Integrity integrity;

  private TraceStats(Trace trace) {
    Definitions defs = trace.definitions();
    List<StreamStats> list = new ArrayList<>();
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long allEvents = 0;
    long allBytes = 0;
    long allDropped = 0;
    int droppedKind = EventKind.DROPPED.ordinal();
    int countField = EventKind.DROPPED.indexOf(Field.COUNT);
    RunWindow window = new RunWindow(defs);
    for (int id : trace.streamIds()) {
      try (StreamCursor c = trace.stream(id)) {
        long sFirst = Long.MAX_VALUE;
        long sLast = Long.MIN_VALUE;
        long droppedEvents = 0;
        long before = 0;
        boolean firstIsBegin = false;
        while (c.next()) {
          int k = c.kind().ordinal();
          long bytes = c.eventBytes();
          eventsByKind[k]++;
          bytesByKind[k] += bytes - before;
          before = bytes;
          if (sFirst == Long.MAX_VALUE) {
            sFirst = c.time();
            firstIsBegin = c.kind() == EventKind.THREAD_BEGIN;
          }
          sLast = c.time();
          if (k == droppedKind) {
            droppedEvents += c.field(countField);
          }
        }
        // The same drops may be counted three ways: at a clean close, live in the file header, and
        // in DROPPED events when recording resumed. Each is a lower bound; the largest is the
        // count.
        long d =
            Math.max(defs.drops().getOrDefault(id, 0L), Math.max(c.headerDropped(), droppedEvents));
        list.add(
            new StreamStats(
                id, c.eventCount(), c.eventBytes(), sFirst, sLast, d, c.state(), c.problem()));
        allEvents += c.eventCount();
        allBytes += c.eventBytes();
        allDropped += d;
        if (c.eventCount() > 0) {
          first = Math.min(first, sFirst);
          last = Math.max(last, sLast);
        }
        if (sFirst != Long.MAX_VALUE) {
          window.stream(id, sFirst, firstIsBegin, sLast);
        }
      }
    }
    this.durationNs = window.durationNs();
    this.streams = Collections.unmodifiableList(list);
    this.events = allEvents;
    this.eventBytes = allBytes;
    this.firstTime = first;
    this.lastTime = last;
    this.dropped = allDropped;
    this.integrity = trace.integrity();
  }

  /** Reads every stream of {@code trace} once. */
  static TraceStats of(Trace trace) {
    return new TraceStats(trace);
  }

  /** The run's duration: the analysis window ({@link RunWindow}), 0 when there is nothing. */
  long durationNanos() {
    return durationNs;
  }

  private final long durationNs;

  /** Encoded bytes per event (block headers and padding excluded); 0 for an empty trace. */
  double bytesPerEvent() {
    return events == 0 ? 0 : (double) eventBytes / events;
  }

  long events(EventKind k) {
    return eventsByKind[k.ordinal()];
  }

  long bytes(EventKind k) {
    return bytesByKind[k.ordinal()];
  }

  /** The problem lines of cut or corrupt streams. */
  List<String> problems() {
    List<String> p = new ArrayList<>();
    for (StreamStats s : streams) {
      if (s.problem() != null) {
        p.add(s.problem());
      }
    }
    return p;
  }
}
