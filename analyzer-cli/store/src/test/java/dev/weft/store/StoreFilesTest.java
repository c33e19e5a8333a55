package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Appends that never collide, and files a reader refuses by name. */
class StoreFilesTest {
  @TempDir Path tmp;

  static StoredRun run(String mainClass, long startedAt, Map<String, Long> byCallpath) {
    List<StoredRun.Cell> cells = new ArrayList<>();
    byCallpath.forEach(
        (path, ns) ->
            cells.add(
                new StoredRun.Cell(
                    "lock_contention",
                    "wait",
                    "/time/wait/lock_contention/",
                    List.of("main @ App.java:1", path),
                    "main",
                    ns)));
    return new StoredRun(
        java.util.UUID.randomUUID().toString(),
        startedAt,
        1000,
        4000,
        "host",
        "jvm",
        mainClass,
        "complete",
        Map.of(),
        cells);
  }

  @Test
  void concurrentWritersBothLandAndLeaveNoTemporaryFile() throws Exception {
    Path store = tmp.resolve("store");
    int writers = 4;
    CyclicBarrier start = new CyclicBarrier(writers);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<List<Path>>> done = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        long at = 1_700_000_000_000_000_000L + i;
        Callable<List<Path>> write =
            () -> {
              start.await();
              return StoreWriter.append(store, run("App", at, Map.of("x @ App.java:2", 10L)));
            };
        done.add(pool.submit(write));
      }
      for (Future<List<Path>> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    try (StoreReader r = StoreReader.open(store, false)) {
      assertEquals(writers, count(r.connection(), "SELECT count(*) FROM runs"));
      assertEquals(writers, count(r.connection(), "SELECT count(DISTINCT run_id) FROM results"));
    }
    try (var all = Files.walk(store)) {
      assertTrue(all.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")));
    }
  }

  @Test
  void damagedFileIsNamedAndSkippedOnRequest() throws Exception {
    Path store = tmp.resolve("store");
    StoreWriter.append(store, run("App", 1L, Map.of("x", 5L)));
    List<Path> written = StoreWriter.append(store, run("App", 2L, Map.of("x", 7L)));
    Path results = written.get(0);
    byte[] bytes = Files.readAllBytes(results);
    Files.write(results, java.util.Arrays.copyOf(bytes, bytes.length / 2)); // cut short
    StoreException e = assertThrows(StoreException.class, () -> StoreReader.open(store, false));
    assertTrue(e.getMessage().startsWith(results.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    try (StoreReader r = StoreReader.open(store, true)) {
      assertEquals(List.of(results), r.skipped());
      assertEquals(5, count(r.connection(), "SELECT sum(time_ns) FROM results"));
    }
  }

  @Test
  void foreignParquetIsNamedAndUnknownVersionRefused() throws Exception {
    Path store = tmp.resolve("store");
    StoreWriter.append(store, run("App", 1L, Map.of("x", 5L)));
    Path foreign = store.resolve("results/date=1970-01-01/other.parquet");
    Path future = store.resolve("runs/date=1970-01-01/future.parquet");
    try (Connection c = StoreEngine.open();
        Statement st = c.createStatement()) {
      st.execute(
          "COPY (SELECT 1 AS a) TO " + Sql.literal(foreign.toString()) + " (FORMAT parquet)");
      st.execute(
          "COPY (SELECT 'r' AS run_id) TO "
              + Sql.literal(future.toString())
              + " (FORMAT parquet, KV_METADATA {'weft.store.schema': '99'})");
    }
    StoreException e = assertThrows(StoreException.class, () -> StoreReader.open(store, false));
    assertTrue(e.getMessage().startsWith(future.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("version 99"), e.getMessage());
    StoreException skipping =
        assertThrows(StoreException.class, () -> StoreReader.open(store, true));
    assertTrue(skipping.getMessage().contains("version 99"), "a newer store is never skipped");
    Files.delete(future);
    StoreException named = assertThrows(StoreException.class, () -> StoreReader.open(store, false));
    assertTrue(named.getMessage().startsWith(foreign.toString()), named.getMessage());
    assertTrue(named.getMessage().contains("not a Weft store file"), named.getMessage());
    try (StoreReader r = StoreReader.open(store, true)) {
      assertEquals(List.of(foreign), r.skipped());
      assertEquals(1, count(r.connection(), "SELECT count(*) FROM results"));
    }
  }

  @Test
  void missingStoreIsOneLine() {
    StoreException e =
        assertThrows(StoreException.class, () -> StoreReader.open(tmp.resolve("none"), false));
    assertTrue(e.getMessage().endsWith("no such store directory"), e.getMessage());
  }

  @Test
  void callPathKeyIsTheFirstEightBytesOfTheFramesSha256() {
    // Values from an independent SHA-256 (Python's hashlib) of the frames joined by '\n'.
    assertEquals(-2039914840885289964L, CallPathKey.of(List.of()));
    assertEquals(
        9064905272360777767L,
        CallPathKey.of(List.of("main @ App.java:10", "synchronized @ App.java:20")));
  }

  static long count(Connection c, String sql) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
