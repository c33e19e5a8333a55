package dev.weft.cli;

import dev.weft.store.QueryOutput;
import dev.weft.store.StoreException;
import dev.weft.store.StoreReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code weft query DIR "SQL"}: SQL over a store's tables with DuckDB embedded. */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = {
      "Run SQL over a store (see STORE.md) with DuckDB embedded, or on Apache Spark.",
      "Tables: runs (one row per run), results (one row per property, call path and thread),"
          + " properties (id, parent, property_path), wait_intervals and events (weft export --format"
          + " parquet). Example: weft query DIR \"SELECT callpath,"
          + " sum(time_ns) FROM results WHERE property_path LIKE '%%/wait/%%' GROUP BY ALL ORDER"
          + " BY 2 DESC LIMIT 10\""
    })
final class QueryCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "DIR",
      description =
          "The store directory; with --engine spark also a URI (hdfs://, s3a://, file://).")
  String dir;

  @Parameters(index = "1", paramLabel = "SQL", description = "The query.")
  String sql;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      completionCandidates = CompletionValues.QueryFormats.class,
      description = "Output format: table, csv or json (default: ${DEFAULT-VALUE}).")
  QueryOutput.Format format = QueryOutput.Format.TABLE;

  @Option(
      names = "--skip-damaged",
      description =
          "Leave out damaged or foreign Parquet files (saying how many) instead of failing.")
  boolean skipDamaged;

  @Option(
      names = "--engine",
      paramLabel = "ENGINE",
      completionCandidates = CompletionValues.QueryEngines.class,
      description =
          "duckdb (default), or spark: the same SQL on Apache Spark, in a JVM of its own (build it"
              + " with 'mvn -Pspark package'; see README, History and fleets).")
  Engine engine = Engine.DUCKDB;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description = "With --engine spark: the Spark master (default: local[*]).")
  String master;

  @Mixin ColorOption color;

  @Spec CommandSpec spec;

  /** The engines weft query runs on. */
  enum Engine {
    DUCKDB,
    SPARK
  }

  @Override
  public Integer call() throws IOException {
    if (engine == Engine.SPARK) {
      return SparkEngine.run(
          SparkEngine.args(master, format.name(), skipDamaged, StoreCommands.forSpark(dir), sql),
          spec.commandLine().getOut(),
          spec.commandLine().getErr());
    }
    if (master != null) {
      throw new BadInputException("--master is for --engine spark");
    }
    try (StoreReader store = StoreReader.open(StoreCommands.local(dir), skipDamaged)) {
      StoreCommands.warnSkipped(store, spec.commandLine().getErr());
      String out;
      try (Statement st = store.connection().createStatement();
          ResultSet rs = st.executeQuery(sql)) {
        out = QueryOutput.render(rs, format);
      } catch (SQLException e) {
        throw new StoreException(StoreCommands.oneLine(e));
      }
      PrintWriter w = spec.commandLine().getOut();
      w.print(format == QueryOutput.Format.TABLE ? color.style().tableHeader(out) : out);
      w.flush();
    }
    return ExitCodes.OK;
  }
}
