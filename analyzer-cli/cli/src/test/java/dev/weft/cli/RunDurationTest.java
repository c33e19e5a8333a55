package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.analysis.SyntheticTrace;
import dev.weft.analysis.TimeText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** summary, analyze (text and JSON) and the HTML report give a run one duration. */
class RunDurationTest {
  private static final String DATA_START = "<script type=\"application/json\" id=\"weft-data\">";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void aSyntheticRunOfThreadsPoolsLocksAndBarriers() throws Exception {
    Path trace = tmp.resolve("synthetic");
    SyntheticTrace.write(trace, 3, 5_000, new int[] {1, 1, 1, 1});
    assertOneDuration(trace);
  }

  @Test
  void aTraceWhoseThreadsAreDefinedBeforeTheirFirstEvent() throws Exception {
    assertOneDuration(TestTraces.sample(tmp.resolve("sample")));
  }

  private void assertOneDuration(Path trace) throws Exception {
    Cli.Result s = Cli.run("summary", trace.toString(), "--format", "json");
    assertEquals(0, s.exit(), s.toString());
    long summary = JSON.readTree(s.out()).get("duration_ns").asLong();
    Cli.Result a = Cli.run("analyze", trace.toString(), "--format", "json");
    assertEquals(0, a.exit(), a.toString());
    JsonNode info = JSON.readTree(a.out()).get("trace");
    long analyze = info.get("duration_ns").asLong();
    long window =
        info.get("window").get("end_ns").asLong() - info.get("window").get("start_ns").asLong();
    Path page = tmp.resolve(trace.getFileName() + ".html");
    Cli.Result h = Cli.run("analyze", trace.toString(), "--format", "html", "-o", page.toString());
    assertEquals(0, h.exit(), h.toString());
    String html = Files.readString(page);
    int start = html.indexOf(DATA_START) + DATA_START.length();
    JsonNode data = JSON.readTree(html.substring(start, html.indexOf("</script>", start)));
    long report = data.get("analysis").get("trace").get("duration_ns").asLong();
    assertTrue(summary > 0, s.out());
    assertEquals(List.of(summary, summary, summary), List.of(analyze, window, report));
    String text = Cli.run("summary", trace.toString()).out();
    String analyzeText = Cli.run("analyze", trace.toString()).out();
    String shown = TimeText.duration(summary);
    assertTrue(text.contains("Duration:") && text.contains(shown), text);
    assertTrue(analyzeText.contains("window " + shown), analyzeText);
  }
}
