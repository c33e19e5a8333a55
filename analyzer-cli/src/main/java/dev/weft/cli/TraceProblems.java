package dev.weft.cli;

import dev.weft.trace.StreamCursor;
import dev.weft.trace.Trace;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** How commands that read a whole trace report what was wrong with it once they have read it. */
final class TraceProblems {
  private TraceProblems() {}

  /**
   * Prints the trace's warnings and every cut stream as {@code weft: warning: ...} lines, then
   * fails with one line if a stream was corrupt.
   *
   * @throws BadInputException naming the first corrupt stream
   */
  static void report(Trace trace, PrintWriter err) {
    List<String> corrupt = new ArrayList<>();
    for (String w : trace.warnings()) {
      err.println("weft: warning: " + w);
    }
    for (StreamCursor s : trace.streams()) {
      if (s.state() == StreamCursor.State.CUT) {
        err.println("weft: warning: " + s.problem());
      } else if (s.state() == StreamCursor.State.CORRUPT) {
        corrupt.add(s.problem());
      }
    }
    err.flush();
    if (!corrupt.isEmpty()) {
      String more =
          corrupt.size() > 1 ? " (and " + (corrupt.size() - 1) + " more corrupt streams)" : "";
      throw new BadInputException(trace.directory() + ": corrupt trace: " + corrupt.get(0) + more);
    }
  }
}
