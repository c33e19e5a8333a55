package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportCommandTest {
  @TempDir Path tmp;
  Path trace;

  @BeforeEach
  void writeTrace() throws Exception {
    trace = TestTraces.sample(tmp.resolve("trace"));
  }

  private List<JsonNode> export(String... extra) throws Exception {
    Path out = tmp.resolve("trace.json");
    List<String> args =
        new ArrayList<>(
            List.of("export", trace.toString(), "--format", "chrome", "-o", out.toString()));
    args.addAll(List.of(extra));
    Cli.Result r = Cli.run(args.toArray(new String[0]));
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.err().startsWith("weft: wrote " + out), r.err());
    JsonNode root = new ObjectMapper().readTree(Files.readString(out));
    assertEquals("ns", root.get("displayTimeUnit").asText());
    List<JsonNode> events = new ArrayList<>();
    root.get("traceEvents").forEach(events::add);
    return events;
  }

  @Test
  void everyEventHasTheRequiredFields() throws Exception {
    for (JsonNode e : export()) {
      for (String f : new String[] {"name", "ph", "ts", "pid", "tid"}) {
        assertNotNull(e.get(f), f + " missing in " + e);
      }
      assertTrue(e.get("ts").isNumber(), e.toString());
    }
  }

  @Test
  void tracksAreNamedAndWorkersGroupedByPool() throws Exception {
    List<JsonNode> events = export();
    Map<String, String> threadNames = new HashMap<>();
    Map<Integer, String> processNames = new HashMap<>();
    for (JsonNode e : events) {
      if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")) {
        threadNames.put(
            e.get("pid").asInt() + "/" + e.get("tid").asInt(), e.get("args").get("name").asText());
      }
      if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("process_name")) {
        processNames.put(e.get("pid").asInt(), e.get("args").get("name").asText());
      }
    }
    assertEquals("main", threadNames.get("1/1"));
    assertEquals(TestTraces.WORKER, threadNames.get("2/2")); // pool 1 -> pid 2
    assertEquals("ForkJoinPool-1", processNames.get(2));
    assertEquals("demo.Main (pid 4242)", processNames.get(1));
  }

  @Test
  void slicesNestPerThread() throws Exception {
    assertNested(export());
    assertNested(export("--no-lock-holds"));
  }

  @Test
  void slicesForTasksLocksBarriersAndJoins() throws Exception {
    List<JsonNode> events = export();
    Map<String, List<JsonNode>> begins =
        events.stream()
            .filter(e -> e.get("ph").asText().equals("B"))
            .collect(
                Collectors.groupingBy(
                    e -> e.get("name").asText(), LinkedHashMap::new, Collectors.toList()));
    JsonNode task = begins.get("task Demo.java:60").get(0);
    assertEquals(2, task.get("tid").asInt());
    assertEquals("0x77", task.get("args").get("task").asText());
    assertEquals(400, task.get("args").get("queued_ns").asLong()); // created at 2100, began at 2500
    assertEquals(3, begins.get("lock wait").size());
    JsonNode workerWait =
        begins.get("lock wait").stream()
            .filter(e -> e.get("tid").asInt() == 2)
            .findFirst()
            .orElseThrow();
    assertEquals("Demo.java:40", workerWait.get("args").get("at").asText());
    assertEquals("0xabc (ReentrantLock)", workerWait.get("args").get("lock").asText());
    assertEquals(1.600, workerWait.get("ts").asDouble(), 1e-9); // 2600 ns - 1000 ns
    assertEquals(2, begins.get("barrier wait").size());
    assertEquals(0, begins.get("barrier wait").get(0).get("args").get("generation").asInt());
    assertEquals(1, begins.get("join wait").size());
    assertEquals(1, begins.get("parallel ForkJoinPool.invoke").size());
    // main holds A and B hand-over-hand: B is ended with A and re-opened.
    assertTrue(
        begins.get("lock held").stream().anyMatch(e -> e.get("args").has("continued")),
        begins.get("lock held").toString());
    assertFalse(
        export("--no-lock-holds").stream()
            .anyMatch(e -> e.get("name").asText().equals("lock held")));
  }

  @Test
  void unfinishedSliceIsClosedAtTheThreadsLastEvent() throws Exception {
    JsonNode end =
        export().stream()
            .filter(
                e ->
                    e.get("ph").asText().equals("E")
                        && e.get("name").asText().equals("work")
                        && e.get("tid").asInt() == 2)
            .findFirst()
            .orElseThrow();
    assertEquals(10.600, end.get("ts").asDouble(), 1e-9); // worker's thread_end at 11600
    assertTrue(end.get("args").get("unfinished").asBoolean());
  }

  @Test
  void flowsArePairedFromTaskCreateAndLockRelease() throws Exception {
    List<JsonNode> events = export();
    Map<Long, JsonNode> starts = new HashMap<>();
    Map<Long, JsonNode> finishes = new HashMap<>();
    for (JsonNode e : events) {
      String ph = e.get("ph").asText();
      if (ph.equals("s")) {
        assertNull(starts.put(e.get("id").asLong(), e), "duplicate flow id " + e);
      } else if (ph.equals("f")) {
        assertNull(finishes.put(e.get("id").asLong(), e), "duplicate flow id " + e);
        assertEquals("e", e.get("bp").asText());
      }
    }
    assertEquals(starts.keySet(), finishes.keySet(), "every s has an f and every f an s");
    for (Map.Entry<Long, JsonNode> s : starts.entrySet()) {
      JsonNode f = finishes.get(s.getKey());
      assertEquals(s.getValue().get("name"), f.get("name"));
      assertEquals(s.getValue().get("cat"), f.get("cat"));
    }
    // One from task_create (main, 2100) to task_begin (worker, 2500); one from main's release of
    // lock A (5000) to the worker's acquisition (5050). Lock B is never taken by another thread.
    assertEquals(2, starts.size(), starts.toString());
    JsonNode task =
        starts.values().stream()
            .filter(e -> e.get("name").asText().equals("task"))
            .findFirst()
            .orElseThrow();
    assertEquals(1.100, task.get("ts").asDouble(), 1e-9);
    assertEquals(1, task.get("tid").asInt());
    JsonNode taskEnd = finishes.get(task.get("id").asLong());
    assertEquals(1.500, taskEnd.get("ts").asDouble(), 1e-9);
    assertEquals(2, taskEnd.get("tid").asInt());
    JsonNode lock =
        starts.values().stream()
            .filter(e -> e.get("name").asText().equals("lock handoff"))
            .findFirst()
            .orElseThrow();
    assertEquals(4.000, lock.get("ts").asDouble(), 1e-9);
    assertEquals(4.050, finishes.get(lock.get("id").asLong()).get("ts").asDouble(), 1e-9);
  }

  @Test
  void aWaitEndsAtItsExitEvenWhenTheExitNamesAnotherRegion() throws Exception {
    Path t = tmp.resolve("waits");
    try (TraceWriter w = TraceWriter.create(t, TraceWriter.Options.defaults())) {
      for (int region : new int[] {6, 7}) {
        w.defineRegion(
            new RegionDef(region, ConstructKind.FUTURE_GET, "get", "C", "m", "C.java", region, 0));
      }
      StreamWriter s = w.openStream(1, "main", 0, 0, 0);
      s.joinWaitEnter(1000, 6, 0);
      s.joinWaitExit(3000, 7);
      s.threadEnd(9000);
      w.close(9000);
    }
    trace = t;
    JsonNode end =
        export().stream()
            .filter(
                e -> e.get("ph").asText().equals("E") && e.get("name").asText().equals("join wait"))
            .findFirst()
            .orElseThrow();
    assertEquals(2.0, end.get("ts").asDouble(), 1e-9);
  }

  @Test
  void writesToStdoutWithoutDashO() throws Exception {
    Cli.Result r = Cli.run("export", trace.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(new ObjectMapper().readTree(r.out()).get("traceEvents").size() > 20);
    // Timestamps are microseconds with exactly three decimals (nanosecond precision, no exponent).
    assertTrue(r.out().contains("\"ts\":1.600,"), r.out());
  }

  private static void assertNull(Object o, String message) {
    if (o != null) {
      fail(message);
    }
  }

  /**
   * Checks B/E nesting per track in the order a viewer reads them: by timestamp, events of equal
   * time in file order. Every flow start or finish must sit inside an open slice of its track.
   */
  static void assertNested(List<JsonNode> events) {
    Map<String, List<JsonNode>> byTrack = new LinkedHashMap<>();
    for (JsonNode e : events) {
      if (!e.get("ph").asText().equals("M")) {
        byTrack
            .computeIfAbsent(
                e.get("pid").asInt() + "/" + e.get("tid").asInt(), k -> new ArrayList<>())
            .add(e);
      }
    }
    for (Map.Entry<String, List<JsonNode>> track : byTrack.entrySet()) {
      List<JsonNode> sorted = new ArrayList<>(track.getValue());
      sorted.sort(Comparator.comparingDouble(e -> e.get("ts").asDouble())); // stable
      Deque<String> open = new ArrayDeque<>();
      for (JsonNode e : sorted) {
        switch (e.get("ph").asText()) {
          case "B":
            open.push(e.get("name").asText());
            break;
          case "E":
            assertFalse(open.isEmpty(), "E without B on " + track.getKey() + ": " + e);
            assertEquals(open.pop(), e.get("name").asText(), "crossed slices on " + track.getKey());
            break;
          case "s":
          case "f":
            assertFalse(open.isEmpty(), "flow outside any slice on " + track.getKey() + ": " + e);
            break;
          default:
            break;
        }
      }
      assertTrue(open.isEmpty(), "unclosed slices on " + track.getKey() + ": " + open);
    }
  }
}
