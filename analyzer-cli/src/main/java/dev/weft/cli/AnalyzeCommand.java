package dev.weft.cli;

import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.analysis.TextReport;
import dev.weft.trace.TraceFormatException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.DoubleConsumer;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code weft analyze TRACE [--format text|json] [-o FILE]}: the wait-state analysis. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Wait-state analysis of a trace: idle threads, limited parallelism, thread management,",
      "join, barrier, lock, spin and condition waits, pool queue wait and work imbalance,",
      "by call path and thread (see PROPERTIES.md)."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:analysed", "2:bad usage, or TRACE is not a readable Weft trace"})
public final class AnalyzeCommand implements Callable<Integer> {
  /** Output formats. */
  public enum Format {
    text,
    json
  }

  private static final int OK = 0;
  private static final int BAD_INPUT = 2;

  /** Traces with more event bytes than this get a progress bar on an interactive terminal. */
  private static final long PROGRESS_BYTES = 64L << 20;

  @Parameters(index = "0", paramLabel = "TRACE", description = "The trace directory.")
  Path trace;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "text (default) or json (format weft-analysis/1).")
  Format format = Format.text;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write the report to FILE instead of standard output.")
  Path output;

  @Override
  public Integer call() {
    AnalysisResult result;
    Progress progress = Progress.forTrace(trace, PROGRESS_BYTES);
    try {
      result = Analyzer.analyze(trace, Analyzer.Options.defaults().withProgress(progress));
    } catch (TraceFormatException e) {
      return fail(e.getMessage());
    } catch (UncheckedIOException e) {
      return fail(trace + ": cannot read: " + e.getCause().getMessage());
    } catch (RuntimeException e) {
      return fail(trace + ": analysis failed: " + e);
    } finally {
      if (progress != null) {
        progress.clear();
      }
    }
    try {
      if (output == null) {
        write(result, System.out);
        System.out.flush();
      } else {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(output))) {
          write(result, out);
        }
      }
    } catch (IOException e) {
      return fail(
          (output != null ? output : "standard output") + ": cannot write: " + e.getMessage());
    }
    return OK;
  }

  private void write(AnalysisResult result, OutputStream out) throws IOException {
    if (format == Format.json) {
      AnalysisJson.write(result, out);
    } else {
      out.write(TextReport.render(result).getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
  }

  private static int fail(String message) {
    System.err.println("weft: " + message);
    return BAD_INPUT;
  }

  /** A one-line progress bar on stderr, only on an interactive terminal and for large traces. */
  private static final class Progress implements DoubleConsumer {
    private final PrintStream err = System.err;
    private int shown = -1;

    static Progress forTrace(Path trace, long minBytes) {
      if (System.console() == null) {
        return null;
      }
      long bytes = 0;
      try (Stream<Path> files = Files.list(trace.resolve("events"))) {
        for (Path p : (Iterable<Path>) files::iterator) {
          bytes += Files.size(p);
        }
      } catch (IOException | UncheckedIOException e) {
        return null;
      }
      return bytes >= minBytes ? new Progress() : null;
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
