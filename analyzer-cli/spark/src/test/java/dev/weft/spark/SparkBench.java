package dev.weft.spark;

import dev.weft.store.StoreReader;
import dev.weft.store.StoreWriter;
import dev.weft.store.StoredRun;
import dev.weft.store.Trend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;

/**
 * Prints Spark's figures beside DuckDB's over the same store: session start, opening the store
 * (list and check every file), and the trend's queries over all runs. {@code java -cp …
 * dev.weft.spark.SparkBench [RUNS] [CELLS_PER_RUN] [STORE_DIR]} (see spark-bench.sh); a store
 * directory that exists is queried as it is, else filled with RUNS synthetic runs first.
 */
public final class SparkBench {
  private SparkBench() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int cells = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("weft-spark-bench");
    if (!Files.isDirectory(dir.resolve("runs"))) {
      fill(dir, runs, cells);
    }
    String like = Trend.subtreePattern("lock_contention");
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      try (StoreReader duck = StoreReader.open(dir, false)) {
        long t1 = System.nanoTime();
        Trend.Result t = Trend.of(duck.connection(), "lock_contention", runs, "App");
        long t2 = System.nanoTime();
        System.out.printf(
            "duckdb: open %.0f ms, trend %.0f ms (%d runs, %d call paths)%n",
            ms(t0, t1), ms(t1, t2), t.runIds().size(), t.rows().size());
      }
    }
    long s0 = System.nanoTime();
    SparkSession spark = SparkQuery.session(null);
    long s1 = System.nanoTime();
    System.out.printf(
        "spark: session start %.0f ms (%s)%n", ms(s0, s1), spark.sparkContext().master());
    try {
      for (int i = 0; i < 3; i++) {
        long t0 = System.nanoTime();
        SparkStore.register(spark, dir.toString(), false);
        long t1 = System.nanoTime();
        long rows = spark.sql(Trend.SERIES_SQL, new Object[] {"App", runs, like}).count();
        long names = spark.sql(Trend.NAMES_SQL, new Object[] {like}).count();
        long t2 = System.nanoTime();
        System.out.printf(
            "spark: open %.0f ms, trend queries %.0f ms (%d series rows, %d call paths)%n",
            ms(t0, t1), ms(t1, t2), rows, names);
      }
    } finally {
      spark.stop();
    }
  }

  private static void fill(Path dir, int runs, int cellsPerRun) throws Exception {
    Random random = new Random(1);
    try (StoreWriter w = StoreWriter.open()) {
      for (int r = 0; r < runs; r++) {
        List<StoredRun.Cell> cells = new ArrayList<>();
        for (int c = 0; c < cellsPerRun; c++) {
          long ns = c == 0 ? 1_000_000L + 5_000L * r : 1_000_000L + random.nextInt(100_000);
          cells.add(
              new StoredRun.Cell(
                  "lock_contention",
                  "wait",
                  "/time/wait/lock_contention/",
                  List.of("main @ App.java:1", "site" + (c / 4) + " @ App.java:" + c),
                  "worker-" + (c % 4),
                  ns));
        }
        w.add(
            dir,
            new StoredRun(
                UUID.randomUUID().toString(),
                1_700_000_000_000_000_000L + r * 1_000_000_000L,
                1_000_000_000L,
                4_000_000_000L,
                "host",
                "jvm",
                "App",
                "complete",
                Map.of("build", Integer.toString(r)),
                cells));
      }
    }
  }

  private static double ms(long from, long to) {
    return (to - from) / 1e6;
  }
}
