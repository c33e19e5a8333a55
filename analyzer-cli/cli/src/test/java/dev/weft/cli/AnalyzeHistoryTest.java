package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** weft analyze --store DIR --format html: the page carries the program's history in the store. */
class AnalyzeHistoryTest {
  @TempDir Path tmp;

  /** The data embedded in a report page. */
  private static JsonNode data(Path page) throws Exception {
    String html = Files.readString(page);
    String open = "<script type=\"application/json\" id=\"weft-data\">";
    int from = html.indexOf(open) + open.length();
    return new ObjectMapper().readTree(html.substring(from, html.indexOf("</script>", from)));
  }

  private Cli.Result analyze(Path trace, Path store, Path page, String... more) {
    String[] args = {
      "analyze",
      trace.toString(),
      "--format",
      "html",
      "-o",
      page.toString(),
      "--store",
      store.toString()
    };
    String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return Cli.run(all);
  }

  @Test
  void pageShowsTheRunsOfTheProgramWithThisRunMarkedAndItsValues() throws Exception {
    Path trace = TestTraces.wellFormed(tmp.resolve("trace"));
    Path store = tmp.resolve("store");
    Cli.Result first = analyze(trace, store, tmp.resolve("1.html"), "--label", "commit=aaa");
    assertEquals(0, first.exit(), first.toString());
    JsonNode one = data(tmp.resolve("1.html")).get("history");
    assertEquals(1, one.get("runs").size(), "one run: no history yet");
    assertEquals(0, one.get("current").asInt());

    for (String commit : new String[] {"bbb", "ccc"}) {
      Cli.Result r =
          analyze(trace, store, tmp.resolve(commit + ".html"), "--label", "commit=" + commit);
      assertEquals(0, r.exit(), r.toString());
    }
    JsonNode page = data(tmp.resolve("ccc.html"));
    JsonNode h = page.get("history");
    assertEquals("demo.Main", h.get("main_class").asText());
    assertEquals(store.toString(), h.get("store").asText());
    assertEquals(3, h.get("runs").size());
    assertEquals(2, h.get("current").asInt(), "this run is the newest");
    assertEquals("ccc", h.get("runs").get(2).get("labels").get("commit").asText());
    assertEquals("aaa", h.get("runs").get(0).get("labels").get("commit").asText());
    // Each property's value in each run is its inclusive severity in this (same) trace's analysis.
    assertTrue(h.get("properties").size() >= 2, h.toString());
    for (JsonNode p : h.get("properties")) {
      long severity = -1;
      for (JsonNode q : page.get("analysis").get("properties")) {
        if (q.get("id").asText().equals(p.get("id").asText())) {
          severity = q.get("severity_ns").asLong();
          assertEquals("time", q.get("parent").asText(), "a part of the run's time");
        }
      }
      for (JsonNode v : p.get("total").get("values")) {
        assertEquals(severity, v.asLong(), p.toString());
      }
      assertFalse(p.get("total").get("grew").asBoolean(), "the same trace three times is flat");
    }

    Cli.Result shorter = analyze(trace, store, tmp.resolve("d.html"), "--history", "2");
    assertEquals(0, shorter.exit(), shorter.toString());
    assertEquals(2, data(tmp.resolve("d.html")).get("history").get("runs").size());

    Cli.Result json =
        Cli.run(
            "analyze",
            trace.toString(),
            "--format",
            "html",
            "-o",
            tmp.resolve("e.html").toString());
    assertEquals(0, json.exit(), json.toString());
    assertFalse(data(tmp.resolve("e.html")).has("history"), "no store, no history");
  }

  @Test
  void damagedStoreIsOneLineAndExitTwo() throws Exception {
    Path trace = TestTraces.wellFormed(tmp.resolve("trace"));
    Path store = tmp.resolve("store");
    assertEquals(0, Cli.run("store", "add", store.toString(), trace.toString()).exit());
    Path file;
    try (Stream<Path> files = Files.walk(store.resolve("results"))) {
      file = files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    Files.writeString(file, "not parquet");
    Cli.Result r = analyze(trace, store, tmp.resolve("x.html"));
    assertEquals(2, r.exit(), r.toString());
    assertTrue(
        r.errLines().get(r.errLines().size() - 1).startsWith("weft: " + file + ": damaged"),
        r.toString());
    assertFalse(r.err().contains("\tat "), "no stack trace");
    Cli.Result bad = analyze(trace, tmp.resolve("other"), tmp.resolve("y.html"), "--history", "0");
    assertEquals(2, bad.exit(), bad.toString());
    assertEquals(1, bad.errLines().size(), bad.toString());
  }
}
