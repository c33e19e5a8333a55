package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

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
  void mainRegistersOnlyTheSubcommandItRuns() {
    assertEquals(
        Set.of("attach"),
        WeftCommand.newCommandLine(new WeftCommand(), new String[] {"attach", "123"})
            .getSubcommands()
            .keySet());
    // Commands that list the others, options and unknown names get every subcommand.
    int all = WeftCommand.newCommandLine(new WeftCommand()).getSubcommands().size();
    for (String first : new String[] {"help", "completion", "--help", "atach"}) {
      assertEquals(
          all,
          WeftCommand.newCommandLine(new WeftCommand(), new String[] {first})
              .getSubcommands()
              .size(),
          first);
    }
    assertEquals(
        all, WeftCommand.newCommandLine(new WeftCommand(), new String[0]).getSubcommands().size());
  }

  @Test
  void aSubcommandAloneBehavesAsWithTheOthers() {
    for (String[] args :
        new String[][] {
          {"attach", "--help"}, {"run", "--frobnicate"}, {"detach"}, {"print", "/no/such/trace"}
        }) {
      StringWriter alone = new StringWriter();
      StringWriter full = new StringWriter();
      CommandLine one = WeftCommand.newCommandLine(new WeftCommand(), args);
      one.setOut(new PrintWriter(alone, true));
      one.setErr(new PrintWriter(alone, true));
      CommandLine every = WeftCommand.newCommandLine(new WeftCommand());
      every.setOut(new PrintWriter(full, true));
      every.setErr(new PrintWriter(full, true));
      assertEquals(every.execute(args), one.execute(args), String.join(" ", args));
      assertEquals(full.toString(), alone.toString(), String.join(" ", args));
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
    // Values complete too: event kinds for print --kind, enum values for --format and --color.
    assertTrue(r.out().contains("\"lock_request\" \"lock_acquired\""), "print --kind values");
    assertTrue(r.out().contains("(\"text\" \"json\" \"html\")"), "analyze --format values");
    assertTrue(r.out().contains("(\"auto\" \"always\" \"never\")"), "--color values");
    // Property ids for trend --property.
    assertTrue(
        r.out().contains("\"lock_contention\" \"monitor_contention\""), "trend --property values");
  }
}
