package dev.weft.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * {@code weft store compact DIR}: merges each partition's files of a table into one, because a
 * reader pays per file (its footer, its open) far more than per row. The merged file lists the
 * files it replaces in its metadata ({@link StoreSchema#REPLACES_KEY}), and readers leave out a
 * listed file that is still there: between the rename of the merged file and the deletion of the
 * old ones, and after a compaction killed in between, every row is read once. Writers may append
 * meanwhile (their new files are not touched); a second compaction of the same store waits for none
 * and refuses to start.
 */
public final class StoreCompactor {
  private StoreCompactor() {}

  /**
   * What a compaction did.
   *
   * @param merged files merged away
   * @param written files written (one per table and partition that had more than one file)
   */
  public record Result(int merged, int written) {}

  /** Compacts the store in {@code dir}. */
  public static Result compact(Path dir) throws StoreException {
    if (!Files.isDirectory(dir)) {
      throw new StoreException(dir + ": no such store directory");
    }
    Path lockFile = dir.resolve(".compact.lock");
    try (FileChannel ch =
            FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = ch.tryLock()) {
      if (lock == null) {
        throw new StoreException(dir + ": another 'weft store compact' is running on this store");
      }
      return compactLocked(dir);
    } catch (IOException e) {
      if (e instanceof StoreException s) {
        throw s;
      }
      throw new StoreException(lockFile + ": " + e.getMessage(), e);
    }
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
          Path target = e.getKey().resolve("compact-" + UUID.randomUUID() + ".parquet");
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
