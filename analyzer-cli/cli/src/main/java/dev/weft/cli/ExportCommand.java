package dev.weft.cli;

import dev.weft.trace.Trace;
import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code weft export TRACE --format chrome -o FILE.json}: the trace as Chrome Trace Event JSON, to
 * open in Perfetto UI (ui.perfetto.dev) or chrome://tracing.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
      "Export a trace for a timeline viewer (Perfetto UI, chrome://tracing).",
      "chrome: Chrome Trace Event JSON, which https://ui.perfetto.dev and chrome://tracing open:"
          + " one track per thread, grouped by pool; slices for regions, tasks, lock waits and"
          + " holds, barrier, join and other waits; arrows from task creation to task start and"
          + " from lock release to the next acquisition."
    })
final class ExportCommand implements Callable<Integer> {

  /** Export formats. */
  enum Format {
    CHROME;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  @Mixin TraceArgument trace;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "Export format: chrome (default: ${DEFAULT-VALUE}).")
  Format format = Format.CHROME;

  @Mixin OutputFile output;

  @Option(
      names = "--lock-holds",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "Show lock holds (acquired to released) as slices (default: on).")
  boolean lockHolds = true;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    try (Trace t = trace.open()) {
      ChromeTraceExporter exporter = new ChromeTraceExporter(t, lockHolds);
      boolean done = false;
      try (Writer w = output.open()) {
        exporter.write(w);
        t.requireIntact(); // no file from a damaged trace
        done = true;
      } finally {
        if (!done) {
          output.discard();
        }
      }
      TraceProblems.report(t, spec.commandLine().getErr());
      if (!output.isStdout()) {
        spec.commandLine()
            .getErr()
            .println(
                "weft: wrote "
                    + output.file()
                    + " ("
                    + exporter.slices()
                    + " slices, "
                    + exporter.flows()
                    + " flows); open it in https://ui.perfetto.dev");
      }
    }
    return ExitCodes.OK;
  }
}
