package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiffCommandTest {
  @TempDir Path tmp;
  Path a;
  Path b;

  @BeforeEach
  void writeAnalyses() throws Exception {
    a = Analyses.write(tmp.resolve("a.json"), Analyses.baseline(), 50_000_000L);
    Map<String, Double> p = Analyses.baseline();
    p.put("barrier_wait", 12.0);
    p.put("lock_contention", 3.0);
    p.put("monitor_contention", 1.0);
    p.remove("spin_wait");
    b = Analyses.write(tmp.resolve("b.json"), p, 200_000_000L);
  }

  @Test
  void textShowsEveryPropertySideBySideInTreeOrder() {
    // The full layout, from 100 columns on (TextWidthTest covers narrower ones).
    Cli.Result r = Cli.run(Map.of("COLUMNS", "100"), "diff", a.toString(), b.toString());
    assertEquals(0, r.exit(), r.toString());
    String out = r.out();
    assertTrue(out.startsWith("A: " + a + " (trace /traces/a.json): 1.00 s, 4 threads"), out);
    for (String id : Analyses.TREE.keySet()) {
      assertTrue(out.contains(id), id);
    }
    // barrier_wait: 8 % -> 12 %: +4 points, +50 % relative; severity 320 ms -> 480 ms.
    assertTrue(
        out.contains(
            "  barrier_wait                      320 ms     8.00      480 ms    12.00     +4.00  "
                + " +50.0 %"),
        out);
    assertTrue(
        out.contains(
            "    monitor_contention              160 ms     4.00     40.0 ms     1.00     -3.00  "
                + " -75.0 %"),
        out);
    assertTrue(
        out.contains(
            "  spin_wait                        8.00 ms     0.20           -        -     -0.20 "
                + " -100.0 %"),
        out);
    assertTrue(out.indexOf("  lock_contention") < out.indexOf("    monitor_contention"), out);
    assertTrue(out.contains("solve @ Solver.java:42"), out);
    assertTrue(out.contains("50.0 ms → 200 ms"), out);
    assertTrue(out.contains("barrier_wait by thread"), out);
  }

  @Test
  void jsonHasDeltasRegionsAndThreads() throws Exception {
    Cli.Result r = Cli.run("diff", a.toString(), b.toString(), "--format", "json");
    assertEquals(0, r.exit(), r.toString());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals("weft-diff/1", j.get("format").asText());
    assertEquals(13, j.get("properties").size());
    JsonNode barrier = null;
    JsonNode spin = null;
    for (JsonNode p : j.get("properties")) {
      if (p.get("id").asText().equals("barrier_wait")) {
        barrier = p;
      }
      if (p.get("id").asText().equals("spin_wait")) {
        spin = p;
      }
    }
    assertEquals(4.0, barrier.get("delta_pp").asDouble(), 1e-9);
    assertEquals(0.5, barrier.get("delta_relative").asDouble(), 1e-9);
    assertEquals(160_000_000L, barrier.get("delta_ns").asLong());
    assertTrue(spin.get("b").isNull());
    assertEquals(-1.0, spin.get("delta_relative").asDouble(), 1e-9);
    JsonNode region = j.get("regions").get(0);
    assertEquals("solve", region.get("name").asText());
    assertEquals(150_000_000L, region.get("delta_lost_ns").asLong());
    assertEquals("setup", j.get("regions").get(1).get("name").asText());
    JsonNode threads = j.get("threads").get(0);
    assertEquals("barrier_wait", threads.get("property").asText()); // moved most: +160 ms
    assertEquals("worker-1", threads.get("by_thread").get(0).get("thread").asText());
    assertEquals(120_000_000L, threads.get("by_thread").get(0).get("delta_ns").asLong());
  }

  @Test
  void relativeChangeFromZeroIsNew() throws Exception {
    Cli.Result r = Cli.run("diff", b.toString(), a.toString(), "--format", "json");
    JsonNode spin = null;
    for (JsonNode p : new ObjectMapper().readTree(r.out()).get("properties")) {
      if (p.get("id").asText().equals("spin_wait")) {
        spin = p;
      }
    }
    assertTrue(spin.get("a").isNull());
    assertTrue(spin.get("delta_relative").isNull());
    assertTrue(Cli.run("diff", b.toString(), a.toString()).out().contains("new"));
  }

  @Test
  void tracesAreAnalysedFirst() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("trace"));
    Cli.Result r = Cli.run("diff", trace.toString(), trace.toString(), "--format", "json");
    assertEquals(0, r.exit(), r.toString());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(trace.toString(), j.get("a").get("source").asText());
    for (JsonNode p : j.get("properties")) {
      assertEquals(0.0, p.get("delta_pp").asDouble(), 0.0, p.toString());
    }
    assertTrue(j.get("properties").size() >= 13);
  }

  @Test
  void badInputs() throws Exception {
    BadInputTest.assertOneLineError(
        Cli.run("diff", a.toString()), "Missing required parameter: 'B'");
    BadInputTest.assertOneLineError(
        Cli.run("diff", a.toString(), tmp.resolve("missing.json").toString()),
        "missing.json: no such file or directory");
    Path dir = java.nio.file.Files.createDirectories(tmp.resolve("empty"));
    BadInputTest.assertOneLineError(
        Cli.run("diff", dir.toString(), b.toString()), dir + ": not a Weft trace");
  }

  @Test
  void htmlComparesBothAnalysesAsGiven() throws Exception {
    Path page = tmp.resolve("d.html");
    Cli.Result r =
        Cli.run("diff", a.toString(), b.toString(), "--format", "html", "-o", page.toString());
    assertEquals(0, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(java.util.List.of("weft: wrote " + page + "; open it in a browser"), r.errLines());
    String html = java.nio.file.Files.readString(page);
    assertTrue(html.startsWith("<!DOCTYPE html>"), html.substring(0, 40));
    String start = "<script type=\"application/json\" id=\"weft-data\">";
    int from = html.indexOf(start) + start.length();
    JsonNode data =
        new ObjectMapper().readTree(html.substring(from, html.indexOf("</script>", from)));
    ObjectMapper json = new ObjectMapper();
    assertEquals(json.readTree(a.toFile()), data.get("a"), "A is the baseline");
    assertEquals(json.readTree(b.toFile()), data.get("b"));
    // -o - writes the page to stdout.
    Cli.Result s = Cli.run("diff", a.toString(), b.toString(), "--format", "html", "-o", "-");
    assertEquals(0, s.exit(), s.toString());
    assertEquals(html, s.out());
  }

  @Test
  void htmlIsOnlyForAnalyzeAndDiff() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("trace"));
    BadInputTest.assertOneLineError(
        Cli.run("summary", trace.toString(), "--format", "html"),
        "'html' is not a format of this command (formats: text, json)");
  }
}
