package dev.weft.cli;

import dev.weft.trace.Trace;
import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/** The shared TRACE parameter: a trace directory as written by the agent. */
public final class TraceArgument {
  @Parameters(
      index = "0",
      paramLabel = "TRACE",
      description = "Trace directory (the one the agent printed: it holds defs.wdf and events/).")
  Path dir;

  /** The directory as given. */
  Path dir() {
    return dir;
  }

  /**
   * Opens the trace.
   *
   * @throws dev.weft.trace.TraceFormatException with a one-line message when it is not a readable
   *     trace
   */
  Trace open() {
    return Trace.open(dir);
  }
}
