package dev.weft.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.report.HtmlReport;
import dev.weft.report.TextReport;
import dev.weft.report.TimelineLimits;
import dev.weft.store.History;
import dev.weft.store.RunSources;
import dev.weft.store.StoreWriter;
import dev.weft.store.StoredRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.DoubleConsumer;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code weft analyze TRACE [--format text|json|html] [-o FILE]}: the wait-state analysis, as text,
 * as the {@code weft-analysis/1} JSON that {@code diff} and {@code check} read, or as an HTML page
 * with a timeline (REPORT.md).
 */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Wait-state analysis of a trace, as text, JSON or an HTML page.",
      "Idle threads, limited parallelism, thread management, join, barrier, lock, spin and"
          + " condition waits, pool queue wait and work imbalance, by call path and thread (see"
          + " PROPERTIES.md). --format json writes the weft-analysis/1 document that weft diff"
          + " and weft check read; --format html writes a page with the property tree, call"
          + " paths, threads and a timeline, to report.html unless -o says otherwise."
    })
final class AnalyzeCommand implements Callable<Integer> {
  /** Where {@code --format html} goes without {@code -o}: a page does not belong on a terminal. */
  static final Path DEFAULT_HTML = Path.of("report.html");

  /** Traces with more event bytes than this get a progress bar on an interactive terminal. */
  private static final long PROGRESS_BYTES = 64L << 20;

  @Mixin TraceArgument trace;
  @Mixin PageFormatOption format;
  @Mixin OutputFile output;

  @Option(
      names = "--store",
      paramLabel = "DIR",
      description =
          "Also append the run to the store in DIR (created if absent; see STORE.md) for weft"
              + " query and weft trend.")
  Path storeDir;

  @Option(
      names = "--history",
      paramLabel = "N",
      description =
          "With --store and --format html: the page shows the top properties over the"
              + " program's last N runs in the store (default: ${DEFAULT-VALUE}).")
  int history = History.DEFAULT_RUNS;

  @Mixin StoreOptions store;
  @Mixin ColorOption color;
  @Spec CommandSpec spec;
  private StoredRun.CellCollector cells;

  @Override
  public Integer call() throws IOException {
    ReportFormat f = format.format();
    if (f == ReportFormat.HTML) {
      output.defaultTo(DEFAULT_HTML);
    }
    if (storeDir == null && !store.labels().isEmpty()) {
      throw new BadInputException("--label goes with --store DIR");
    }
    if (history < 1) {
      throw new BadInputException("--history must be at least 1");
    }
    AnalysisResult result = analyze();
    JsonNode runs = null;
    if (storeDir != null) {
      StoredRun run =
          StoredRun.of(result, cells, RunSources.definitions(trace.dir()), store.labels());
      StoreWriter.append(storeDir, run);
      spec.commandLine().getErr().println("weft: stored run " + run.runId() + " in " + storeDir);
      if (f == ReportFormat.HTML) {
        runs = StoreHistory.forReport(storeDir, run, result, history, spec.commandLine().getErr());
      }
    }
    if (result.status() == AnalysisResult.Status.PARTIAL) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("weft: warning: partial: " + result.statusDetail());
      err.flush();
    }
    if (f == ReportFormat.HTML) {
      JsonNode json = new ObjectMapper().readTree(AnalysisJson.toJson(result));
      JsonNode shown = runs;
      output.write(
          out -> HtmlReport.write(json, trace.dir(), out, TimelineLimits.defaults(), shown));
      if (!output.isStdout()) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("weft: wrote " + output.file() + "; open it in a browser");
        err.flush();
      }
      return ExitCodes.OK;
    }
    boolean done = false;
    try (Writer w = output.open()) {
      w.write(
          f == ReportFormat.JSON
              ? AnalysisJson.toJson(result)
              : output.isStdout()
                  ? TextReportColors.apply(
                      TextReport.render(result, Terminal.columns(WeftCommand.root(spec))),
                      color.style())
                  : TextReport.render(result, TextReport.DEFAULT_WIDTH));
      done = true;
    } finally {
      if (!done) {
        output.discard();
      }
    }
    return ExitCodes.OK;
  }

  /** Runs the analyzer, with a progress bar on stderr for a large trace on a terminal. */
  private AnalysisResult analyze() {
    Progress progress = null;
    if (WeftCommand.root(spec).stdoutIsTerminal() && eventBytes(trace.dir()) >= PROGRESS_BYTES) {
      progress = new Progress(spec.commandLine().getErr());
    }
    Analyzer.Options options = Analyzer.Options.defaults().withSalvage(trace.salvage);
    if (progress != null) {
      options = options.withProgress(progress);
    }
    if (storeDir != null) {
      cells = new StoredRun.CellCollector();
      options = cells.options(options);
    }
    try {
      return Analyzer.analyze(trace.dir(), options);
    } finally {
      if (progress != null) {
        progress.clear();
      }
    }
  }

  /** The size of the trace's event files; 0 when they cannot be listed (the analyzer says why). */
  private static long eventBytes(Path trace) {
    long bytes = 0;
    try (Stream<Path> files = Files.list(trace.resolve("events"))) {
      for (Path p : (Iterable<Path>) files::iterator) {
        bytes += Files.size(p);
      }
    } catch (IOException | UncheckedIOException e) {
      return 0;
    }
    return bytes;
  }

  /** A one-line progress bar, redrawn in place. */
  private static final class Progress implements DoubleConsumer {
    private final PrintWriter err;
    private int shown = -1;

    Progress(PrintWriter err) {
      this.err = err;
    }

    @Override
    public void accept(double fraction) {
      int percent = (int) Math.round(Math.max(0, Math.min(1, fraction)) * 100);
      if (percent == shown) {
        return;
      }
      shown = percent;
      int filled = percent * 30 / 100;
      err.print(
          "\rweft: analysing ["
              + "#".repeat(filled)
              + ".".repeat(30 - filled)
              + "] "
              + percent
              + "%");
      err.flush();
    }

    void clear() {
      if (shown >= 0) {
        err.print("\r" + " ".repeat(50) + "\r");
        err.flush();
      }
    }
  }
}
