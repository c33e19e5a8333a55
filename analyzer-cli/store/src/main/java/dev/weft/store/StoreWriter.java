package dev.weft.store;

import dev.weft.store.StoredRun.Cell;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Appends runs to a store: each run becomes one Parquet file per table, written under a hidden
 * temporary name in its final directory and renamed into place, so that readers never see half a
 * file and writers never share one. The {@code results} file is renamed before the {@code runs}
 * file: a run a reader sees has all its cells. A partition that then holds many single-run files is
 * merged by the writer ({@link StoreCompactor#afterAppend}), so readers open few files.
 */
public final class StoreWriter implements AutoCloseable {
  private final Connection connection;

  private StoreWriter(Connection connection) {
    this.connection = connection;
  }

  /** A writer for appending several runs with one DuckDB database. */
  public static StoreWriter open() throws StoreException {
    return new StoreWriter(StoreEngine.open());
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // an in-memory database: nothing to lose
    }
  }

  /**
   * Appends {@code run} to the store in {@code dir}, creating it if absent.
   *
   * @return the two files written (results, runs)
   */
  public static List<Path> append(Path dir, StoredRun run) throws StoreException {
    try (StoreWriter w = open()) {
      return w.add(dir, run);
    }
  }

  /**
   * Appends {@code run} to the store in {@code dir}, creating it if absent.
   *
   * @return the two files written (results, runs)
   */
  public List<Path> add(Path dir, StoredRun run) throws StoreException {
    long storedAt = nowNs();
    Path results = file(dir, StoreSchema.RESULTS, run, storedAt);
    Path runs = file(dir, StoreSchema.RUNS, run, storedAt);
    Connection c = connection;
    try (Statement st = c.createStatement()) {
      st.execute("CREATE OR REPLACE TABLE results (" + StoreSchema.RESULTS_COLUMNS + ")");
      insertCells(st, run, results);
      copy(st, StoreSchema.RESULTS, StoreSchema.RESULTS, results, "");
      st.execute("CREATE OR REPLACE TABLE runs (" + StoreSchema.RUNS_COLUMNS + ")");
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                  + mapLiteral(run.labels())
                  + ", ?)")) {
        ps.setString(1, run.runId());
        if (run.startedAtNs() == null) {
          ps.setNull(2, Types.BIGINT);
        } else {
          ps.setLong(2, run.startedAtNs());
        }
        ps.setLong(3, run.durationNs());
        ps.setLong(4, run.timeNs());
        ps.setString(5, run.host());
        ps.setString(6, run.jvm());
        ps.setString(7, run.mainClass());
        ps.setString(8, run.status());
        ps.setLong(9, storedAt);
        ps.executeUpdate();
      }
      copy(st, StoreSchema.RUNS, StoreSchema.RUNS, runs, "");
    } catch (SQLException e) {
      throw new StoreException(dir + ": cannot write the run: " + Sql.oneLine(e), e);
    }
    try (Statement st = c.createStatement()) {
      StoreCompactor.afterAppend(dir, st, List.of(results.getParent(), runs.getParent()));
    } catch (SQLException | StoreException e) {
      // The run is stored; the partition stays unmerged (a damaged file in it is named by any
      // reader), and a later append or 'weft store compact' merges it.
    }
    return List.of(results, runs);
  }

  /**
   * Loads the cells through a CSV file beside the target: DuckDB reads a file far faster than it
   * binds parameters (seconds for a thousand rows of INSERTs, milliseconds for the file).
   */
  private static void insertCells(Statement st, StoredRun run, Path beside)
      throws SQLException, StoreException {
    Path csv =
        beside.resolveSibling(
            "." + beside.getFileName() + "." + ProcessHandle.current().pid() + ".csv");
    try {
      Files.createDirectories(csv.getParent());
      try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
        String id = quoted(run.runId());
        for (Cell cell : run.cells()) {
          w.write(id);
          w.write(',');
          w.write(quoted(cell.property()));
          w.write(',');
          w.write(quoted(cell.parent()));
          w.write(',');
          w.write(quoted(cell.propertyPath()));
          w.write(',');
          w.write(Long.toString(CallPathKey.of(cell.callpath())));
          w.write(',');
          w.write(quoted(CallPathKey.text(cell.callpath())));
          w.write(',');
          w.write(quoted(cell.thread()));
          w.write(',');
          w.write(Long.toString(cell.timeNs()));
          w.write(',');
          w.write(cell.count() == null ? "" : Long.toString(cell.count()));
          w.write('\n');
        }
      }
      st.execute(
          "INSERT INTO results SELECT * FROM read_csv("
              + Sql.literal(csv.toString())
              + ", header = false, hive_partitioning = false, quote = '\"', escape = '\"', nullstr = '',"
              + " allow_quoted_nulls = false, columns = {"
              + StoreSchema.RESULTS_COLUMNS.replaceAll("(\\w+) (\\w+)", "'$1': '$2'")
              + "})");
    } catch (IOException e) {
      throw new StoreException(csv + ": cannot write: " + e.getMessage(), e);
    } finally {
      try {
        Files.deleteIfExists(csv);
      } catch (IOException ignored) {
        // a hidden file the readers never look at
      }
    }
  }

  /** A CSV field: null as an empty field, a string always quoted (so "" is the empty string). */
  private static String quoted(String s) {
    return s == null ? "" : '"' + s.replace("\"", "\"\"") + '"';
  }

  /**
   * The file of {@code run} in {@code table}: partitioned by the day (UTC) the run started, else
   * the day it was stored.
   */
  static Path file(Path dir, String table, StoredRun run, long storedAt) {
    long when = run.startedAtNs() != null ? run.startedAtNs() : storedAt;
    String partition =
        "date=" + Instant.ofEpochSecond(0, when).atZone(ZoneOffset.UTC).toLocalDate();
    return dir.resolve(table).resolve(partition).resolve("run-" + run.runId() + ".parquet");
  }

  /**
   * Writes {@code source} (a table, or a query in parentheses) as a file of {@code table} under a
   * hidden temporary name beside {@code target}, then renames it.
   *
   * @param options more COPY options, each starting with ", "
   */
  static void copy(Statement st, String source, String table, Path target, String options)
      throws SQLException, StoreException {
    copy(st, source, table, target, options, Map.of());
  }

  /** As above, with more key-value metadata. */
  static void copy(
      Statement st,
      String source,
      String table,
      Path target,
      String options,
      Map<String, String> metadata)
      throws SQLException, StoreException {
    StringBuilder extra = new StringBuilder();
    metadata.forEach(
        (k, v) -> extra.append(", ").append(Sql.literal(k)).append(": ").append(Sql.literal(v)));
    Path tmp =
        target.resolveSibling(
            "." + target.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    try {
      Files.createDirectories(target.getParent());
      st.execute(
          "COPY "
              + source
              + " TO "
              + Sql.literal(tmp.toString())
              + " (FORMAT parquet, COMPRESSION zstd, KV_METADATA {"
              + Sql.literal(StoreSchema.VERSION_KEY)
              + ": "
              + Sql.literal(Integer.toString(StoreSchema.VERSION))
              + ", "
              + Sql.literal(StoreSchema.TABLE_KEY)
              + ": "
              + Sql.literal(table)
              + extra
              + "}"
              + options
              + ")");
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target);
      }
    } catch (IOException e) {
      throw new StoreException(target + ": cannot write: " + e.getMessage(), e);
    } finally {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // the rename happened or the write failed: the temporary name is invisible to readers
      }
    }
  }

  private static String mapLiteral(Map<String, String> labels) {
    List<String> entries = new ArrayList<>();
    labels.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> entries.add(Sql.literal(e.getKey()) + ": " + Sql.literal(e.getValue())));
    return "MAP {" + String.join(", ", entries) + "}";
  }

  private static long nowNs() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
