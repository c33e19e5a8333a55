package dev.weft.store;

import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.trace.Definitions;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Runs to store, from a trace directory (analysed here) or an analysis JSON document. */
public final class RunSources {
  private RunSources() {}

  /**
   * The run of {@code input}: a trace directory is analysed with its cells by thread; an analysis
   * JSON document gives its call-path sums (threads null), and the trace it names, when it is still
   * there, gives the host, JVM, main class and start time.
   *
   * @throws TraceFormatException when a trace directory is not a readable trace
   * @throws IOException when a file is not an analysis document
   */
  public static StoredRun read(Path input, boolean salvage, Map<String, String> labels)
      throws IOException {
    if (Files.isDirectory(input)) {
      StoredRun.CellCollector cells = new StoredRun.CellCollector();
      AnalysisResult result =
          Analyzer.analyze(input, cells.options(Analyzer.Options.defaults().withSalvage(salvage)));
      return StoredRun.of(result, cells, definitions(input), labels);
    }
    AnalysisResult result = AnalysisJson.read(input);
    Path trace = result.trace() == null ? null : Path.of(result.trace().path());
    return StoredRun.of(result, null, trace == null ? null : definitions(trace), labels);
  }

  /** The definitions of the trace in {@code dir}, or null when it cannot be read. */
  public static Definitions definitions(Path dir) {
    if (!Files.isDirectory(dir)) {
      return null;
    }
    try (Trace t = Trace.openSalvaging(dir)) {
      return t.definitions();
    } catch (TraceFormatException | java.io.UncheckedIOException e) {
      return null;
    }
  }
}
