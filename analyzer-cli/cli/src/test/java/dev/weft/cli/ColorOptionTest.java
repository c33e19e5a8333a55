package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that prints text takes {@code --color auto|always|never}: escape codes with {@code
 * always}, and with {@code auto} on a terminal; none with {@code never}, with {@code NO_COLOR} set
 * or when stdout is not a terminal; and the colours never change the text itself.
 */
class ColorOptionTest {
  private static final String ESC = "\u001b[";

  @TempDir static Path tmp;
  private static final List<String[]> COMMANDS = new ArrayList<>();

  @BeforeAll
  static void fixtures() throws Exception {
    String trace = TestTraces.wellFormed(tmp.resolve("trace")).toString();
    String store = tmp.resolve("store").toString();
    String doc = tmp.resolve("a.json").toString();
    for (int run = 0; run < 2; run++) {
      Cli.Result r = Cli.run("analyze", trace, "--format", "json", "-o", doc, "--store", store);
      assertEquals(0, r.exit(), r.toString());
    }
    COMMANDS.add(new String[] {"analyze", trace});
    COMMANDS.add(new String[] {"verify", trace});
    COMMANDS.add(new String[] {"print", trace});
    COMMANDS.add(new String[] {"summary", trace});
    COMMANDS.add(new String[] {"diff", doc, doc});
    COMMANDS.add(new String[] {"check", doc, "--baseline", doc});
    COMMANDS.add(new String[] {"query", store, "SELECT count(*) AS runs FROM runs"});
    COMMANDS.add(new String[] {"trend", store, "--property", "execution", "--last", "2"});
    // Lists the JVMs on stderr (or says there is none) and exits 2.
    COMMANDS.add(new String[] {"attach"});
  }

  /** What the command printed: stdout, or stderr for the attach list. */
  private static String text(Cli.Result r, String[] command) {
    assertEquals(command[0].equals("attach") ? 2 : 0, r.exit(), r.toString());
    return command[0].equals("attach") ? r.err() : r.out();
  }

  private static String[] with(String[] command, String... more) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(List.of(more));
    return args.toArray(new String[0]);
  }

  @Test
  void alwaysColoursAndNeverDoesNotOnEveryCommand() {
    for (String[] c : COMMANDS) {
      String coloured = text(Cli.run(with(c, "--color=always")), c);
      String plain = text(Cli.run(with(c, "--color", "never")), c);
      assertTrue(coloured.contains(ESC), c[0] + " --color=always:\n" + coloured);
      assertFalse(plain.contains(ESC), c[0] + " --color never");
      String stripped = coloured.replaceAll("\u001b\\[[0-9;]*m", "");
      if (c[0].equals("attach")) {
        // The JVMs come and go between two runs: the heading line stays.
        assertEquals(plain.split("\n")[1], stripped.split("\n")[1], "attach: same heading");
      } else {
        assertEquals(plain, stripped, c[0] + ": same text");
      }
    }
  }

  @Test
  void autoColoursOnlyOnATerminalWithoutNoColor() {
    for (String[] c : COMMANDS) {
      assertTrue(text(Cli.runOnTerminal(Map.of(), c), c).contains(ESC), c[0] + " on a terminal");
      assertFalse(
          text(Cli.runOnTerminal(Map.of("NO_COLOR", "1"), c), c).contains(ESC),
          c[0] + " with NO_COLOR");
      assertFalse(text(Cli.run(c), c).contains(ESC), c[0] + " not on a terminal");
      assertTrue(
          text(Cli.runOnTerminal(Map.of("NO_COLOR", "1"), with(c, "--color=always")), c)
              .contains(ESC),
          c[0] + ": --color=always overrides NO_COLOR");
    }
  }

  @Test
  void helpFollowsColor() {
    assertTrue(Cli.run("summary", "--help", "--color=always").out().contains(ESC));
    assertFalse(
        Cli.runOnTerminal(Map.of(), "summary", "--help", "--color=never").out().contains(ESC));
  }

  @Test
  void theAnalysisReportHasBoldHeadingsAndRedWorstProperties() {
    String trace = COMMANDS.get(0)[1];
    String report = Cli.run("analyze", trace, "--color=always").out();
    assertTrue(report.contains(ESC + "1mProperties (inclusive)" + ESC + "0m"), report);
    assertTrue(report.contains(ESC + "1mWeft wait-state analysis of "), report);
    assertFalse(
        Cli.run("analyze", trace, "--color=always", "--format", "json").out().contains(ESC));
  }
}
