package dev.weft.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the agent knew it did not record, from the counters it writes into the definitions at the
 * end (the {@code agent.*} attributes), turned into notes: an analysis never silently rests on
 * fewer events than the program produced.
 */
final class RecorderLosses {
  private RecorderLosses() {}

  static List<String> notes(Map<String, String> attributes) {
    List<String> notes = new ArrayList<>();
    Notes.add(
        notes,
        count(attributes, "agent.virtual_thread_events_skipped"),
        "events of virtual threads were not recorded (their carrier's stream was held by another"
            + " virtual thread blocked inside the recorder): their waits may be missing");
    Notes.add(
        notes,
        count(attributes, "agent.events_dropped_undefined"),
        "events were dropped because a definition they need could not be written (disk full or"
            + " size limit)");
    Notes.add(
        notes,
        count(attributes, "agent.definitions_lost"),
        "region or object definitions could not be written: the events that need them were"
            + " dropped");
    Notes.add(
        notes,
        count(attributes, "agent.jvm_counts_missed"),
        "threads ended before the JVM's own monitor counts were available: their blocks in code"
            + " Weft does not weave are not cross-checked");
    String first = attributes.get("agent.first_weave_error");
    Notes.add(
        notes,
        count(attributes, "agent.weave_errors"),
        "classes could not be woven and ran unrecorded"
            + (first == null || first.isEmpty() || first.equals("null")
                ? ""
                : " (first: " + first + ")"));
    return notes;
  }

  /** A counter attribute; absent, malformed or negative counts as 0 (the trace is input). */
  private static long count(Map<String, String> attributes, String key) {
    String v = attributes.get(key);
    if (v == null) {
      return 0;
    }
    try {
      return Math.max(0, Long.parseLong(v.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
