package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.SyntheticTrace;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class AnalyzeCommandTest {
  @TempDir Path tmp;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream savedOut;
  private PrintStream savedErr;

  @BeforeEach
  void capture() {
    savedOut = System.out;
    savedErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(savedOut);
    System.setErr(savedErr);
  }

  private int run(String... args) {
    return new CommandLine(new AnalyzeCommand()).execute(args);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void notATraceIsOneLineOnStderrAndExitCode2() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("empty"));
    assertEquals(2, run(dir.toString()));
    String e = stderr();
    assertTrue(e.startsWith("weft: ") && e.contains("not a Weft trace"), e);
    assertEquals(1, e.lines().count(), e);
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void missingTraceAndCorruptDefinitionsExitWith2() throws Exception {
    assertEquals(2, run(tmp.resolve("nope").toString()));
    Path dir = Files.createDirectories(tmp.resolve("bad"));
    Files.writeString(dir.resolve("defs.wdf"), "definitely not a trace header");
    assertEquals(2, run(dir.toString()));
    String e = stderr();
    assertEquals(2, e.lines().count(), e);
    assertTrue(e.lines().allMatch(l -> l.startsWith("weft: ")), e);
    assertFalse(e.contains("\tat "), e);
  }

  @Test
  void writesJsonToAFileAndTextToStdout() throws Exception {
    Path trace = tmp.resolve("trace");
    SyntheticTrace.write(trace, 3, 5_000, new int[] {1, 1, 1, 1});
    Path json = tmp.resolve("a.json");
    assertEquals(0, run(trace.toString(), "--format", "json", "-o", json.toString()));
    AnalysisResult r = AnalysisJson.read(json);
    assertEquals(3, r.trace().threads());
    assertEquals("", stderr());
    assertEquals(0, run(trace.toString()));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("Properties (inclusive)"), text);
    assertTrue(text.contains("barrier_wait"), text);
  }

  @Test
  void badFormatIsAUsageError() {
    assertEquals(2, run(tmp.toString(), "--format", "xml"));
    assertTrue(stderr().contains("xml"), stderr());
  }
}
