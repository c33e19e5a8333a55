package dev.weft.cli;

import picocli.CommandLine.Option;

/** The shared {@code --format text|json} option of report commands. */
public final class ReportFormatOption {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      converter = ReportFormat.TextOrJson.class,
      completionCandidates = ReportFormat.TextOrJson.class,
      description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
  ReportFormat format = ReportFormat.TEXT;

  ReportFormat format() {
    return format;
  }
}
