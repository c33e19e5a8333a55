package dev.weft.spark;

import dev.weft.store.StoreException;
import dev.weft.store.StoreSchema;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * A store's tables as temporary views of a Spark session: {@code runs}, {@code results}, {@code
 * properties}, and any other table directory the store holds (such as {@code wait_intervals}), over
 * the same files and with the same column types as DuckDB's views (STORE.md). The files are checked
 * as {@code weft query} checks them on DuckDB: a damaged or foreign file is named and refused (or
 * skipped, when asked), a schema version this code does not read is always refused. The directory
 * may be any Hadoop file system URI (hdfs://, s3a:// with its connector on the class path).
 */
public final class SparkStore {
  /** Tables that an export adds beside the analysis tables, registered when present. */
  static final List<String> OPTIONAL_TABLES = List.of("wait_intervals");

  private static final int FOOTER_READERS = 8;

  private SparkStore() {}

  /**
   * Registers the views of the store in {@code dir}.
   *
   * @return the files left out because they were damaged or foreign (only when {@code skipDamaged})
   */
  public static List<String> register(SparkSession spark, String dir, boolean skipDamaged)
      throws StoreException {
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    Path root = new Path(dir);
    FileSystem fs;
    try {
      fs = root.getFileSystem(conf);
      if (!fs.getFileStatus(root).isDirectory()) {
        throw new StoreException(dir + ": no such store directory");
      }
    } catch (FileNotFoundException e) {
      throw new StoreException(dir + ": no such store directory");
    } catch (IOException e) {
      throw new StoreException(dir + ": " + e.getMessage(), e);
    }
    List<String> tables = new ArrayList<>(StoreSchema.TABLES);
    for (String t : OPTIONAL_TABLES) {
      if (!tables.contains(t) && isDirectory(fs, new Path(root, t))) {
        tables.add(t);
      }
    }
    List<String> skipped = new ArrayList<>();
    for (String table : tables) {
      Path tableDir = new Path(root, table);
      List<Path> files = files(fs, tableDir);
      List<Path> bad = check(conf, files, skipDamaged, skipped);
      files.removeAll(bad);
      define(spark, table, bad.isEmpty() ? tableDir : null, files);
    }
    spark.sql(
        "CREATE OR REPLACE TEMPORARY VIEW properties AS SELECT DISTINCT property AS id, parent,"
            + " property_path FROM results");
    return skipped;
  }

  /**
   * The Spark type of a store table with a fixed schema (runs, results), from the DuckDB column
   * definitions the store writes; null for other tables, whose columns are read from their files.
   */
  static StructType schema(String table) {
    if (!StoreSchema.TABLES.contains(table)) {
      return null;
    }
    String ddl =
        StoreSchema.columns(table)
            .replaceAll("MAP\\((\\w+), (\\w+)\\)", "MAP<$1, $2>")
            .replace("VARCHAR", "STRING");
    return StructType.fromDDL(ddl);
  }

  private static boolean isDirectory(FileSystem fs, Path p) {
    try {
      return fs.getFileStatus(p).isDirectory();
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The Parquet files under a table's directory, in name order, hidden (temporary) ones left out.
   */
  private static List<Path> files(FileSystem fs, Path tableDir) throws StoreException {
    List<Path> out = new ArrayList<>();
    if (isDirectory(fs, tableDir)) {
      try {
        collect(fs, tableDir, out);
      } catch (IOException e) {
        throw new StoreException(shown(tableDir) + ": cannot list: " + e.getMessage(), e);
      }
    }
    out.sort(null);
    return out;
  }

  // listStatus, not listFiles: the local file system's LocatedFileStatus asks each file's
  // permissions, which without Hadoop's native library runs `ls` once per file.
  private static void collect(FileSystem fs, Path dir, List<Path> out) throws IOException {
    for (FileStatus s : fs.listStatus(dir)) {
      String n = s.getPath().getName();
      if (s.isDirectory()) {
        collect(fs, s.getPath(), out);
      } else if (n.endsWith(".parquet") && !n.startsWith(".")) {
        out.add(s.getPath());
      }
    }
  }

  /** Checks each file's schema version (footers read in parallel); returns the files to skip. */
  private static List<Path> check(
      Configuration conf, List<Path> files, boolean skip, List<String> skipped)
      throws StoreException {
    Map<Path, Future<String>> versions = new HashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(FOOTER_READERS);
    List<Path> bad = new ArrayList<>();
    try {
      for (Path f : files) {
        versions.put(f, pool.submit(() -> version(conf, f)));
      }
      for (Path f : files) {
        String v;
        try {
          v = versions.get(f).get();
        } catch (ExecutionException e) {
          if (!skip) {
            throw new StoreException(
                shown(f) + ": damaged or not a Parquet file: " + oneLine(e.getCause()), e);
          }
          bad.add(f);
          continue;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new StoreException("interrupted while reading the store's files", e);
        }
        if (v == null) {
          if (!skip) {
            throw new StoreException(
                shown(f)
                    + ": not a Weft store file (no "
                    + StoreSchema.VERSION_KEY
                    + " in its metadata)");
          }
          bad.add(f);
        } else if (!readable(v)) {
          throw new StoreException(
              shown(f)
                  + ": store schema version "
                  + v
                  + "; this weft reads version(s) "
                  + StoreSchema.READS);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    for (Path f : bad) {
      skipped.add(shown(f));
    }
    return bad;
  }

  private static String version(Configuration conf, Path f) throws IOException {
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(f, conf))) {
      return r.getFooter().getFileMetaData().getKeyValueMetaData().get(StoreSchema.VERSION_KEY);
    }
  }

  private static boolean readable(String version) {
    try {
      return StoreSchema.READS.contains(Integer.parseInt(version.strip()));
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * Defines the view of a table over {@code files}; given {@code tableDir} (no file was left out),
   * over the directory instead, which Spark lists in one go rather than looking up each file.
   */
  private static void define(SparkSession spark, String table, Path tableDir, List<Path> files) {
    StructType schema = schema(table);
    Dataset<Row> df;
    if (files.isEmpty()) {
      df = spark.createDataFrame(List.of(), schema == null ? new StructType() : schema);
    } else {
      // The files' own columns: no partition column from the date=… directories.
      var reader = spark.read().option("mergeSchema", schema == null);
      reader = schema == null ? reader : reader.schema(schema);
      if (tableDir != null) {
        // Spark's listing leaves out hidden (temporary) names as the check above did.
        df =
            reader
                .option("recursiveFileLookup", true)
                .option("pathGlobFilter", "*.parquet")
                .parquet(tableDir.toString());
      } else {
        df = reader.parquet(files.stream().map(Path::toString).toArray(String[]::new));
      }
    }
    df.createOrReplaceTempView(table);
  }

  /** A local file as its path (as DuckDB names it), any other as its URI. */
  static String shown(Path p) {
    return "file".equals(p.toUri().getScheme()) ? p.toUri().getPath() : p.toString();
  }

  static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage().strip();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl).strip();
  }
}
