package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.EventKind;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryCommandTest {
  @TempDir Path tmp;
  Path trace;

  @BeforeEach
  void writeTrace() throws Exception {
    trace = TestTraces.sample(tmp.resolve("trace"));
  }

  /** The JVM's counts and the thread's CPU and run-queue times, where the agent measured them. */
  @Test
  void threadsShowTheirCpuTimeWhereMeasured() throws Exception {
    Path dir = tmp.resolve("cpu");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.defineRegion(
          new RegionDef(1, ConstructKind.USER_REGION, "work", "demo.A", "run", "A.java", 1, 2));
      StreamWriter reader = w.openStream(1, "reader", 0, 0, 1000);
      StreamWriter older = w.openStream(2, "older", 0, 0, 1000);
      reader.enter(2000, 1);
      reader.exit(3000, 1);
      older.enter(2000, 1);
      older.exit(3000, 1);
      w.defineThreadJvmCounts(reader.id(), 1, 2, 5_000_000, 1_000_000);
      w.defineThreadJvmCounts(older.id(), 3, 4); // an agent that did not measure times
      w.close(4000);
    }
    Cli.Result text = Cli.run("summary", dir.toString(), "--color", "never");
    assertEquals(0, text.exit(), text.toString());
    assertTrue(
        text.out().matches("(?s).*\\n +1 +reader +- +2 +5\\.00 ms +complete\\n.*"), text.out());
    assertTrue(text.out().matches("(?s).*\\n +2 +older +- +2 +- +complete\\n.*"), text.out());
    Cli.Result json = Cli.run("summary", dir.toString(), "--format", "json");
    JsonNode threads = new ObjectMapper().readTree(json.out()).get("thread_list");
    assertEquals(
        "{\"blocked\":1,\"waited\":2,\"cpu_ns\":5000000,\"run_queue_ns\":1000000}",
        threads.get(0).get("jvm_counts").toString());
    assertEquals("{\"blocked\":3,\"waited\":4}", threads.get(1).get("jvm_counts").toString());
  }

  /**
   * Threads hosted on an ended thread's file are listed with their own events, and the mounts that
   * frame them are nobody's (FORMAT.md, "Hosted platform threads").
   */
  @Test
  void hostedThreadsShowTheirOwnEventsAndNoMounts() throws Exception {
    Path dir = tmp.resolve("hosted");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      StreamWriter first = w.openStream(11, "first", 0, 0, 1000);
      first.threadBegin(1000);
      first.threadEnd(2000);
      w.releaseStream(first);
      TraceWriter.Hosted second = w.openHosted(12, "second", 0, 0, 3000);
      second.host().threadBegin(3000);
      second.host().lockAcquired(3500, 7, 0);
      second.host().lockReleased(3600, 7);
      second.host().threadEnd(4000);
      w.endHosted(second, 12, 4000);
      w.close(5000);
    }
    Cli.Result json = Cli.run("summary", dir.toString(), "--format", "json");
    assertEquals(0, json.exit(), json.toString());
    JsonNode j = new ObjectMapper().readTree(json.out());
    long events = 0;
    for (JsonNode n : j.get("events")) {
      events += n.asLong();
    }
    assertEquals(6, events, j.toString());
    assertEquals(0, j.get("events").get("vthread_mount").asInt());
    assertEquals(0, j.get("events").get("vthread_unmount").asInt());
    assertEquals(2, j.get("events").get("thread_begin").asInt());
    JsonNode threads = j.get("thread_list");
    assertEquals(2, threads.size());
    assertEquals("first", threads.get(0).get("name").asText());
    assertEquals(2, threads.get(0).get("events").asInt());
    assertEquals("second", threads.get(1).get("name").asText());
    assertEquals(4, threads.get(1).get("events").asInt());
    assertEquals("complete", threads.get(1).get("state").asText());
    assertFalse(threads.get(1).get("virtual").asBoolean());
  }

  @Test
  void jsonContractHasEveryKindAndTheLeadingKeysInOrder() throws Exception {
    Cli.Result r = Cli.run("summary", trace.toString(), "--format", "json");
    assertEquals(0, r.exit(), r.toString());
    JsonNode j = new ObjectMapper().readTree(r.out());
    List<String> keys = new ArrayList<>();
    j.fieldNames().forEachRemaining(keys::add);
    assertEquals(
        List.of("duration_ns", "threads", "events", "bytes_per_event", "dropped"),
        keys.subList(0, 5));
    // The analysis window: main's THREAD_BEGIN to the END record.
    assertEquals(14000 - 1000, j.get("duration_ns").asLong());
    assertEquals(2, j.get("threads").asInt());
    assertEquals(0, j.get("dropped").asLong());
    JsonNode events = j.get("events");
    assertEquals(EventKind.values().length, events.size());
    for (EventKind k : EventKind.values()) {
      assertTrue(events.has(k.id()), "missing " + k.id());
    }
    assertEquals(3, events.get("lock_acquired").asLong());
    assertEquals(3, events.get("lock_request").asLong());
    assertEquals(2, events.get("enter").asLong());
    assertEquals(0, events.get("spin_enter").asLong());
    long total = 0;
    for (Iterator<JsonNode> it = events.elements(); it.hasNext(); ) {
      total += it.next().asLong();
    }
    assertEquals(TestTraces.MAIN_EVENTS + TestTraces.WORKER_EVENTS, total);
    double bpe = j.get("bytes_per_event").asDouble();
    assertEquals((double) j.get("event_bytes").asLong() / total, bpe, 0.001);
    assertTrue(bpe >= 2 && bpe < 10, "bytes/event " + bpe);
    assertEquals("complete", j.get("status").asText());
    assertEquals(4242, j.get("process").get("pid").asLong());
    assertEquals("demo.Main", j.get("process").get("main_class").asText());
  }

  @Test
  void aTraceWithoutEventsLastsAsLongAsTheAnalysisWindow() throws Exception {
    // A serial program: its main is defined at the start, records nothing, and the trace closes.
    Path serial = tmp.resolve("serial");
    try (dev.weft.trace.TraceWriter w =
        dev.weft.trace.TraceWriter.create(serial, dev.weft.trace.TraceWriter.Options.defaults())) {
      w.openStream(1, "main", 1, 0, System.nanoTime() - 500_000_000L);
    }
    Cli.Result r = Cli.run("summary", serial.toString(), "--format", "json");
    assertEquals(0, r.exit(), r.toString());
    long summary = new ObjectMapper().readTree(r.out()).get("duration_ns").asLong();
    long window = dev.weft.analysis.Analyzer.analyze(serial).trace().durationNs();
    assertTrue(summary >= 500_000_000L, r.out());
    assertEquals(window, summary, "summary and analysis give the run one duration");
  }

  @Test
  void textNamesThreadsPoolsProcessAndKinds() {
    Cli.Result r = Cli.run("summary", trace.toString());
    assertEquals(0, r.exit(), r.toString());
    String out = r.out();
    assertTrue(out.contains("Status:        complete"), out);
    assertTrue(out.contains("Duration:      13.0 us"), out);
    assertTrue(out.contains("pid 4242 on testhost, 2 cores"), out);
    assertTrue(out.contains("java -cp app.jar demo.Main"), out);
    assertTrue(out.contains(TestTraces.WORKER) && out.contains("ForkJoinPool-1"), out);
    for (EventKind k : EventKind.values()) {
      assertTrue(out.contains(" " + k.id() + " "), "missing " + k.id());
    }
    assertFalse(out.contains("\u001b["), "no colours when stdout is not a terminal");
  }

  @Test
  void colourOnlyWhenAskedOrOnATerminal() {
    assertTrue(Cli.run("summary", trace.toString(), "--color", "always").out().contains("\u001b["));
    assertFalse(Cli.run("summary", trace.toString(), "--color=never").out().contains("\u001b["));
  }

  @Test
  void writesToAFileWithDashO() throws Exception {
    Path out = tmp.resolve("summary.json");
    Cli.Result r = Cli.run("summary", trace.toString(), "--format=json", "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(2, new ObjectMapper().readTree(Files.readString(out)).get("threads").asInt());
  }

  @Test
  void cutTraceIsSummarisedAsCut() throws Exception {
    // Remove the clean-end record: as if the process had been killed before closing the trace.
    Path defs = trace.resolve("defs.wdf");
    byte[] bytes = Files.readAllBytes(defs);
    // The END record is the last one: type 0x0A, length 7, 14000 as a zigzag varint (3 bytes) and
    // the record's checksum (4 bytes).
    int start = bytes.length - 9;
    assertEquals(0x0A, bytes[start] & 0xFF);
    Files.write(defs, java.util.Arrays.copyOf(bytes, start));
    Cli.Result r = Cli.run("summary", trace.toString(), "--format", "json");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("cut", new ObjectMapper().readTree(r.out()).get("status").asText());
  }
}
