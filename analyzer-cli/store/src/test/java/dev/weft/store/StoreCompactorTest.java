package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction merges a partition's files and never shows a row twice. */
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
}
