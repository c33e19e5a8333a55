package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text for people fits the terminal: {@code COLUMNS} when set, 80 when stdout is not a terminal;
 * only a single word longer than a line (a long path) may stick out.
 */
class TextWidthTest {
  @TempDir static Path tmp;
  private static String trace;
  private static String doc;

  @BeforeAll
  static void fixtures() throws Exception {
    trace = TestTraces.wellFormed(tmp.resolve("trace")).toString();
    doc = tmp.resolve("a.json").toString();
    Cli.Result r = Cli.run("analyze", trace, "--format", "json", "-o", doc);
    assertEquals(0, r.exit(), r.toString());
  }

  /** Every line fits {@code width}, or is one unbreakable word after its indentation or label. */
  private static void assertFits(String text, int width, String what) {
    for (String line : text.split("\n")) {
      if (line.length() > width) {
        String rest = line.strip().replaceFirst("^[A-Za-z ]+: +", "");
        assertTrue(!rest.contains(" "), what + " at " + width + " columns:\n" + line);
      }
    }
  }

  @Test
  void summaryAndDiffFitTheColumns() {
    for (int width : new int[] {60, 80, 120}) {
      Map<String, String> env = Map.of("COLUMNS", Integer.toString(width));
      Cli.Result summary = Cli.run(env, "summary", trace);
      assertEquals(0, summary.exit(), summary.toString());
      assertFits(summary.out(), width, "summary");
      Cli.Result diff = Cli.run(env, "diff", doc, doc);
      assertEquals(0, diff.exit(), diff.toString());
      assertFits(diff.out(), width, "diff");
    }
  }

  @Test
  void helpFitsTheColumns() {
    for (int width : new int[] {60, 120}) {
      Cli.Result r = Cli.run(Map.of("COLUMNS", Integer.toString(width)), "analyze", "--help");
      assertEquals(0, r.exit(), r.toString());
      int longest = r.outLines().stream().mapToInt(String::length).max().orElse(0);
      assertTrue(longest <= width && longest > width - 15, width + ": longest line " + longest);
    }
  }

  @Test
  void everyCommandsHelpFitsAndFormatsCleanly() {
    java.io.PrintStream stderr = System.err;
    java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(warnings, true));
    try {
      for (String command :
          WeftCommand.newCommandLine(new WeftCommand()).getSubcommands().keySet()) {
        Cli.Result r = Cli.run(Map.of("COLUMNS", "60"), command, "--help");
        assertEquals(0, r.exit(), command + ": " + r);
        assertEquals("", r.err(), command);
        assertFits(r.out(), 60, command + " --help");
      }
    } finally {
      System.setErr(stderr);
    }
    // picocli reports a description it cannot format (e.g. an unescaped %) on System.err.
    assertEquals("", warnings.toString(), "picocli warnings");
  }

  @Test
  void eightyColumnsWhenNotATerminal() {
    assertFits(Cli.run("summary", trace).out(), 80, "summary");
    assertFits(Cli.run("diff", doc, doc).out(), 80, "diff");
  }

  @Test
  void aFileGetsTheFullLayout() throws Exception {
    Path out = tmp.resolve("diff.txt");
    Cli.Result r = Cli.run(Map.of("COLUMNS", "60"), "diff", doc, doc, "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    String header =
        java.nio.file.Files.readAllLines(out).stream()
            .filter(l -> l.startsWith("Property"))
            .findFirst()
            .orElseThrow();
    assertTrue(header.startsWith("Property" + " ".repeat(22) + " "), header);
  }
}
