package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalysisJsonTest {
  @TempDir Path tmp;

  private AnalysisResult sample() throws IOException {
    Path trace = tmp.resolve("trace");
    SyntheticTrace.write(trace, 4, 20_000, new int[] {2, 1, 1, 1});
    return Analyzer.analyze(trace);
  }

  @Test
  void writesTheContractFieldsAndReadsBackTheSameResult() throws Exception {
    AnalysisResult r = sample();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AnalysisJson.write(r, out);
    JsonNode root = new ObjectMapper().readTree(out.toByteArray());
    assertEquals(
        List.of(
            "format",
            "status",
            "trace",
            "time_ns",
            "properties",
            "regions",
            "notes",
            "critical_path"),
        names(root));
    assertEquals(
        List.of(
            "length_ns",
            "by_thread",
            "by_callpath",
            "segments",
            "segments_truncated",
            "truncated_ns"),
        names(root.get("critical_path")));
    JsonNode segment = root.get("critical_path").get("segments").get(0);
    assertEquals(List.of("thread", "start_ns", "end_ns", "path", "kind"), names(segment));
    assertEquals("weft-analysis/1", root.get("format").asText());
    assertEquals("complete", root.get("status").asText());
    assertEquals(
        List.of("path", "duration_ns", "threads", "events", "dropped", "window", "complete"),
        names(root.get("trace")));
    assertEquals(List.of("start_ns", "end_ns"), names(root.get("trace").get("window")));
    JsonNode barrier = null;
    for (JsonNode p : root.get("properties")) {
      if (p.get("id").asText().equals("barrier_wait")) {
        barrier = p;
      }
    }
    assertEquals(
        List.of(
            "id", "parent", "name", "severity_ns", "percent", "by_thread", "by_callpath", "causes"),
        names(barrier));
    assertTrue(barrier.get("severity_ns").asLong() > 0);
    assertEquals(List.of("thread", "severity_ns"), names(barrier.get("by_thread").get(0)));
    assertEquals(List.of("path", "severity_ns"), names(barrier.get("by_callpath").get(0)));
    assertTrue(root.get("properties").get(0).get("parent").isNull());
    assertEquals(
        List.of("name", "location", "instances", "busy_ns_by_thread", "imbalance", "lost_ns"),
        names(root.get("regions").get(0)));

    Path file = tmp.resolve("a.json");
    Files.write(file, out.toByteArray());
    assertEquals(r, AnalysisJson.read(file));
  }

  @Test
  void readRejectsOtherDocumentsWithOneLine() throws Exception {
    Path bad = tmp.resolve("bad.json");
    Files.writeString(bad, "{\"format\":\"something/2\"}");
    IOException e = assertThrows(IOException.class, () -> AnalysisJson.read(bad));
    assertTrue(e.getMessage().startsWith(bad + ": not a Weft analysis"), e.getMessage());
    Files.writeString(bad, "{ not json");
    e = assertThrows(IOException.class, () -> AnalysisJson.read(bad));
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    e = assertThrows(IOException.class, () -> AnalysisJson.read(tmp.resolve("missing.json")));
    assertTrue(e.getMessage().endsWith("no such file"), e.getMessage());
  }

  private static List<String> names(JsonNode n) {
    List<String> l = new ArrayList<>();
    n.fieldNames().forEachRemaining(l::add);
    return l;
  }
}
