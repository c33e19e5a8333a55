package dev.weft.cli;

import dev.weft.trace.Trace;
import dev.weft.trace.TraceVerifier;
import dev.weft.trace.TraceVerifier.VerifyReport;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code weft verify TRACE}: integrity check with {@link TraceVerifier}: the definitions, every
 * event stream, and each thread's events properly paired and nested (FORMAT.md). Prints {@code OK:
 * N events, K threads} (with warnings for a trace that was cut off, which is still usable), or each
 * error on a line and exits 2.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
      "Check a trace's integrity.",
      "Prints 'OK: N events, K threads' and exits 0, with warnings for a trace that was cut off"
          + " (still usable). A damaged trace (bytes or files that are not what was written) is"
          + " one line naming the file and byte offset, exit 2. A trace that is intact but not"
          + " well formed (events that do not pair up) prints each error (weft: ...), exit 1."
    })
final class VerifyCommand implements Callable<Integer> {
  @Mixin TraceArgument trace;
  @Mixin ColorOption color;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    VerifyReport report;
    int threads;
    try (Trace t = trace.open()) {
      report = TraceVerifier.verify(t);
      threads = t.definitions().threads().size();
      if (report.integrity().status() == Trace.Status.PARTIAL) {
        // --salvage: list every damaged place, then fail like any damaged trace.
        PrintWriter err = spec.commandLine().getErr();
        for (String d : report.integrity().damage()) {
          err.println("weft: warning: damaged: " + d);
        }
        err.flush();
        throw new BadInputException(
            t.directory() + ": damaged trace: " + report.integrity().summary());
      }
      t.requireIntact();
    }
    PrintWriter err = spec.commandLine().getErr();
    for (String w : report.warnings()) {
      err.println("weft: warning: " + w);
    }
    for (String e : report.errors()) {
      err.println("weft: " + e);
    }
    err.flush();
    if (!report.ok()) {
      return ExitCodes.CHECK_FAILED;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        color.style().green("OK")
            + ": "
            + report.events()
            + " events, "
            + threads
            + " threads"
            + (report.dropped() > 0 ? ", " + report.dropped() + " dropped" : "")
            + (report.cut() ? " (cut: the recording ended abruptly)" : ""));
    out.flush();
    return ExitCodes.OK;
  }
}
