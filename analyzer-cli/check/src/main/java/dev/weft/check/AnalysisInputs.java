package dev.weft.check;

import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.Analyzer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where {@code diff} and {@code check} get their analyses: an analysis JSON file is read as it is;
 * a trace directory is analysed first by a {@link TraceAnalyzer}.
 */
public final class AnalysisInputs {

  /** Produces the analysis of a trace directory. */
  @FunctionalInterface
  public interface TraceAnalyzer {
    /**
     * Analyses the trace in {@code traceDir}.
     *
     * @throws CheckInputException or {@link dev.weft.trace.TraceFormatException} for unusable input
     */
    AnalysisFile analyze(Path traceDir) throws Exception;
  }

  /**
   * How trace directories are analysed: the one place the analysis engine is hooked in. The
   * analysis goes through its {@code weft-analysis/1} JSON, so that a trace and the file {@code
   * weft analyze --format json} wrote for it compare equal.
   */
  public static final TraceAnalyzer ANALYZER =
      dir -> AnalysisFile.parse(dir.toString(), AnalysisJson.toJson(Analyzer.analyze(dir)));

  private AnalysisInputs() {}

  /**
   * Loads the analysis of {@code input}: a {@code weft-analysis/1} JSON file, or a trace directory
   * analysed with {@code analyzer}.
   *
   * @throws CheckInputException when {@code input} is neither
   */
  public static AnalysisFile load(Path input, TraceAnalyzer analyzer) {
    if (Files.isDirectory(input)) {
      try {
        return analyzer.analyze(input);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new CheckInputException(
            input + ": cannot analyse: " + CheckInputException.oneLine(e), e);
      }
    }
    if (!Files.exists(input)) {
      throw new CheckInputException(input + ": no such file or directory");
    }
    return AnalysisFile.read(input);
  }
}
