package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    TraceEventRules.check(events);
    return events;
  }

  private static List<JsonNode> slices(List<JsonNode> events, String name) {
    return events.stream()
        .filter(e -> e.get("ph").asText().equals("X") && e.get("name").asText().equals(name))
        .collect(Collectors.toList());
  }

  @Test
  void followsTheTraceEventFormatsRules() throws Exception {
    export();
    export("--no-lock-holds");
    export("--kinds", "all");
    export("--from", "0.003", "--to", "0.008");
  }

  @Test
  void theRulesCatchWhatViewersStumbleOver() throws Exception {
    ObjectMapper json = new ObjectMapper();
    String[] broken = {
      // crossed complete events on one thread
      "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":0,\"dur\":5,\"pid\":1,\"tid\":1},"
          + "{\"ph\":\"X\",\"name\":\"b\",\"ts\":3,\"dur\":5,\"pid\":1,\"tid\":1}]",
      // a flow start without its finish
      "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":0,\"dur\":5,\"pid\":1,\"tid\":1},"
          + "{\"ph\":\"s\",\"name\":\"t\",\"id\":1,\"ts\":1,\"pid\":1,\"tid\":1}]",
      // a flow that ends before it starts
      "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":0,\"dur\":5,\"pid\":1,\"tid\":1},"
          + "{\"ph\":\"s\",\"name\":\"t\",\"id\":1,\"ts\":4,\"pid\":1,\"tid\":1},"
          + "{\"ph\":\"f\",\"name\":\"t\",\"id\":1,\"ts\":0,\"pid\":1,\"tid\":1}]",
      // B without E
      "[{\"ph\":\"B\",\"name\":\"a\",\"ts\":0,\"pid\":1,\"tid\":1}]",
    };
    for (String b : broken) {
      List<JsonNode> events = new ArrayList<>();
      json.readTree(b).forEach(events::add);
      assertThrows(AssertionError.class, () -> TraceEventRules.check(events), b);
    }
  }

  @Test
  void theJvmIsTheProcessAndItsThreadsTheTracks() throws Exception {
    List<JsonNode> events = export();
    Map<String, String> threadNames = new HashMap<>();
    Map<String, Long> sortIndex = new HashMap<>();
    for (JsonNode e : events) {
      assertEquals(4242, e.get("pid").asInt(), e.toString()); // the JVM's pid, no other process
      if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")) {
        threadNames.put(e.get("tid").asText(), e.get("args").get("name").asText());
      }
      if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_sort_index")) {
        sortIndex.put(e.get("tid").asText(), e.get("args").get("sort_index").asLong());
      }
      if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("process_name")) {
        assertEquals("demo.Main (pid 4242)", e.get("args").get("name").asText());
      }
    }
    assertEquals(Map.of("1", "main", "2", TestTraces.WORKER), threadNames);
    assertTrue(sortIndex.get("2") > sortIndex.get("1"), "pool workers after the others");
  }

  /** A submission handed on by a wrapping executor: the task is named by the outer call. */
  @Test
  void aTaskSubmittedThroughAWrappingExecutorIsNamedByTheOuterCall() throws Exception {
    trace = TestTraces.wrappedSubmission(tmp.resolve("wrapped"));
    List<JsonNode> events = export();
    assertEquals(1, slices(events, "task Demo.run:143").size(), events.toString());
    assertTrue(slices(events, "task Demo.run:47").isEmpty());
  }

  @Test
  void slicesForTasksLocksBarriersAndJoins() throws Exception {
    List<JsonNode> events = export();
    JsonNode task = slices(events, "task Demo.run:60").get(0); // created at Demo.java:60, in run
    assertEquals(2, task.get("tid").asInt());
    assertEquals(1.500, task.get("ts").asDouble(), 1e-9); // began at 2500 ns, 1000 ns after start
    assertEquals(8.500, task.get("dur").asDouble(), 1e-9);
    List<JsonNode> lockWaits = slices(events, "lock wait Demo.java:40");
    assertEquals(3, lockWaits.size());
    JsonNode workerWait =
        lockWaits.stream().filter(e -> e.get("tid").asInt() == 2).findFirst().orElseThrow();
    assertEquals(1.600, workerWait.get("ts").asDouble(), 1e-9);
    assertEquals(2.450, workerWait.get("dur").asDouble(), 1e-9);
    assertEquals(2, slices(events, "barrier Demo.java:50").size());
    assertEquals(1, slices(events, "join wait Demo.java:61").size());
    assertEquals(1, slices(events, "parallel Demo.java:30").size());
    // main holds A and B hand-over-hand: B is ended with A and re-opened.
    List<JsonNode> holds = slices(events, "lock held");
    assertTrue(
        holds.stream().anyMatch(e -> e.has("args") && e.get("args").has("continued")),
        holds.toString());
    assertTrue(slices(export("--no-lock-holds"), "lock held").isEmpty());
  }

  @Test
  void unfinishedSliceIsClosedAtTheThreadsLastEvent() throws Exception {
    JsonNode work =
        slices(export(), "work").stream()
            .filter(e -> e.get("tid").asInt() == 2)
            .findFirst()
            .orElseThrow();
    assertEquals(10.100, work.get("ts").asDouble(), 1e-9);
    assertEquals(0.500, work.get("dur").asDouble(), 1e-9); // worker's thread_end at 11600
    assertEquals(1, work.get("args").get("unfinished").asInt());
  }

  @Test
  void arrowsFromTaskCreationAndOptionallyFromLockRelease() throws Exception {
    Map<String, List<JsonNode>> flows = flows(export());
    assertEquals(1, flows.get("s").size(), flows.toString()); // lock handoffs: not by default
    JsonNode s = flows.get("s").get(0);
    JsonNode f = flows.get("f").get(0);
    assertEquals("task", s.get("name").asText());
    assertEquals(1.100, s.get("ts").asDouble(), 1e-9);
    assertEquals(1, s.get("tid").asInt());
    assertEquals(1.500, f.get("ts").asDouble(), 1e-9);
    assertEquals(2, f.get("tid").asInt());

    Map<String, List<JsonNode>> all = flows(export("--kinds", "all"));
    JsonNode lock =
        all.get("s").stream()
            .filter(e -> e.get("name").asText().equals("lock"))
            .findFirst()
            .orElseThrow();
    assertEquals(4.000, lock.get("ts").asDouble(), 1e-9); // main releases A at 5000
    JsonNode lockEnd =
        all.get("f").stream()
            .filter(e -> e.get("id").equals(lock.get("id")))
            .findFirst()
            .orElseThrow();
    assertEquals(4.050, lockEnd.get("ts").asDouble(), 1e-9); // the worker acquires it at 5050
    assertTrue(flows(export("--kinds", "task,region")).isEmpty());
  }

  private static Map<String, List<JsonNode>> flows(List<JsonNode> events) {
    return events.stream()
        .filter(e -> e.get("ph").asText().equals("s") || e.get("ph").asText().equals("f"))
        .collect(Collectors.groupingBy(e -> e.get("ph").asText()));
  }

  @Test
  void timeWindowClipsSlices() throws Exception {
    // 3 to 8 microseconds after the first event (1000 ns): trace times 4000..9000.
    List<JsonNode> events = export("--from", "3us", "--to", "8us");
    for (JsonNode e : events) {
      if (e.get("ph").asText().equals("X")) {
        double ts = e.get("ts").asDouble();
        assertTrue(ts >= 3.0 - 1e-9 && ts + e.get("dur").asDouble() <= 8.0 + 1e-9, e.toString());
      }
    }
    JsonNode hold =
        slices(events, "lock held").stream()
            .filter(e -> e.get("tid").asInt() == 1)
            .findFirst()
            .orElseThrow();
    assertEquals(3.0, hold.get("ts").asDouble(), 1e-9); // held 2300..5000, clipped at 4000
    assertEquals(1.0, hold.get("dur").asDouble(), 1e-9);
    JsonNode task = slices(events, "task Demo.run:60").get(0);
    // The task (2500..11000) is cut at the window's end, 9000; main's barrier wait ends there.
    assertEquals(8.0, task.get("ts").asDouble() + task.get("dur").asDouble(), 1e-9);
    JsonNode barrier =
        slices(events, "barrier Demo.java:50").stream()
            .filter(e -> e.get("tid").asInt() == 1)
            .findFirst()
            .orElseThrow();
    assertEquals(8.0, barrier.get("ts").asDouble() + barrier.get("dur").asDouble(), 1e-9);
    assertTrue(flows(events).isEmpty(), "the task was created before the window");
    // A bare number is milliseconds.
    assertEquals(export("--to", "0.008").size(), export("--to", "8us").size());
  }

  @Test
  void threadsFilter() throws Exception {
    for (String threads : List.of("main", "1", "ma*")) {
      for (JsonNode e : export("--threads", threads)) {
        if (!e.get("name").asText().equals("process_name")) {
          assertEquals(1, e.get("tid").asInt(), threads + ": " + e);
        }
      }
    }
    List<JsonNode> workers = export("--threads", "ForkJoinPool-1-*");
    assertFalse(slices(workers, "task Demo.run:60").isEmpty());
    assertTrue(slices(workers, "parallel Demo.java:30").isEmpty());
  }

  @Test
  void kindsFilter() throws Exception {
    List<JsonNode> events = export("--kinds", "task,lock");
    Set<String> names =
        events.stream()
            .filter(e -> e.get("ph").asText().equals("X"))
            .map(e -> e.get("name").asText())
            .collect(Collectors.toSet());
    assertEquals(Set.of("task Demo.run:60", "lock wait Demo.java:40"), names);
  }

  @Test
  void badFiltersAreOneLineErrors() throws Exception {
    for (String[] args :
        new String[][] {
          {"--kinds", "tasks"}, {"--from", "soon"}, {"--from", "5ms", "--to", "2ms"}
        }) {
      List<String> all = new ArrayList<>(List.of("export", trace.toString()));
      all.addAll(List.of(args));
      Cli.Result r = Cli.run(all.toArray(new String[0]));
      assertEquals(ExitCodes.BAD_INPUT, r.exit(), r.toString());
      assertEquals(1, r.errLines().size(), r.err());
      assertTrue(r.err().startsWith("weft: --"), r.err());
    }
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
    JsonNode wait = slices(export(), "join wait C.java:6").get(0);
    assertEquals(2.0, wait.get("dur").asDouble(), 1e-9);
  }

  @Test
  void writesToStdoutWithoutDashO() throws Exception {
    Cli.Result r = Cli.run("export", trace.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(new ObjectMapper().readTree(r.out()).get("traceEvents").size() > 15);
    // Timestamps are microseconds with exactly three decimals (nanosecond precision, no exponent).
    assertTrue(r.out().contains("\"ts\":1.600,\"dur\":2.450,"), r.out());
  }
}
