package dev.weft.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.trace.TraceFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
  @TempDir Path tmp;

  private static final String DATA_START = "<script type=\"application/json\" id=\"weft-data\">";

  private static String count(String html, String what) {
    return String.valueOf(html.split(Pattern.quote(what), -1).length - 1);
  }

  private static JsonNode data(String html) throws IOException {
    int start = html.indexOf(DATA_START) + DATA_START.length();
    int end = html.indexOf("</script>", start);
    return Fixtures.JSON.readTree(html.substring(start, end));
  }

  private String report(JsonNode analysis, Path trace) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    HtmlReport.write(analysis, trace, out);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void pageIsSelfContained() throws IOException {
    String html = report(Fixtures.analysis(), Fixtures.smallTrace(tmp.resolve("t")));
    assertTrue(html.startsWith("<!DOCTYPE html>"));
    // Two script elements (data and code), both inline; nothing is fetched.
    assertEquals("2", count(html, "<script"));
    assertEquals("2", count(html, "</script>"), "the note's </script> is escaped in the data");
    assertFalse(Pattern.compile("\\ssrc\\s*=").matcher(html).find(), "no src attribute");
    Matcher links = Pattern.compile("<link[^>]*>").matcher(html);
    while (links.find()) {
      assertTrue(links.group().contains("href=\"data:"), links.group());
    }
    assertFalse(html.contains("@import"));
    assertFalse(html.contains("url("));
    assertFalse(html.contains("http://") || html.contains("https://"), "no network address");
    assertTrue(html.contains("default-src 'none'"), "the page forbids itself any fetch");
  }

  @Test
  void embedsTheAnalysisAsGivenAndTheTimeline() throws IOException {
    ObjectNode analysis = Fixtures.analysis();
    JsonNode data = data(report(analysis, Fixtures.smallTrace(tmp.resolve("t"))));
    assertEquals("report", data.get("page").asText());
    assertEquals(analysis.toString(), data.get("analysis").toString());
    assertEquals("detailed", data.get("timeline").get("mode").asText());
    assertEquals(5, data.get("timeline").get("tracks").size());
    assertEquals(IntervalKind.values().length, data.get("timeline").get("kinds").size());
    // main: region 0..2000, start deltas, durations, codes, labels.
    JsonNode iv = data.get("timeline").get("tracks").get(0).get("iv");
    assertEquals(0, iv.get(0).asLong());
    assertEquals(2000, iv.get(1).asLong());
    assertEquals(IntervalKind.REGION.ordinal(), iv.get(2).asInt());
    assertEquals(100, iv.get(4).asLong(), "next start as a delta");
    // Arrows: from track, from time, to track, delay to the task's begin.
    assertEquals(
        "[0,110,2,40,0,120,3,50,0,1400,4,50]", data.get("timeline").get("arrows").toString());
  }

  @Test
  void withoutATraceThereIsNoTimeline() throws IOException {
    JsonNode data = data(report(Fixtures.analysis(), null));
    assertTrue(data.get("timeline").isNull());
  }

  @Test
  void diffEmbedsBothAnalyses() throws IOException {
    ObjectNode a = Fixtures.analysis();
    ObjectNode b = Fixtures.analysis();
    b.put("time_ns", 1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    HtmlReport.writeDiff(a, b, out);
    JsonNode data = data(out.toString(StandardCharsets.UTF_8));
    assertEquals("diff", data.get("page").asText());
    assertEquals(a.toString(), data.get("a").toString());
    assertEquals(b.toString(), data.get("b").toString());
  }

  @Test
  void rejectsWhatIsNotAnAnalysis() {
    ObjectNode other = Fixtures.JSON.createObjectNode().put("format", "weft-summary/1");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> report(other, null));
    assertEquals(
        "analysis has format \"weft-summary/1\", expected \"weft-analysis/1\"", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            HtmlReport.writeDiff(
                Fixtures.analysis(), Fixtures.JSON.createArrayNode(), new ByteArrayOutputStream()));
  }

  @Test
  void aMissingTraceIsOneLineError() {
    Path missing = tmp.resolve("nope");
    TraceFormatException e =
        assertThrows(TraceFormatException.class, () -> report(Fixtures.analysis(), missing));
    assertEquals(missing + ": no such trace directory", e.getMessage());
  }
}
