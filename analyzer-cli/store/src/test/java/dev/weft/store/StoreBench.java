package dev.weft.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Prints the store's figures: append rate (runs/s, rows/s, the writers' merges included), the files
 * a reader opens, and the time of a trend over the stored runs, three times in this JVM (warm).
 * {@code java -cp … dev.weft.store.StoreBench [RUNS] [CELLS_PER_RUN] [DIR]}; {@code StoreBench
 * trend DIR RUNS} runs one trend in a new JVM (cold, DuckDB's driver loaded first). See
 * store-bench.sh; not a test.
 */
public final class StoreBench {
  private StoreBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("trend")) {
      trend(Path.of(args[1]), Integer.parseInt(args[2]), "cold (new JVM)", 1);
      return;
    }
    if (args.length == 3 && args[0].equals("warm")) {
      trend(Path.of(args[1]), Integer.parseInt(args[2]), "warm (same JVM)", 3);
      return;
    }
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int cellsPerRun = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    Path dir =
        args.length > 2
            ? Files.createDirectories(Path.of(args[2]))
            : Files.createTempDirectory("weft-store-bench");
    Random random = new Random(1);
    long start = System.nanoTime();
    try (StoreWriter w = StoreWriter.open()) {
      for (int r = 0; r < runs; r++) {
        List<StoredRun.Cell> cells = new ArrayList<>();
        for (int c = 0; c < cellsPerRun; c++) {
          long ns = c == 0 ? 1_000_000L + 5_000L * r : 1_000_000L + random.nextInt(100_000);
          cells.add(
              new StoredRun.Cell(
                  "lock_contention",
                  "time",
                  "/time/lock_contention/",
                  List.of("main @ App.java:1", "site" + (c / 4) + " @ App.java:" + c),
                  "worker-" + (c % 4),
                  ns));
        }
        w.add(
            dir,
            new StoredRun(
                java.util.UUID.randomUUID().toString(),
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
    double writeS = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "store write: %d runs of %d cells in %.1f s: %.1f runs/s, %.0f rows/s%n",
        runs, cellsPerRun, writeS, runs / writeS, (double) runs * cellsPerRun / writeS);
    try (StoreReader reader = StoreReader.open(dir, false)) {
      System.out.printf(
          "files read: runs %d, results %d (%d replaced, still there)%n",
          reader.files(StoreSchema.RUNS).size(),
          reader.files(StoreSchema.RESULTS).size(),
          reader.replaced().size());
    }
    trend(dir, runs, "warm (same JVM)", 3);
    System.out.println("store: " + dir);
  }

  private static void trend(Path dir, int runs, String when, int times) throws Exception {
    for (int i = 0; i < times; i++) {
      long cpu0 = processCpuNs();
      long t0 = System.nanoTime();
      try (StoreReader reader = StoreReader.open(dir, false)) {
        long t1 = System.nanoTime();
        Trend.Result t = Trend.of(reader.connection(), "lock_contention", runs, null);
        long t2 = System.nanoTime();
        System.out.printf(
            "%s: trend over %d runs: open %.0f ms, query %.0f ms, total %.0f ms (process CPU"
                + " %.0f ms); top %s%n",
            when,
            t.runIds().size(),
            (t1 - t0) / 1e6,
            (t2 - t1) / 1e6,
            (t2 - t0) / 1e6,
            (processCpuNs() - cpu0) / 1e6,
            t.rows().get(0).callpath());
      }
    }
  }

  /**
   * CPU time of this process, all threads (DuckDB's own included): the cost apart from the load.
   */
  private static long processCpuNs() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
