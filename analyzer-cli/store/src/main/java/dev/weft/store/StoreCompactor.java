package dev.weft.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Merges a partition's files of a table into one, because a reader pays per file (its footer, its
 * open) far more than per row: {@code weft store compact DIR} merges every partition, and a writer
 * that has just added a run merges its partitions when they hold more than {@link #SMALL_FILES}
 * files of single runs ({@link #afterAppend}). The merged file lists the files it replaces in its
 * metadata ({@link StoreSchema#REPLACES_KEY}), and readers leave out a listed file that is still
 * there: between the rename of the merged file and the deletion of the old ones, and after a
 * compaction killed in between, every row is read once. Writers may append meanwhile (their new
 * files are not touched); one compaction of a store runs at a time (a lock on {@code
 * DIR/.compact.lock}), and a writer that finds it taken leaves the merging to the one holding it.
 */
public final class StoreCompactor {
  /** A writer merges a partition's single-run files when there are more than this many. */
  public static final int SMALL_FILES = 16;

  /**
   * How long a writer's merge leaves the files it replaced in place: a reader that listed them
   * before the merge still finds them while it reads.
   */
  static final Duration LEFTOVER_GRACE = Duration.ofSeconds(30);

  /** The start of a merged file's name. */
  static final String MERGED_PREFIX = "compact-";

  private static final String LOCK = ".compact.lock";

  private StoreCompactor() {}

  /**
   * What a compaction did.
   *
   * @param merged files merged away
   * @param written files written (one per table and partition that had more than one file)
   */
  public record Result(int merged, int written) {}

  /** Compacts the store in {@code dir}: one file per table and partition. */
  public static Result compact(Path dir) throws StoreException {
    if (!Files.isDirectory(dir)) {
      throw new StoreException(dir + ": no such store directory");
    }
    Path lockFile = dir.resolve(LOCK);
    try (FileChannel ch =
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock lock = tryLock(ch);
      if (lock == null) {
        throw new StoreException(dir + ": another compaction is running on this store");
      }
      try (lock) {
        return compactLocked(dir);
      }
    } catch (StoreException e) {
      throw e;
    } catch (IOException e) {
      throw new StoreException(lockFile + ": " + e.getMessage(), e);
    }
  }

  /**
   * After a writer added files to {@code partitions} (directories of its tables): merges each
   * partition's single-run files into one when there are more than {@link #SMALL_FILES}, and the
   * merged files into one when there are more than {@link #SMALL_FILES} of them, so that a
   * partition never holds many more than twice that many files. Does nothing when another
   * compaction holds the store's lock: that one merges them.
   *
   * @return files merged away
   */
  static int afterAppend(Path dir, Statement st, List<Path> partitions) throws StoreException {
    List<Path> due = new ArrayList<>();
    for (Path p : partitions) {
      if (count(p, "run-*.parquet") > SMALL_FILES) {
        due.add(p);
      }
    }
    if (due.isEmpty()) {
      return 0; // the common case: a directory listing, no lock, no footer read
    }
    Path lockFile = dir.resolve(LOCK);
    try (FileChannel ch =
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock lock = tryLock(ch);
      if (lock == null) {
        return 0;
      }
      try (lock) {
        int merged = 0;
        for (Path p : due) {
          merged += mergePartition(st, p, LEFTOVER_GRACE);
        }
        return merged;
      }
    } catch (SQLException e) {
      throw new StoreException(dir + ": cannot compact: " + Sql.oneLine(e), e);
    } catch (IOException e) {
      if (e instanceof StoreException s) {
        throw s;
      }
      throw new StoreException(dir + ": cannot compact: " + e.getMessage(), e);
    }
  }

  /** The lock, or null when another process or thread of this JVM holds it. */
  private static FileLock tryLock(FileChannel ch) throws IOException {
    try {
      return ch.tryLock();
    } catch (OverlappingFileLockException heldHere) {
      return null;
    }
  }

  private static int count(Path partition, String glob) throws StoreException {
    int n = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(partition, glob)) {
      for (Path ignored : files) {
        n++;
      }
    } catch (IOException e) {
      throw new StoreException(partition + ": cannot list: " + e.getMessage(), e);
    }
    return n;
  }

  /**
   * One partition, by a writer: deletes the files earlier merges replaced once they are older than
   * {@code grace}, then merges the single-run files, then the merged files, when either are more
   * than {@link #SMALL_FILES}.
   *
   * @return files merged away
   */
  private static int mergePartition(Statement st, Path partition, Duration grace)
      throws SQLException, IOException {
    List<Path> compacted = new ArrayList<>();
    List<Path> runs = new ArrayList<>();
    for (Path f : StoreReader.files(partition)) {
      String name = f.getFileName().toString();
      if (name.startsWith(MERGED_PREFIX)) {
        compacted.add(f);
      } else if (name.startsWith("run-")) {
        runs.add(f);
      }
    }
    Map<Path, Path> replacedBy = replacedBy(st, compacted);
    // Oldest merge first: a merged file that a later merge replaced goes only after the files it
    // replaced, so that no row becomes visible twice if this stops half-way.
    List<Map.Entry<Path, Long>> old = new ArrayList<>();
    for (Map.Entry<Path, Path> e : replacedBy.entrySet()) {
      old.add(Map.entry(e.getKey(), Files.getLastModifiedTime(e.getValue()).toMillis()));
    }
    old.sort(Map.Entry.comparingByValue());
    long now = System.currentTimeMillis();
    for (Map.Entry<Path, Long> e : old) {
      if (now - e.getValue() >= grace.toMillis()) {
        Files.deleteIfExists(e.getKey());
      }
    }
    runs.removeAll(replacedBy.keySet());
    compacted.removeAll(replacedBy.keySet());
    int merged = 0;
    String table = partition.getParent().getFileName().toString();
    if (runs.size() > SMALL_FILES) {
      compacted.add(merge(st, table, partition, runs));
      merged += runs.size();
    }
    if (compacted.size() > SMALL_FILES) {
      merge(st, table, partition, compacted);
      merged += compacted.size();
    }
    return merged;
  }

  /** For each file that {@code compacted} files list as replaced: the file replacing it. */
  private static Map<Path, Path> replacedBy(Statement st, List<Path> compacted)
      throws SQLException {
    Map<Path, Path> replacedBy = new HashMap<>();
    if (compacted.isEmpty()) {
      return replacedBy;
    }
    try (ResultSet rs =
        st.executeQuery(
            "SELECT file_name, decode(value) FROM parquet_kv_metadata("
                + Sql.files(compacted)
                + ") WHERE decode(key) = "
                + Sql.literal(StoreSchema.REPLACES_KEY))) {
      while (rs.next()) {
        Path by = Path.of(rs.getString(1));
        for (String name : rs.getString(2).split("\n")) {
          replacedBy.put(by.resolveSibling(name), by);
        }
      }
    }
    return replacedBy;
  }

  /**
   * Writes {@code files} (of one partition of {@code table}) as one new file that lists them as
   * replaced; does not delete them.
   */
  private static Path merge(Statement st, String table, Path partition, List<Path> files)
      throws SQLException, StoreException {
    Path target = partition.resolve(MERGED_PREFIX + UUID.randomUUID() + ".parquet");
    List<String> names = new ArrayList<>();
    for (Path f : files) {
      names.add(f.getFileName().toString());
    }
    StoreWriter.copy(
        st,
        "(SELECT * FROM read_parquet("
            + Sql.files(files)
            + ", hive_partitioning = false, union_by_name = true))",
        table,
        target,
        "",
        Map.of(StoreSchema.REPLACES_KEY, String.join("\n", names)));
    return target;
  }

  private static Result compactLocked(Path dir) throws StoreException {
    int merged = 0;
    int written = 0;
    try (StoreReader reader = StoreReader.open(dir, false);
        Connection c = StoreEngine.open();
        Statement st = c.createStatement()) {
      for (Path leftover : reader.replaced()) {
        Files.deleteIfExists(leftover); // already in the compacted file that lists it
      }
      for (String table : StoreSchema.TABLES) {
        Map<Path, List<Path>> byPartition = new TreeMap<>();
        for (Path f : reader.files(table)) {
          byPartition.computeIfAbsent(f.getParent(), p -> new ArrayList<>()).add(f);
        }
        for (Map.Entry<Path, List<Path>> e : byPartition.entrySet()) {
          List<Path> files = e.getValue();
          if (files.size() < 2) {
            continue;
          }
          merge(st, table, e.getKey(), files);
          written++;
          merged += files.size();
          for (Path f : files) {
            Files.deleteIfExists(f);
          }
        }
      }
    } catch (SQLException e) {
      throw new StoreException(dir + ": cannot compact: " + Sql.oneLine(e), e);
    } catch (IOException e) {
      throw new StoreException(dir + ": cannot compact: " + e.getMessage(), e);
    }
    return new Result(merged, written);
  }
}
