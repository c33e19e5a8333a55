package dev.weft.cli;

import dev.weft.trace.Trace;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The shared TRACE parameter: a trace directory as written by the agent. */
public final class TraceArgument {
  @Parameters(
      index = "0",
      paramLabel = "TRACE",
      description = "Trace directory (the one the agent printed: it holds defs.wdf and events/).")
  Path dir;

  @Option(
      names = "--salvage",
      description =
          "Read what is valid of a damaged trace (skipping damaged blocks and files) instead of"
              + " failing; the output is then marked partial.")
  boolean salvage;

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
    return salvage ? Trace.openSalvaging(dir) : Trace.open(dir);
  }
}
