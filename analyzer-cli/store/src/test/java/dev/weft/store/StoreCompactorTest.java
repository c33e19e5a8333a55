package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction merges a partition's files and never shows a row twice: by {@code weft store compact}
 * and by writers as they append, two at once included.
 */
class StoreCompactorTest {
  @TempDir Path tmp;

  @Test
  void mergedFilesReplaceTheOldOnesEvenWhileTheOldOnesAreStillThere() throws Exception {
    Path store = tmp.resolve("store");
    List<Path> kept = null;
    try (StoreWriter w = StoreWriter.open()) {
      for (int i = 0; i < 5; i++) {
        List<Path> files =
            w.add(store, StoreFilesTest.run("App", 1_000L * (i + 1), Map.of("x @ A.java:1", 10L)));
        if (i == 0) {
          kept = files;
        }
      }
    }
    // The old files as a compaction killed before deleting them leaves them.
    Path aside = tmp.resolve("aside");
    Files.createDirectories(aside);
    for (Path f : kept) {
      Files.copy(f, aside.resolve(f.getParent().getParent().getFileName() + ".parquet"));
    }
    StoreCompactor.Result r = StoreCompactor.compact(store);
    assertEquals(10, r.merged());
    assertEquals(2, r.written());
    Files.copy(aside.resolve("results.parquet"), kept.get(0));
    Files.copy(aside.resolve("runs.parquet"), kept.get(1));
    try (StoreReader reader = StoreReader.open(store, false)) {
      assertEquals(5, StoreFilesTest.count(reader.connection(), "SELECT count(*) FROM runs"));
      assertEquals(
          50, StoreFilesTest.count(reader.connection(), "SELECT sum(time_ns) FROM results"));
      assertEquals(1, reader.files(StoreSchema.RESULTS).size());
      assertTrue(
          reader.files(StoreSchema.RESULTS).get(0).getFileName().toString().startsWith("compact-"));
    }
    try (StoreWriter w = StoreWriter.open()) {
      w.add(store, StoreFilesTest.run("App", 9_000L, Map.of("x @ A.java:1", 10L)));
    }
    StoreCompactor.Result again = StoreCompactor.compact(store);
    assertEquals(4, again.merged(), "the compacted file, a leftover and a new run, per table");
    try (StoreReader reader = StoreReader.open(store, false)) {
      assertEquals(6, StoreFilesTest.count(reader.connection(), "SELECT count(*) FROM runs"));
    }
    assertTrue(Files.notExists(kept.get(0)) && Files.notExists(kept.get(1)), "leftovers removed");
  }

  private static final int SMALL = StoreCompactor.SMALL_FILES;

  /** The files of a table a reader would list, merged files and files they replace included. */
  private static List<Path> listed(Path store, String table) throws Exception {
    try (Stream<Path> all = Files.walk(store.resolve(table))) {
      return all.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
    }
  }

  private static void assertEveryRunOnce(Path store, int runs) throws Exception {
    try (StoreReader reader = StoreReader.open(store, false)) {
      assertEquals(runs, StoreFilesTest.count(reader.connection(), "SELECT count(*) FROM runs"));
      assertEquals(
          runs,
          StoreFilesTest.count(reader.connection(), "SELECT count(DISTINCT run_id) FROM runs"));
      assertEquals(runs, StoreFilesTest.count(reader.connection(), "SELECT count(*) FROM results"));
      assertEquals(
          10L * runs,
          StoreFilesTest.count(reader.connection(), "SELECT sum(time_ns) FROM results"));
      for (String table : List.of(StoreSchema.RUNS, StoreSchema.RESULTS)) {
        int read = reader.files(table).size();
        assertTrue(read <= SMALL + 2, table + ": " + read + " files read");
      }
    }
    try (Stream<Path> all = Files.walk(store)) {
      assertTrue(all.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temp file");
    }
  }

  @Test
  void aWriterMergesSmallFilesAndLaterDeletesWhatTheMergeReplaced() throws Exception {
    Path store = tmp.resolve("store");
    int runs = 2 * SMALL + 3;
    try (StoreWriter w = StoreWriter.open()) {
      for (int i = 0; i < runs; i++) {
        w.add(store, StoreFilesTest.run("App", 1_000L * (i + 1), Map.of("x @ A.java:1", 10L)));
      }
    }
    assertEveryRunOnce(store, runs);
    List<Path> before = listed(store, StoreSchema.RESULTS);
    assertTrue(
        before.stream().anyMatch(p -> p.getFileName().toString().startsWith("compact-")),
        before.toString());
    // Once the merges are older than the grace, the next append deletes what they replaced.
    FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 2 * 60_000);
    for (Path f : before) {
      Files.setLastModifiedTime(f, old);
    }
    try (StoreWriter w = StoreWriter.open()) {
      w.add(store, StoreFilesTest.run("App", 999_000L, Map.of("x @ A.java:1", 10L)));
    }
    assertEveryRunOnce(store, runs + 1);
    assertTrue(
        listed(store, StoreSchema.RESULTS).size() <= SMALL + 2,
        listed(store, StoreSchema.RESULTS).toString());
  }

  @Test
  void twoWritersCompactingAtOnceLeaveEveryRunOnce() throws Exception {
    Path store = tmp.resolve("store");
    int each = SMALL + 4;
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        long base = 1_000_000L * (t + 1);
        Callable<Void> write =
            () -> {
              start.await();
              try (StoreWriter w = StoreWriter.open()) {
                for (int i = 0; i < each; i++) {
                  w.add(store, StoreFilesTest.run("App", base + i, Map.of("x @ A.java:1", 10L)));
                }
              }
              return null;
            };
        done.add(pool.submit(write));
      }
      for (Future<?> f : done) {
        f.get();
      }
      // Single-run files put in place without an append's merge: two writers' merges at once.
      int more = SMALL + 3;
      for (int i = 0; i < more; i++) {
        Path one = tmp.resolve("one-" + i);
        for (Path f :
            StoreWriter.append(
                one, StoreFilesTest.run("App", 5_000_000L + i, Map.of("x @ A.java:1", 10L)))) {
          Path to = store.resolve(one.relativize(f));
          Files.move(f, to);
        }
      }
      List<Path> partitions = new ArrayList<>();
      for (String table : List.of(StoreSchema.RESULTS, StoreSchema.RUNS)) {
        partitions.add(listed(store, table).get(0).getParent());
      }
      CyclicBarrier together = new CyclicBarrier(2);
      List<Future<Integer>> merges = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        merges.add(
            pool.submit(
                () -> {
                  try (var c = StoreEngine.open();
                      var st = c.createStatement()) {
                    together.await();
                    return StoreCompactor.afterAppend(store, st, partitions);
                  }
                }));
      }
      List<Integer> merged = new ArrayList<>();
      for (Future<Integer> f : merges) {
        merged.add(f.get());
      }
      merged.sort(null);
      assertEquals(0, merged.get(0), "one leaves the merge to the other: " + merged);
      assertTrue(merged.get(1) >= 2 * more, "the other merges both tables: " + merged);
    } finally {
      pool.shutdown();
    }
    assertEveryRunOnce(store, 2 * each + SMALL + 3);
  }
}
