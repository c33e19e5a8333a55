package dev.weft.cli;

import dev.weft.store.RunSources;
import dev.weft.store.StoreCompactor;
import dev.weft.store.StoreWriter;
import dev.weft.store.StoredRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code weft store add DIR TRACE_OR_ANALYSIS…}: appends runs to a store of Parquet files (see
 * STORE.md) that {@code weft query} and {@code weft trend} read.
 */
@Command(
    name = "store",
    mixinStandardHelpOptions = true,
    description = {
      "Keep analyses in a store: a directory of Parquet files (runs, results; see STORE.md).",
      "weft analyze TRACE --store DIR does the same for the trace it analyses."
    },
    subcommands = {StoreCommand.Add.class, StoreCommand.Compact.class})
final class StoreCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      description = {
        "Append runs to the store in DIR (created if absent).",
        "Each input is a trace directory (analysed now: cells by call path and thread) or a"
            + " weft-analysis/1 JSON document from 'weft analyze --format json' (cells by call"
            + " path; thread left empty). Writers running at once never see or spoil each"
            + " other's files."
      })
  static final class Add implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "The store directory.")
    Path dir;

    @Parameters(
        index = "1..*",
        arity = "1..*",
        paramLabel = "TRACE_OR_ANALYSIS",
        description = "Trace directories or analysis JSON files.")
    List<Path> inputs = new ArrayList<>();

    @Option(
        names = "--salvage",
        description = "Analyse what is valid of a damaged trace (the run is stored as partial).")
    boolean salvage;

    @Mixin StoreOptions store;
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      List<StoredRun> runs = new ArrayList<>();
      for (Path input : inputs) {
        runs.add(RunSources.read(input, salvage, store.labels()));
      }
      PrintWriter err = spec.commandLine().getErr();
      try (StoreWriter w = StoreWriter.open()) {
        for (int i = 0; i < runs.size(); i++) {
          w.add(dir, runs.get(i));
          err.println(
              "weft: stored "
                  + inputs.get(i)
                  + " as run "
                  + runs.get(i).runId()
                  + " ("
                  + runs.get(i).cells().size()
                  + " cells)");
        }
      }
      err.flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "compact",
      mixinStandardHelpOptions = true,
      description = {
        "Merge each partition's files into one per table: readers pay per file, so a store of"
            + " many small runs reads several times faster once compacted.",
        "Safe while runs are being added: new files are left alone, and readers never see a row"
            + " twice or miss one (see STORE.md)."
      })
  static final class Compact implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "The store directory.")
    Path dir;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      StoreCompactor.Result r = StoreCompactor.compact(dir);
      PrintWriter err = spec.commandLine().getErr();
      err.println(
          "weft: compacted " + dir + ": " + r.merged() + " files merged into " + r.written());
      err.flush();
      return ExitCodes.OK;
    }
  }
}
