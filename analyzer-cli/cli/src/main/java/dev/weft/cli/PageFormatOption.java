package dev.weft.cli;

import picocli.CommandLine.Option;

/**
 * The shared {@code --format text|json|html} option of the commands whose report also exists as an
 * HTML page ({@code analyze}, {@code diff}).
 */
public final class PageFormatOption {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      converter = ReportFormat.TextJsonOrHtml.class,
      completionCandidates = ReportFormat.TextJsonOrHtml.class,
      description =
          "Output format: text, json or html (default: ${DEFAULT-VALUE}). html is a"
              + " self-contained page for a browser, written to -o FILE (default: report.html for"
              + " analyze, diff.html for diff; -o - for standard output).")
  ReportFormat format = ReportFormat.TEXT;

  ReportFormat format() {
    return format;
  }
}
