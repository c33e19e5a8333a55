package dev.weft.cli;

import dev.weft.analysis.PropertyRegistry;
import dev.weft.store.StoreException;
import dev.weft.store.StoreReader;
import dev.weft.store.Trend;
import dev.weft.store.TrendLines;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code weft trend DIR --property ID [--last N]}: which call paths' time grew over the runs. */
@Command(
    name = "trend",
    mixinStandardHelpOptions = true,
    description = {
      "Call paths by how much a property (its subtree included) grew over the last runs of one"
          + " program in a store.",
      "change is the least-squares rise from the oldest run to the newest; tau and p are Kendall's"
          + " tau and the Mann-Kendall test of a monotonic trend; 'grew' marks a rise with p < 0.05."
    })
final class TrendCommand implements Callable<Integer> {
  @picocli.CommandLine.Parameters(
      index = "0",
      paramLabel = "DIR",
      description = "The store; with --engine spark also a URI (hdfs://, s3a://, file://).")
  String dir;

  @Option(
      names = "--property",
      required = true,
      paramLabel = "ID",
      completionCandidates = PropertyIds.class,
      description = "The property (see PROPERTIES.md), e.g. lock_contention or wait.")
  String property;

  @Option(
      names = "--last",
      paramLabel = "N",
      description = "How many of the program's latest runs (default: ${DEFAULT-VALUE}).")
  int last = 20;

  @Option(
      names = "--main-class",
      paramLabel = "CLASS",
      description = "The program whose runs to compare (default: that of the latest run).")
  String mainClass;

  @Option(
      names = "--top",
      paramLabel = "N",
      description = "Call paths shown (default: ${DEFAULT-VALUE}).")
  int top = 10;

  @Option(
      names = "--skip-damaged",
      description =
          "Leave out damaged or foreign Parquet files (saying how many) instead of failing.")
  boolean skipDamaged;

  @Option(
      names = "--engine",
      paramLabel = "ENGINE",
      description =
          "duckdb (default), or spark: the same queries on Apache Spark (see weft query --help).")
  QueryCommand.Engine engine = QueryCommand.Engine.DUCKDB;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description = "With --engine spark: the Spark master (default: local[*]).")
  String master;

  @Mixin ColorOption color;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (PropertyRegistry.info(property) == null) {
      throw new BadInputException(
          "unknown property '" + property + "' (see PROPERTIES.md or 'weft analyze --help')");
    }
    if (last < 2) {
      throw new BadInputException("--last must be at least 2 (a trend needs two runs)");
    }
    Trend.Result t;
    if (engine == QueryCommand.Engine.SPARK) {
      StringWriter answer = new StringWriter();
      int code =
          SparkEngine.run(
              SparkEngine.trendArgs(
                  master, skipDamaged, StoreCommands.forSpark(dir), property, last, mainClass),
              new PrintWriter(answer),
              spec.commandLine().getErr());
      if (code != ExitCodes.OK) {
        return code;
      }
      t = TrendLines.read(answer.toString());
    } else {
      if (master != null) {
        throw new BadInputException("--master is for --engine spark");
      }
      try (StoreReader store = StoreReader.open(StoreCommands.local(dir), skipDamaged)) {
        StoreCommands.warnSkipped(store, spec.commandLine().getErr());
        t = Trend.of(store.connection(), property, last, mainClass);
      } catch (SQLException e) {
        throw new StoreException(StoreCommands.oneLine(e));
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    Style style = color.style();
    out.println(
        style.bold(property)
            + " (subtree) over the last "
            + t.runIds().size()
            + " runs of "
            + (t.mainClass() == null ? "(unknown main class)" : t.mainClass()));
    if (t.rows().isEmpty()) {
      out.println("no time in this property at any call path");
      out.flush();
      return ExitCodes.OK;
    }
    out.println(
        style.bold(
            String.format(
                Locale.ROOT,
                "%10s %10s %10s %6s %7s %-5s  %s",
                "change",
                "oldest",
                "newest",
                "tau",
                "p",
                "",
                "call path")));
    int shown = 0;
    for (Trend.Row r : t.rows()) {
      if (shown++ == top) {
        out.println("(" + (t.rows().size() - top) + " more call paths)");
        break;
      }
      long[] v = r.values();
      out.printf(
          Locale.ROOT,
          "%10s %10s %10s %6.2f %7.4f %s  %s%n",
          (r.changeNs() >= 0 ? "+" : "-") + Durations.format(Math.round(Math.abs(r.changeNs()))),
          Durations.format(v[0]),
          Durations.format(v[v.length - 1]),
          r.tau(),
          r.p(),
          r.grew() ? style.red("grew") + " " : "     ",
          r.callpath().isEmpty() ? "(outside any recorded region)" : r.callpath());
    }
    out.flush();
    return ExitCodes.OK;
  }
}
