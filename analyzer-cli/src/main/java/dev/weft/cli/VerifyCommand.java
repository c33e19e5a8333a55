package dev.weft.cli;

import dev.weft.trace.StreamCursor;
import dev.weft.trace.Trace;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code weft verify TRACE}: integrity check. Prints {@code OK: N events, K threads} (with warnings
 * for a trace that was cut off, which is still usable), or each error on a line and exits 2.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
      "Check a trace's integrity.",
      "Prints 'OK: N events, K threads' and exits 0, with warnings for a trace that was cut off"
          + " (still usable); or prints each error on its own line (weft: ...) and exits 2."
    })
final class VerifyCommand implements Callable<Integer> {
  @Mixin TraceArgument trace;
  @Spec CommandSpec spec;

  /** What verification found. */
  record Report(
      List<String> errors,
      List<String> warnings,
      long events,
      int threads,
      long dropped,
      boolean cut) {
    boolean ok() {
      return errors.isEmpty();
    }
  }

  @Override
  public Integer call() {
    Report report;
    try (Trace t = trace.open()) {
      report = verify(t);
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
      return ExitCodes.BAD_INPUT;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "OK: "
            + report.events()
            + " events, "
            + report.threads()
            + " threads"
            + (report.dropped() > 0 ? ", " + report.dropped() + " dropped" : "")
            + (report.cut() ? " (cut: the recording ended abruptly)" : ""));
    out.flush();
    return ExitCodes.OK;
  }

  /** Reads every stream to its end and collects what is wrong. */
  private static Report verify(Trace t) {
    TraceStats stats = TraceStats.of(t);
    List<String> errors = new ArrayList<>();
    List<String> warnings = new ArrayList<>(t.warnings());
    for (StreamCursor s : t.streams()) {
      if (s.state() == StreamCursor.State.CORRUPT) {
        errors.add(s.problem());
      } else if (s.state() == StreamCursor.State.CUT) {
        warnings.add(s.problem());
      }
    }
    if (stats.dropped > 0) {
      warnings.add(stats.dropped + " events were dropped while recording");
    }
    return new Report(
        errors,
        warnings,
        stats.events,
        t.definitions().threads().size(),
        stats.dropped,
        stats.status != TraceStats.Status.COMPLETE);
  }
}
