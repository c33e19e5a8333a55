package dev.weft.cli;

import dev.weft.trace.Trace;
import java.io.PrintWriter;

/** How commands that read a whole trace report what was wrong with it once they have read it. */
final class TraceProblems {
  private TraceProblems() {}

  /**
   * Prints the trace's warnings and every cut stream as {@code weft: warning: ...} lines, then
   * fails with one line naming the file and byte offset if reading found damage (the same verdict
   * every command gives: {@link Trace#requireIntact()}); a salvaged trace gets a warning that the
   * output is partial.
   *
   * @throws dev.weft.trace.TraceFormatException naming the first damage
   */
  static void report(Trace trace, PrintWriter err) {
    Trace.Integrity integrity = trace.requireIntact();
    for (String w : trace.warnings()) {
      err.println("weft: warning: " + w);
    }
    if (integrity.status() == Trace.Status.CUT) {
      err.println("weft: warning: " + integrity.summary());
    }
    reportPartial(integrity, err);
    err.flush();
  }

  /** With salvage: says on stderr that the output covers only the valid part of the trace. */
  static void reportPartial(Trace.Integrity integrity, PrintWriter err) {
    if (integrity.status() == Trace.Status.PARTIAL) {
      err.println("weft: warning: " + integrity.summary() + "; the output covers the valid part");
      err.flush();
    }
  }
}
