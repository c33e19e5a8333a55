package dev.weft.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A store opened for SQL: the views {@code runs}, {@code results} and {@code properties} over its
 * Parquet files in an in-memory DuckDB database. Every file's schema version is checked first: a
 * damaged or foreign file is named and refused (or skipped, when asked), a version this code does
 * not read is always refused.
 */
public final class StoreReader implements AutoCloseable {
  private final Connection connection;
  private final List<Path> skipped;
  private final Map<String, List<Path>> files;
  private final List<Path> replaced;

  private StoreReader(
      Connection connection,
      List<Path> skipped,
      Map<String, List<Path>> files,
      List<Path> replaced) {
    this.connection = connection;
    this.skipped = List.copyOf(skipped);
    this.files = files;
    this.replaced = List.copyOf(replaced);
  }

  /**
   * Opens the store in {@code dir}.
   *
   * @param skipDamaged read the other files when one is damaged or not a store file
   * @throws StoreException naming the first damaged or foreign file (unless skipped), or a file of
   *     a schema version this code does not read
   */
  public static StoreReader open(Path dir, boolean skipDamaged) throws StoreException {
    if (!Files.isDirectory(dir)) {
      throw new StoreException(dir + ": no such store directory");
    }
    Connection c = StoreEngine.open();
    try {
      List<Path> skipped = new ArrayList<>();
      Map<String, List<Path>> read = new HashMap<>();
      List<Path> leftovers = new ArrayList<>();
      for (String table : StoreSchema.TABLES) {
        // Merged files first: the files they list as replaced are then left out unread (a burst
        // of appends leaves many such files for a while; see StoreCompactor).
        List<Path> merged = new ArrayList<>();
        List<Path> single = new ArrayList<>();
        for (Path f : files(dir.resolve(table))) {
          (f.getFileName().toString().startsWith(StoreCompactor.MERGED_PREFIX) ? merged : single)
              .add(f);
        }
        Set<Path> replaced = new HashSet<>();
        merged.removeAll(check(c, merged, skipDamaged, skipped, replaced));
        List<Path> files = new ArrayList<>();
        List<Path> unchecked = new ArrayList<>();
        for (Path f : merged) {
          (replaced.contains(f) ? leftovers : files).add(f);
        }
        for (Path f : single) {
          (replaced.contains(f) ? leftovers : unchecked).add(f);
        }
        unchecked.removeAll(check(c, unchecked, skipDamaged, skipped, replaced));
        files.addAll(unchecked);
        files.sort(null);
        define(c, table, files);
        read.put(table, List.copyOf(files));
      }
      try (Statement st = c.createStatement()) {
        st.execute(
            "CREATE VIEW properties AS SELECT DISTINCT property AS id, parent, property_path"
                + " FROM results");
      }
      return new StoreReader(c, skipped, read, leftovers);
    } catch (SQLException e) {
      close(c);
      throw new StoreException(dir + ": " + Sql.oneLine(e), e);
    } catch (StoreException | RuntimeException e) {
      close(c);
      throw e;
    }
  }

  /** The connection whose views are the store's tables. */
  public Connection connection() {
    return connection;
  }

  /** The files read as {@code table}. */
  public List<Path> files(String table) {
    return files.getOrDefault(table, List.of());
  }

  /** Files left out because a compacted file replaces them (a compaction did not finish). */
  public List<Path> replaced() {
    return replaced;
  }

  /** Files left out because they were damaged or not store files. */
  public List<Path> skipped() {
    return skipped;
  }

  @Override
  public void close() {
    close(connection);
  }

  private static void close(Connection c) {
    try {
      c.close();
    } catch (SQLException ignored) {
      // an in-memory database: nothing to lose
    }
  }

  /** The Parquet files of a table, in name order; temporary (hidden) files are not among them. */
  static List<Path> files(Path tableDir) throws StoreException {
    if (!Files.isDirectory(tableDir)) {
      return new ArrayList<>();
    }
    try (Stream<Path> all = Files.walk(tableDir)) {
      return new ArrayList<>(
          all.filter(
                  p -> {
                    String n = p.getFileName().toString();
                    return n.endsWith(".parquet") && !n.startsWith(".") && Files.isRegularFile(p);
                  })
              .sorted()
              .toList());
    } catch (IOException | UncheckedIOException e) {
      throw new StoreException(tableDir + ": cannot list: " + e.getMessage(), e);
    }
  }

  /**
   * Checks every file's schema version; returns the files to leave out (damaged or foreign, when
   * {@code skip}), adding them to {@code skipped}.
   */
  private static List<Path> check(
      Connection c, List<Path> files, boolean skip, List<Path> skipped, Set<Path> replaced)
      throws StoreException, SQLException {
    if (files.isEmpty()) {
      return List.of();
    }
    Map<String, String> versions = new HashMap<>();
    Map<String, String> replaces = new HashMap<>();
    List<Path> bad = new ArrayList<>();
    try {
      metadata(c, files, versions, replaces);
    } catch (SQLException whole) {
      // One file spoilt the batch: find which, one by one.
      for (Path f : files) {
        try {
          metadata(c, List.of(f), versions, replaces);
        } catch (SQLException e) {
          if (!skip) {
            throw new StoreException(f + ": damaged or not a Parquet file: " + Sql.oneLine(e), e);
          }
          bad.add(f);
        }
      }
    }
    for (Path f : files) {
      if (bad.contains(f)) {
        continue;
      }
      String v = versions.get(f.toString());
      if (v == null) {
        if (!skip) {
          throw new StoreException(
              f + ": not a Weft store file (no " + StoreSchema.VERSION_KEY + " in its metadata)");
        }
        bad.add(f);
        continue;
      }
      if (!readable(v)) {
        throw new StoreException(
            f
                + ": store schema version "
                + v
                + "; this weft reads version(s) "
                + StoreSchema.READS);
      }
      String listed = replaces.get(f.toString());
      if (listed != null) {
        for (String name : listed.split("\n")) {
          replaced.add(f.resolveSibling(name));
        }
      }
    }
    skipped.addAll(bad);
    return bad;
  }

  private static boolean readable(String version) {
    try {
      return StoreSchema.READS.contains(Integer.parseInt(version.strip()));
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** The schema version and the replaced files of each file that has them, by file name. */
  private static void metadata(
      Connection c, List<Path> files, Map<String, String> versions, Map<String, String> replaces)
      throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT file_name, decode(key), decode(value) FROM parquet_kv_metadata("
                    + Sql.files(files)
                    + ") WHERE decode(key) IN ("
                    + Sql.literal(StoreSchema.VERSION_KEY)
                    + ", "
                    + Sql.literal(StoreSchema.REPLACES_KEY)
                    + ")")) {
      while (rs.next()) {
        (StoreSchema.VERSION_KEY.equals(rs.getString(2)) ? versions : replaces)
            .put(rs.getString(1), rs.getString(3));
      }
    }
  }

  private static void define(Connection c, String table, List<Path> files) throws SQLException {
    try (Statement st = c.createStatement()) {
      if (files.isEmpty()) {
        st.execute("CREATE TABLE " + table + " (" + StoreSchema.columns(table) + ")");
      } else {
        st.execute(
            "CREATE VIEW "
                + table
                + " AS SELECT * FROM read_parquet("
                + Sql.files(files)
                + ", hive_partitioning = false, union_by_name = true)");
      }
    }
  }
}
