package dev.weft.store;

import dev.weft.store.StoredRun.Cell;
import java.io.IOException;
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
 * file: a run a reader sees has all its cells.
 */
public final class StoreWriter {
  /** Rows per INSERT statement: one statement per row is far slower in DuckDB. */
  private static final int ROWS_PER_INSERT = 256;

  private StoreWriter() {}

  /**
   * Appends {@code run} to the store in {@code dir}, creating it if absent.
   *
   * @return the two files written (results, runs)
   */
  public static List<Path> append(Path dir, StoredRun run) throws StoreException {
    long storedAt = nowNs();
    long when = run.startedAtNs() != null ? run.startedAtNs() : storedAt;
    String partition =
        "date=" + Instant.ofEpochSecond(0, when).atZone(ZoneOffset.UTC).toLocalDate();
    String name = "run-" + run.runId() + ".parquet";
    Path results = dir.resolve(StoreSchema.RESULTS).resolve(partition).resolve(name);
    Path runs = dir.resolve(StoreSchema.RUNS).resolve(partition).resolve(name);
    try (Connection c = StoreEngine.open();
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE results (" + StoreSchema.RESULTS_COLUMNS + ")");
      insertCells(c, run);
      copy(st, StoreSchema.RESULTS, results);
      st.execute("CREATE TABLE runs (" + StoreSchema.RUNS_COLUMNS + ")");
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
      copy(st, StoreSchema.RUNS, runs);
    } catch (SQLException e) {
      throw new StoreException(dir + ": cannot write the run: " + Sql.oneLine(e), e);
    }
    return List.of(results, runs);
  }

  private static void insertCells(Connection c, StoredRun run) throws SQLException {
    List<Cell> cells = run.cells();
    for (int from = 0; from < cells.size(); from += ROWS_PER_INSERT) {
      int n = Math.min(ROWS_PER_INSERT, cells.size() - from);
      StringBuilder sql = new StringBuilder("INSERT INTO results VALUES ");
      for (int i = 0; i < n; i++) {
        sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?)");
      }
      try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
        int k = 1;
        for (Cell cell : cells.subList(from, from + n)) {
          ps.setString(k++, run.runId());
          ps.setString(k++, cell.property());
          ps.setString(k++, cell.parent());
          ps.setString(k++, cell.propertyPath());
          ps.setLong(k++, CallPathKey.of(cell.callpath()));
          ps.setString(k++, CallPathKey.text(cell.callpath()));
          ps.setString(k++, cell.thread());
          ps.setLong(k++, cell.timeNs());
        }
        ps.executeUpdate();
      }
    }
  }

  /** Writes {@code table} to a hidden temporary file beside {@code target}, then renames it. */
  private static void copy(Statement st, String table, Path target)
      throws SQLException, StoreException {
    Path tmp =
        target.resolveSibling(
            "." + target.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    try {
      Files.createDirectories(target.getParent());
      st.execute(
          "COPY "
              + table
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
              + "})");
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
