package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history the HTML report shows: every value is what the store holds for that run. */
class HistoryTest {
  @TempDir Path tmp;

  private static final String HOT = "hot @ App.java:10";
  private static final String FLAT = "flat @ App.java:20";
  private static final String RARE = "rare @ App.java:30";

  /** A run of App: lock contention (monitor and lock-API children) and execution cells. */
  private static StoredRun run(long startedAt, long hot, long flat, long rare, String commit) {
    List<StoredRun.Cell> cells = new ArrayList<>();
    cells.add(cell("monitor_contention", "/time/lock_contention/monitor_contention/", HOT, hot));
    cells.add(cell("lock_api_contention", "/time/lock_contention/lock_api_contention/", HOT, 7));
    cells.add(cell("lock_contention", "/time/lock_contention/", FLAT, flat));
    if (rare > 0) {
      cells.add(cell("lock_contention", "/time/lock_contention/", RARE, rare));
    }
    cells.add(cell("execution", "/time/execution/", HOT, 1_000));
    return new StoredRun(
        UUID.randomUUID().toString(),
        startedAt,
        1_000,
        4_000,
        "host",
        "jvm",
        "App",
        "complete",
        Map.of("commit", commit),
        cells);
  }

  private static StoredRun.Cell cell(String property, String path, String frame, long ns) {
    String[] ids = path.split("/");
    return new StoredRun.Cell(
        property, ids[ids.length - 2], path, List.of("main @ App.java:1", frame), "t1", ns);
  }

  @Test
  void valuesAreTheStoresSubtreeSumsPerRunAndTheCurrentRunIsMarked() throws Exception {
    Path store = tmp.resolve("store");
    List<StoredRun> runs = new ArrayList<>();
    try (StoreWriter w = StoreWriter.open()) {
      for (int i = 0; i < 6; i++) {
        StoredRun r = run(1_000L * (i + 1), 100 + 50L * i, 40, i == 2 ? 300 : 0, "c" + i);
        runs.add(r);
        w.add(store, r);
      }
      // Another program's runs and a later one never show.
      w.add(
          store,
          new StoredRun(
              UUID.randomUUID().toString(),
              9_000L,
              1,
              1,
              "h",
              "j",
              "Other",
              "complete",
              Map.of(),
              List.of(cell("lock_contention", "/time/lock_contention/", HOT, 999_999))));
    }
    String current = runs.get(4).runId();
    try (StoreReader reader = StoreReader.open(store, false)) {
      Connection c = reader.connection();
      History.Result h = History.of(c, "App", 5, current, List.of("lock_contention", "execution"));
      assertEquals("App", h.mainClass());
      assertEquals(
          runs.subList(1, 6).stream().map(StoredRun::runId).toList(),
          h.runs().stream().map(History.Run::runId).toList(),
          "the last five runs, oldest first");
      assertEquals(3, h.current());
      assertEquals("c2", h.runs().get(1).labels().get("commit"));
      assertEquals(2_000L, h.runs().get(0).startedAtNs());

      History.PropertyHistory lock = h.properties().get(0);
      assertEquals("lock_contention", lock.property());
      for (int i = 0; i < 5; i++) {
        String id = h.runs().get(i).runId();
        assertEquals(sum(c, id, "%/lock_contention/%", null), lock.total().values()[i], "run " + i);
        assertEquals(sum(c, id, "%/execution/%", null), h.properties().get(1).total().values()[i]);
      }
      // The current run's heaviest call paths, heaviest first; RARE has no time in it.
      assertEquals(2, lock.callpaths().size());
      assertEquals("main @ App.java:1 > " + HOT, lock.callpaths().get(0).callpath());
      assertEquals("main @ App.java:1 > " + FLAT, lock.callpaths().get(1).callpath());
      for (int i = 0; i < 5; i++) {
        String id = h.runs().get(i).runId();
        assertEquals(sum(c, id, "%/lock_contention/%", HOT), lock.callpaths().get(0).values()[i]);
      }
      assertArrayEquals(new long[] {157, 207, 257, 307, 357}, lock.callpaths().get(0).values());
      assertTrue(lock.callpaths().get(0).grew(), "the hot path grew");
      assertFalse(lock.callpaths().get(1).grew(), "the flat path did not");

      JsonNode json = h.toJson("store");
      assertEquals(3, json.get("current").asInt());
      assertEquals(5, json.get("runs").size());
      assertEquals("c5", json.get("runs").get(4).get("labels").get("commit").asText());
      assertEquals(
          lock.total().values()[4],
          json.get("properties").get(0).get("total").get("values").get(4).asLong());
      assertTrue(json.get("properties").get(0).get("callpaths").get(0).get("grew").asBoolean());
    }
  }

  @Test
  void oneRunIsAHistoryOfOne() throws Exception {
    Path store = tmp.resolve("store");
    StoredRun only = run(5L, 10, 20, 0, "x");
    StoreWriter.append(store, only);
    try (StoreReader reader = StoreReader.open(store, false)) {
      History.Result h =
          History.of(reader.connection(), "App", 20, only.runId(), List.of("lock_contention"));
      assertEquals(1, h.runs().size());
      assertEquals(0, h.current());
      assertArrayEquals(new long[] {37}, h.properties().get(0).total().values());
    }
  }

  /** The time of the subtree matching {@code like} in one run, at one call path or all. */
  private static long sum(Connection c, String runId, String like, String frame) throws Exception {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT coalesce(sum(time_ns), 0) FROM results WHERE run_id = ? AND property_path"
                + " LIKE ? AND (? IS NULL OR callpath = 'main @ App.java:1 > ' || ?)")) {
      ps.setString(1, runId);
      ps.setString(2, like);
      ps.setString(3, frame);
      ps.setString(4, frame);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
