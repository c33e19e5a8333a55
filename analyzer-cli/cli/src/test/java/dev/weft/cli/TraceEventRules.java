package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules of the Trace Event Format that Perfetto and chrome://tracing rely on, checked on an
 * exported event list: required fields; per thread, B/E balanced and nested, complete events (X)
 * nested or disjoint; flows with unique ids, one start and one finish each, the start not after the
 * finish, each bound to a slice of its thread.
 */
final class TraceEventRules {
  private TraceEventRules() {}

  private record Span(double ts, double end) {}

  static void check(List<JsonNode> events) {
    Map<String, List<JsonNode>> byTrack = new LinkedHashMap<>();
    Map<Long, JsonNode> starts = new HashMap<>();
    Map<Long, JsonNode> finishes = new HashMap<>();
    for (JsonNode e : events) {
      for (String f : new String[] {"name", "ph", "pid", "tid"}) {
        assertNotNull(e.get(f), f + " missing in " + e);
      }
      String ph = e.get("ph").asText();
      if (ph.equals("M")) {
        continue;
      }
      assertTrue(e.get("ts").isNumber() && e.get("ts").asDouble() >= 0, e.toString());
      if (ph.equals("X")) {
        assertTrue(e.get("dur").isNumber() && e.get("dur").asDouble() >= 0, e.toString());
      }
      if (ph.equals("s")) {
        assertNull(starts.put(e.get("id").asLong(), e), "flow id used twice: " + e);
      } else if (ph.equals("f")) {
        assertNull(finishes.put(e.get("id").asLong(), e), "flow id used twice: " + e);
      }
      byTrack.computeIfAbsent(track(e), k -> new ArrayList<>()).add(e);
    }
    assertEquals(starts.keySet(), finishes.keySet(), "every flow start has its finish");
    for (Map.Entry<String, List<JsonNode>> t : byTrack.entrySet()) {
      checkBeginEnd(t.getKey(), t.getValue());
      checkComplete(t.getKey(), t.getValue());
    }
    for (Map.Entry<Long, JsonNode> s : starts.entrySet()) {
      JsonNode start = s.getValue();
      JsonNode finish = finishes.get(s.getKey());
      assertEquals(start.get("name"), finish.get("name"), "flow names");
      assertTrue(
          start.get("ts").asDouble() <= finish.get("ts").asDouble(),
          "flow ends before it starts: " + start + " " + finish);
      List<Span> spans = spans(byTrack.get(track(start)));
      double ts = start.get("ts").asDouble();
      assertTrue(
          spans.stream().anyMatch(x -> x.ts() <= ts && ts <= x.end()),
          "flow start outside any slice of its thread: " + start);
      double tf = finish.get("ts").asDouble();
      assertTrue(
          spans(byTrack.get(track(finish))).stream().anyMatch(x -> x.ts() == tf),
          "no slice begins where the flow ends: " + finish);
    }
  }

  private static String track(JsonNode e) {
    return e.get("pid").asLong() + "/" + e.get("tid").asLong();
  }

  private static List<Span> spans(List<JsonNode> events) {
    List<Span> spans = new ArrayList<>();
    for (JsonNode e : events) {
      if (e.get("ph").asText().equals("X")) {
        double ts = e.get("ts").asDouble();
        spans.add(new Span(ts, ts + e.get("dur").asDouble()));
      }
    }
    return spans;
  }

  /** B/E in timestamp order (file order for equal times): each E ends the innermost B. */
  private static void checkBeginEnd(String track, List<JsonNode> events) {
    List<JsonNode> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingDouble(e -> e.get("ts").asDouble()));
    Deque<String> open = new ArrayDeque<>();
    for (JsonNode e : sorted) {
      switch (e.get("ph").asText()) {
        case "B" -> open.push(e.get("name").asText());
        case "E" -> {
          assertFalse(open.isEmpty(), "E without B on " + track + ": " + e);
          assertEquals(open.pop(), e.get("name").asText(), "crossed B/E on " + track);
        }
        default -> {}
      }
    }
    assertTrue(open.isEmpty(), "B without E on " + track + ": " + open);
  }

  /**
   * Complete events nest: sorted by start (longer first), each one either starts after the open
   * ones ended or ends within the innermost one.
   */
  private static void checkComplete(String track, List<JsonNode> events) {
    List<Span> spans = spans(events);
    spans.sort(
        Comparator.comparingDouble(Span::ts).thenComparing(Span::end, (a, b) -> -a.compareTo(b)));
    Deque<Span> open = new ArrayDeque<>();
    for (Span s : spans) {
      while (!open.isEmpty() && open.peek().end() <= s.ts() + 1e-9 && open.peek().end() < s.end()) {
        open.pop();
      }
      if (!open.isEmpty() && s.end() > open.peek().end() + 1e-9) {
        fail("crossed slices on " + track + ": " + open.peek() + " and " + s);
      }
      open.push(s);
    }
  }

  private static void assertNull(Object o, String message) {
    if (o != null) {
      fail(message);
    }
  }
}
