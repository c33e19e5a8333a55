package dev.weft.cli;

import dev.weft.trace.Definitions;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.ThreadDef;
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
    for (int id : trace.streamIds()) {
      try (StreamCursor c = trace.stream(id)) {
        long sFirst = Long.MAX_VALUE;
        long sLast = Long.MIN_VALUE;
        long droppedEvents = 0;
        long before = 0;
        while (c.next()) {
          int k = c.kind().ordinal();
          long bytes = c.eventBytes();
          eventsByKind[k]++;
          bytesByKind[k] += bytes - before;
          before = bytes;
          if (sFirst == Long.MAX_VALUE) {
            sFirst = c.time();
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
      }
    }
    long firstThread = Long.MAX_VALUE;
    for (ThreadDef t : defs.threads()) {
      if (!t.names().isEmpty()) {
        firstThread = Math.min(firstThread, t.names().get(0).time());
      }
    }
    this.idleWindow =
        defs.closedCleanly() && firstThread != Long.MAX_VALUE && defs.endTime() > firstThread
            ? defs.endTime() - firstThread
            : 0;
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

  /**
   * Nanoseconds from the first to the last event of any thread. A closed trace without events (a
   * program that used no construct Weft records: its threads are defined, nothing more) spans from
   * its first thread's definition to its end, as the analysis' window does; 0 when there is nothing
   * to measure.
   */
  long durationNanos() {
    if (events > 0) {
      return lastTime - firstTime;
    }
    return idleWindow;
  }

  /** For a trace without events: its first thread definition to its END record, or 0. */
  private final long idleWindow;

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
