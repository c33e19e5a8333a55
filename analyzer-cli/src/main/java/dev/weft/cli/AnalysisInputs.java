package dev.weft.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where {@code diff} and {@code check} get their analyses: an analysis JSON file is read as it is;
 * a trace directory is analysed first by a {@link TraceAnalyzer}.
 */
final class AnalysisInputs {

  /** Produces the analysis of a trace directory. */
  @FunctionalInterface
  interface TraceAnalyzer {
    /**
     * Analyses the trace in {@code traceDir}.
     *
     * @throws BadInputException or {@link dev.weft.trace.TraceFormatException} for unusable input
     */
    AnalysisFile analyze(Path traceDir) throws Exception;
  }

  /**
   * How trace directories are analysed. This is the one place the analysis engine is hooked in:
   * replace the body with a call to {@code dev.weft.analysis.Analyzer} that returns the analysis,
   * e.g. by writing its {@code weft-analysis/1} JSON to a string and passing it to {@link
   * AnalysisFile#parse}.
   */
  static final TraceAnalyzer ANALYZER =
      dir -> {
        // ANALYZER HOOK: until dev.weft.analysis lands, traces must be analysed separately.
        throw new BadInputException(
            dir
                + " is a trace: analyze it first (weft analyze "
                + dir
                + " --format json -o analysis.json) and pass the analysis file");
      };

  private AnalysisInputs() {}

  /**
   * Loads the analysis of {@code input}: a {@code weft-analysis/1} JSON file, or a trace directory
   * analysed with {@code analyzer}.
   *
   * @throws BadInputException when {@code input} is neither
   */
  static AnalysisFile load(Path input, TraceAnalyzer analyzer) {
    if (Files.isDirectory(input)) {
      try {
        return analyzer.analyze(input);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new BadInputException(input + ": cannot analyse: " + ErrorReporting.message(e), e);
      }
    }
    if (!Files.exists(input)) {
      throw new BadInputException(input + ": no such file or directory");
    }
    return AnalysisFile.read(input);
  }
}
