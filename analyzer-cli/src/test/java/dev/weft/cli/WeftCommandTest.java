package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WeftCommandTest {
  @Test
  void noSubcommandPrintsUsage() {
    Cli.Result r = Cli.run();
    assertEquals(0, r.exit());
    assertTrue(r.out().startsWith("Usage: weft"), r.out());
    for (String sub :
        new String[] {"print", "summary", "verify", "run", "export", "diff", "check"}) {
      assertTrue(r.out().contains("  " + sub + " "), "usage lists " + sub + ":\n" + r.out());
    }
    assertTrue(r.out().contains("Exit codes:"), r.out());
  }

  @Test
  void everySubcommandHasHelp() {
    for (String sub : WeftCommand.newCommandLine(new WeftCommand()).getSubcommands().keySet()) {
      if (sub.equals("help")) {
        continue;
      }
      Cli.Result r = Cli.run(sub, "--help");
      assertEquals(0, r.exit(), sub + ": " + r);
      assertTrue(r.out().startsWith("Usage: weft " + sub), r.out());
    }
  }

  @Test
  void versionNamesWeftAndTheJvm() {
    Cli.Result r = Cli.run("--version");
    assertEquals(0, r.exit());
    assertTrue(r.out().startsWith("weft "), r.out());
    assertTrue(r.out().contains(System.getProperty("java.version")), r.out());
  }

  @Test
  void completionScriptCoversTheSubcommands() {
    Cli.Result r = Cli.run("completion");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().startsWith("#!/usr/bin/env bash"), r.out().substring(0, 80));
    assertTrue(r.out().contains("complete -F _complete_weft"), "registers the function");
    for (String sub : new String[] {"print", "summary", "export", "diff", "check", "run"}) {
      assertTrue(r.out().contains(sub), sub);
    }
  }
}
