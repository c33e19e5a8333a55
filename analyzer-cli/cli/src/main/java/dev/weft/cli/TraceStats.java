package dev.weft.cli;

import dev.weft.analysis.RunWindow;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.Trace;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
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
        // The file's own thread, and each platform thread hosted on it after that thread ended
        // (FORMAT.md, "Hosted platform threads"): their mounts and unmounts frame their stretches
        // and are nobody's events.
        Span own = new Span();
        Span span = own;
        List<Span> hosted = new ArrayList<>();
        long droppedEvents = 0;
        long before = 0;
        long framing = 0;
        while (c.next()) {
          EventKind kind = c.kind();
          if (kind == EventKind.VTHREAD_MOUNT || kind == EventKind.VTHREAD_UNMOUNT) {
            int hostedStream = defs.hostedStream(c.field(0));
            if (hostedStream != 0) {
              framing++;
              before = c.eventBytes();
              span = kind == EventKind.VTHREAD_MOUNT ? new Span(hostedStream) : own;
              if (span != own) {
                hosted.add(span);
              }
              continue;
            }
          }
          int k = kind.ordinal();
          long bytes = c.eventBytes();
          eventsByKind[k]++;
          bytesByKind[k] += bytes - before;
          span.event(c.time(), kind, bytes - before);
          before = bytes;
          if (k == droppedKind) {
            droppedEvents += c.field(countField);
          }
        }
        // The same drops may be counted three ways: at a clean close, live in the file header, and
        // in DROPPED events when recording resumed. Each is a lower bound; the largest is the
        // count.
        long d =
            Math.max(defs.drops().getOrDefault(id, 0L), Math.max(c.headerDropped(), droppedEvents));
        own.stream = id;
        for (Span x : hosted) {
          // A hosted thread's stretch ends with its file's reading: cut or damaged with it (the
          // problem is the file's, told once).
          list.add(x.stats(0, c.state(), null));
        }
        list.add(own.stats(d, c.state(), c.problem()));
        allEvents += c.eventCount() - framing;
        allBytes += c.eventBytes();
        allDropped += d;
        for (Span x : hosted) {
          x.window(window);
        }
        own.window(window);
        if (c.eventCount() > framing) {
          for (Span x : hosted) {
            first = Math.min(first, x.first);
            last = Math.max(last, x.last);
          }
          first = Math.min(first, own.first);
          last = Math.max(last, own.last);
        }
      }
    }
    list.sort(Comparator.comparingInt(StreamStats::stream));
    this.durationNs = window.durationNs();
    this.streams = Collections.unmodifiableList(list);
    this.events = allEvents;
    this.eventBytes = allBytes;
    this.firstTime = first;
    this.lastTime = last;
    this.dropped = allDropped;
    this.integrity = trace.integrity();
  }

  /** One thread's events in a file: the file's own thread's, or a hosted thread's stretch. */
  private static final class Span {
    int stream;
    long events;
    long bytes;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    boolean firstIsBegin;

    Span() {}

    Span(int stream) {
      this.stream = stream;
    }

    void event(long time, EventKind kind, long encoded) {
      if (events++ == 0) {
        first = time;
        firstIsBegin = kind == EventKind.THREAD_BEGIN;
      }
      last = time;
      bytes += encoded;
    }

    StreamStats stats(long dropped, StreamCursor.State state, String problem) {
      return new StreamStats(stream, events, bytes, first, last, dropped, state, problem);
    }

    void window(RunWindow w) {
      if (events > 0) {
        w.stream(stream, first, firstIsBegin, last);
      }
    }
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
