package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.SyntheticTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalyzeCommandTest {
  private static final String DATA_START = "<script type=\"application/json\" id=\"weft-data\">";

  @TempDir Path tmp;
  Path trace;

  @BeforeEach
  void writeTrace() throws Exception {
    trace = tmp.resolve("trace");
    SyntheticTrace.write(trace, 3, 5_000, new int[] {1, 1, 1, 1});
  }

  /** The JSON data embedded in a report page. */
  private static JsonNode pageData(String html) throws Exception {
    int start = html.indexOf(DATA_START);
    assertTrue(start >= 0, "the page embeds its data");
    start += DATA_START.length();
    return new ObjectMapper().readTree(html.substring(start, html.indexOf("</script>", start)));
  }

  @Test
  void textGoesToStdout() {
    Cli.Result r = Cli.run("analyze", trace.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("Properties (inclusive)"), r.out());
    assertTrue(r.out().contains("barrier_wait"), r.out());
    assertEquals("", r.err());
  }

  private static int longestLine(String text) {
    return text.lines().mapToInt(String::length).max().orElse(0);
  }

  /** COLUMNS sets the text's width; without it, text not on a terminal is 80 wide. */
  @Test
  void textFitsColumnsOrEightyWhenNotATerminal() throws Exception {
    Cli.Result narrow = Cli.run(java.util.Map.of("COLUMNS", "60"), "analyze", trace.toString());
    assertEquals(0, narrow.exit(), narrow.toString());
    assertTrue(longestLine(narrow.out()) <= 60, narrow.out());
    Cli.Result wide = Cli.run(java.util.Map.of("COLUMNS", "200"), "analyze", trace.toString());
    assertTrue(longestLine(wide.out()) > 80, wide.out());
    assertTrue(wide.out().lines().count() < narrow.out().lines().count(), wide.out());
    Cli.Result plain = Cli.run(java.util.Map.of(), "analyze", trace.toString());
    assertTrue(longestLine(plain.out()) <= 80, plain.out());
    Cli.Result bad = Cli.run(java.util.Map.of("COLUMNS", "wide"), "analyze", trace.toString());
    assertEquals(plain.out(), bad.out());
    // A file gets the width it always had, whatever the terminal.
    Path file = tmp.resolve("a.txt");
    Cli.run(java.util.Map.of("COLUMNS", "60"), "analyze", trace.toString(), "-o", file.toString());
    assertEquals(
        Cli.run(java.util.Map.of("COLUMNS", "100"), "analyze", trace.toString()).out(),
        Files.readString(file));
  }

  @Test
  void jsonToAFileIsTheAnalysisDocument() throws Exception {
    Path json = tmp.resolve("a.json");
    Cli.Result r = Cli.run("analyze", trace.toString(), "--format", "json", "-o", json.toString());
    assertEquals(0, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals("", r.err());
    AnalysisResult a = AnalysisJson.read(json);
    assertEquals(3, a.trace().threads());
    // The same through stdout, byte for byte.
    Cli.Result s = Cli.run("analyze", trace.toString(), "--format", "json");
    assertEquals(Files.readString(json), s.out());
  }

  @Test
  void htmlEmbedsTheAnalysisAndTheTimeline() throws Exception {
    Path page = tmp.resolve("page.html");
    Cli.Result r = Cli.run("analyze", trace.toString(), "--format", "html", "-o", page.toString());
    assertEquals(0, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(List.of("weft: wrote " + page + "; open it in a browser"), r.errLines());
    String html = Files.readString(page);
    assertTrue(html.startsWith("<!DOCTYPE html>"), html.substring(0, 40));
    JsonNode data = pageData(html);
    JsonNode expected =
        new ObjectMapper().readTree(Cli.run("analyze", trace.toString(), "--format", "json").out());
    assertEquals(expected, data.get("analysis"), "the analysis JSON, as analyze writes it");
    assertTrue(data.get("timeline").isObject(), "the trace is read again for the timeline");
  }

  @Test
  void htmlWithoutOutputGoesToReportHtmlAndDashIsStdout() throws Exception {
    Path cwd = Path.of("").toAbsolutePath();
    Path report = cwd.resolve(AnalyzeCommand.DEFAULT_HTML);
    boolean existed = Files.exists(report);
    try {
      Cli.Result r = Cli.run("analyze", trace.toString(), "--format", "html");
      assertEquals(0, r.exit(), r.toString());
      assertEquals("", r.out(), "a page is not written to a terminal");
      assertEquals(List.of("weft: wrote report.html; open it in a browser"), r.errLines());
      assertTrue(Files.readString(report).startsWith("<!DOCTYPE html>"));
    } finally {
      if (!existed) {
        Files.deleteIfExists(report);
      }
    }
    Cli.Result r = Cli.run("analyze", trace.toString(), "--format", "html", "-o", "-");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().startsWith("<!DOCTYPE html>"));
    assertEquals("", r.err());
  }

  @Test
  void notATraceIsOneLineAndNoOutputFileIsLeft() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    BadInputTest.assertOneLineError(Cli.run("analyze", empty.toString()), "not a Weft trace");
    Path page = tmp.resolve("p.html");
    BadInputTest.assertOneLineError(
        Cli.run("analyze", empty.toString(), "--format", "html", "-o", page.toString()),
        "not a Weft trace");
    assertFalse(Files.exists(page));
    BadInputTest.assertOneLineError(
        Cli.run("analyze", tmp.resolve("nope").toString()), "no such trace directory");
    Path bad = Files.createDirectories(tmp.resolve("bad"));
    Files.writeString(bad.resolve("defs.wdf"), "definitely not a trace header");
    BadInputTest.assertOneLineError(Cli.run("analyze", bad.toString()), "not a Weft trace");
  }

  @Test
  void badFormatAndUnwritableOutputAreBadInput() {
    Cli.Result r = Cli.run("analyze", trace.toString(), "--format", "xml");
    BadInputTest.assertOneLineError(r, "'xml' is not a format of this command");
    assertTrue(r.err().contains("text, json, html"), r.err());
    Path out = tmp.resolve("no-such-dir").resolve("a.json");
    BadInputTest.assertOneLineError(
        Cli.run("analyze", trace.toString(), "--format", "json", "-o", out.toString()),
        "cannot write " + out);
  }
}
