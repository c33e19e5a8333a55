package dev.weft.report;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/**
 * The timeline of a trace as the report draws it: one track per thread (pool workers grouped by
 * pool), each either a list of intervals ({@link Mode#DETAILED}) or a run-length encoded row of
 * columns ({@link Mode#SUMMARISED}), plus fork→begin arrows in detailed mode. Built by {@link
 * TimelineReader} in one streaming pass; written into the page as compact JSON.
 *
 * <p>All times in the JSON are ns relative to {@link #origin()}, the first event's time.
 */
final class Timeline {

  /** How tracks are stored. */
  enum Mode {
    /** Every interval, with its label. */
    DETAILED,
    /** Per column of fixed width, the dominant kind and its share. */
    SUMMARISED
  }

  /** A group of tracks: the threads outside any pool, or one pool's workers. */
  record Group(String name, int pool, String kind, int parallelism, int firstTrack, int tracks) {}

  /**
   * One thread.
   *
   * @param first time of its first event (relative), or -1 when it has none
   * @param last time of its last event (relative), or -1
   * @param intervals per interval {start, end, code, label} with relative times, sorted by start
   *     then depth: in detailed mode all, in summarised mode the thread's longest stretches of one
   *     innermost activity (depth 0, never overlapping)
   * @param columns in summarised mode, the encoded columns ({@link ColumnGrid#encode}); else null
   */
  record Track(
      String name,
      int stream,
      int pool,
      int group,
      long first,
      long last,
      List<long[]> intervals,
      String columns) {}

  /**
   * Bits of an interval's code: kind ordinal, nesting depth, and whether it was still open at the
   * end.
   */
  static final int KIND_MASK = 0xF;

  static final int DEPTH_SHIFT = 4;
  static final int DEPTH_MASK = 0xFF;
  static final int OPEN_AT_END = 1 << 12;

  private final Mode mode;
  private final long origin;
  private final long end;
  private final long columnWidth;
  private final int columns;
  private final List<Group> groups;
  private final List<Track> tracks;
  private final List<String> labels;
  private final long[] arrows;
  private final TimelineLimits limits;
  private final Stats stats;

  /** Counts from the pass over the trace. */
  record Stats(
      long events, long intervals, long arrows, long unmatchedEnds, long openAtEnd, int streams) {}

  Timeline(
      Mode mode,
      long origin,
      long end,
      long columnWidth,
      int columns,
      List<Group> groups,
      List<Track> tracks,
      List<String> labels,
      long[] arrows,
      TimelineLimits limits,
      Stats stats) {
    this.mode = mode;
    this.origin = origin;
    this.end = end;
    this.columnWidth = columnWidth;
    this.columns = columns;
    this.groups = List.copyOf(groups);
    this.tracks = List.copyOf(tracks);
    this.labels = List.copyOf(labels);
    this.arrows = arrows;
    this.limits = limits;
    this.stats = stats;
  }

  Mode mode() {
    return mode;
  }

  /** Absolute time (trace clock) of the first event; all other times are relative to it. */
  long origin() {
    return origin;
  }

  /** Relative time of the timeline's end. */
  long end() {
    return end;
  }

  long columnWidth() {
    return columnWidth;
  }

  int columns() {
    return columns;
  }

  List<Group> groups() {
    return groups;
  }

  List<Track> tracks() {
    return tracks;
  }

  List<String> labels() {
    return labels;
  }

  /** Arrows, four values each: from track, from time, to track, to time (relative). */
  long[] arrows() {
    return arrows.clone();
  }

  Stats stats() {
    return stats;
  }

  /** Writes the timeline as one JSON object (the page's {@code timeline} data). */
  void write(JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("mode", mode == Mode.DETAILED ? "detailed" : "summarised");
    g.writeNumberField("origin_ns", origin);
    g.writeNumberField("end_ns", end);
    g.writeNumberField("column_ns", columnWidth);
    g.writeNumberField("columns", columns);
    g.writeNumberField("max_intervals", limits.maxIntervals());
    g.writeNumberField("kept_per_thread", TimelineReader.keptPerTrack(limits, tracks.size()));
    g.writeNumberField("max_columns", limits.columns());
    g.writeNumberField("events", stats.events());
    g.writeNumberField("intervals", stats.intervals());
    g.writeNumberField("arrows_total", stats.arrows());
    g.writeNumberField("unmatched_ends", stats.unmatchedEnds());
    g.writeNumberField("open_at_end", stats.openAtEnd());
    g.writeStringField("symbols", ColumnGrid.SYMBOLS);
    g.writeArrayFieldStart("kinds");
    for (IntervalKind k : IntervalKind.values()) {
      g.writeStartObject();
      g.writeStringField("id", k.id());
      g.writeStringField("label", k.label());
      g.writeStringField("color", k.color());
      g.writeArrayFieldStart("properties");
      for (String p : k.properties()) {
        g.writeString(p);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("groups");
    for (Group gr : groups) {
      g.writeStartObject();
      g.writeStringField("name", gr.name());
      g.writeNumberField("pool", gr.pool());
      g.writeStringField("kind", gr.kind());
      g.writeNumberField("parallelism", gr.parallelism());
      g.writeNumberField("first", gr.firstTrack());
      g.writeNumberField("count", gr.tracks());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("tracks");
    for (Track t : tracks) {
      g.writeStartObject();
      g.writeStringField("name", t.name());
      g.writeNumberField("stream", t.stream());
      g.writeNumberField("group", t.group());
      g.writeNumberField("first", t.first());
      g.writeNumberField("last", t.last());
      // Flattened: start delta from the previous interval's start, duration, code, label.
      g.writeArrayFieldStart("iv");
      long prev = 0;
      for (long[] iv : t.intervals()) {
        g.writeNumber(iv[0] - prev);
        g.writeNumber(iv[1] - iv[0]);
        g.writeNumber(iv[2]);
        g.writeNumber(iv[3]);
        prev = iv[0];
      }
      g.writeEndArray();
      if (mode == Mode.SUMMARISED) {
        g.writeStringField("cols", t.columns());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("labels");
    for (String l : labels) {
      g.writeString(l);
    }
    g.writeEndArray();
    // Per arrow: from track, from time, to track, and the to time as a delta from the from time.
    g.writeArrayFieldStart("arrows");
    for (int i = 0; i + 3 < arrows.length; i += 4) {
      g.writeNumber(arrows[i]);
      g.writeNumber(arrows[i + 1]);
      g.writeNumber(arrows[i + 2]);
      g.writeNumber(arrows[i + 3] - arrows[i + 1]);
    }
    g.writeEndArray();
    g.writeEndObject();
  }
}
