package dev.weft.cli;

import picocli.CommandLine.Option;

/** The shared {@code --format text|json} option of report commands. */
public final class ReportFormatOption {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
  ReportFormat format = ReportFormat.TEXT;

  ReportFormat format() {
    return format;
  }
}
