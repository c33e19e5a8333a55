package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.AnalysisResult.PropertyResult;
import dev.weft.analysis.SyntheticTrace;
import dev.weft.store.parquet.Codec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trace exported as wait intervals and events: the intervals sum to the analysis' waits. */
class TraceExportTest {
  @TempDir static Path tmp;

  private static Path trace;
  private static long events;
  private static TraceExport.Result all;
  private static Path store;

  /** The properties whose every cell comes from waits (the whole of each is in wait_intervals). */
  private static final Set<String> WAITS =
      Set.of(
          "join_wait",
          "barrier_wait",
          "lock_contention",
          "monitor_contention",
          "lock_api_contention",
          "spin_wait",
          "condition_wait",
          "pool_queue_wait");

  @BeforeAll
  static void export() throws Exception {
    trace = tmp.resolve("trace");
    events = SyntheticTrace.write(trace, 4, 60_000, new int[] {2, 2, 2, 2});
    store = tmp.resolve("store");
    all =
        TraceExport.export(
            trace,
            store,
            new TraceExport.Options(0, Long.MAX_VALUE, (s, n) -> true, true, Map.of("k", "v")));
    for (Path f : all.files()) {
      assertTrue(Files.isRegularFile(f), f.toString());
    }
  }

  @Test
  void waitIntervalsSumToTheAnalysisWaitsAndCountsMatchTheResults() throws Exception {
    try (StoreReader r = StoreReader.open(store, false)) {
      int checked = 0;
      for (PropertyResult p : all.analysis().properties()) {
        long intervals =
            sum(
                r,
                "SELECT coalesce(sum(wait_ns), 0) FROM wait_intervals WHERE property = ?",
                p.id());
        if (WAITS.contains(p.id())) {
          assertEquals(p.exclusiveNs(), intervals, p.id());
          assertEquals(
              sum(r, "SELECT count(*) FROM wait_intervals WHERE property = ?", p.id()),
              sum(r, "SELECT coalesce(sum(count), 0) FROM results WHERE property = ?", p.id()),
              p.id() + ": results.count is the number of its wait intervals");
          checked += p.exclusiveNs() > 0 ? 1 : 0;
        } else if (p.id().equals("thread_management")) {
          assertEquals(
              p.causes().get("join_ns") + p.causes().get("start_ns"),
              intervals,
              "the join and thread start parts of thread management");
        } else {
          assertEquals(0, intervals, p.id() + " is not a wait");
        }
      }
      assertTrue(checked >= 3, "the synthetic trace has several kinds of wait: " + checked);
      assertEquals(
          all.waitRows(), sum(r, "SELECT count(*) FROM wait_intervals WHERE run_id = ?", runId()));
      assertEquals(
          0,
          sum(
              r,
              "SELECT count(*) FROM wait_intervals WHERE wait_ns > dur_ns OR dur_ns < 0"
                  + " OR run_id <> ?",
              runId()));
      assertEquals(
          sum(r, "SELECT count(*) FROM results WHERE run_id = ? AND count IS NULL", runId()),
          sum(
              r,
              "SELECT count(*) FROM results WHERE run_id = ? AND property IN ('execution',"
                  + " 'idle_threads', 'limited_parallelism', 'thread_management', 'time',"
                  + " 'work_imbalance', 'delay_cost', 'delay_cost_barrier', 'delay_cost_lock',"
                  + " 'delay_cost_join', 'delay_cost_long_term')"
                  + " AND count IS NULL",
              runId()),
          "every wait property's cell has a count");
    }
  }

  @Test
  void callPathKeysAreTheResultsKeys() throws Exception {
    try (StoreReader r = StoreReader.open(store, false)) {
      assertEquals(
          0,
          sum(
              r,
              "SELECT count(*) FROM wait_intervals w WHERE run_id = ? AND NOT EXISTS (SELECT 1"
                  + " FROM results x WHERE x.run_id = w.run_id AND x.callpath_key ="
                  + " w.callpath_key AND x.property = w.property AND x.thread = w.thread)",
              runId()));
    }
  }

  @Test
  void eventsAreAllThereSortedByBucketThreadAndTime() throws Exception {
    assertEquals(events, all.eventRows());
    try (StoreReader r = StoreReader.open(store, false)) {
      assertEquals(events, sum(r, "SELECT count(*) FROM events WHERE run_id = ?", runId()));
      assertEquals(
          0,
          sum(
              r,
              "SELECT count(*) FROM (SELECT ts_ns, thread, lag(ts_ns) OVER () AS pt,"
                  + " lag(thread) OVER () AS pth FROM events) WHERE ts_ns // 1000000000 = pt //"
                  + " 1000000000 AND thread = pth AND ts_ns < pt AND ?::VARCHAR IS NOT NULL",
              runId()));
    }
  }

  @Test
  void windowAndThreadsNarrowTheExport() throws Exception {
    Path narrow = tmp.resolve("narrow");
    TraceExport.Result one =
        TraceExport.export(
            trace,
            narrow,
            new TraceExport.Options(0, Long.MAX_VALUE, (s, n) -> n.endsWith("1"), false, Map.of()));
    try (StoreReader r = StoreReader.open(narrow, false)) {
      assertEquals(
          1, sum(r, "SELECT count(DISTINCT thread) FROM wait_intervals WHERE ? IS NOT NULL", "x"));
      assertEquals(0, sum(r, "SELECT count(*) FROM events WHERE ? IS NOT NULL", "x"));
    }
    assertTrue(one.waitRows() > 0 && one.waitRows() < all.waitRows());
  }

  @Test
  void anEmptyWindowGivesTablesWithoutRows() throws Exception {
    Path empty = tmp.resolve("empty");
    TraceExport.Result none =
        TraceExport.export(
            trace,
            empty,
            new TraceExport.Options(
                Long.MAX_VALUE / 2, Long.MAX_VALUE, (s, n) -> true, true, Map.of()));
    assertEquals(0, none.waitRows());
    assertEquals(0, none.eventRows());
    try (StoreReader r = StoreReader.open(empty, false)) {
      assertEquals(0, sum(r, "SELECT count(*) FROM wait_intervals WHERE ? IS NOT NULL", "x"));
      assertEquals(0, sum(r, "SELECT count(*) FROM events WHERE ? IS NOT NULL", "x"));
      assertEquals(1, sum(r, "SELECT count(*) FROM runs WHERE run_id = ?", none.run().runId()));
    }
  }

  @Test
  void uncompressedAndGzipFilesHoldTheSameRows() throws Exception {
    Path plain = tmp.resolve("plain");
    TraceExport.Result p =
        TraceExport.export(
            trace,
            plain,
            new TraceExport.Options(
                0, Long.MAX_VALUE, (s, n) -> true, false, Map.of(), Codec.UNCOMPRESSED));
    String columns =
        "thread, ts_ns, dur_ns, wait_ns, kind, construct, property, callpath_key, callpath,"
            + " object_id, blocker_thread";
    try (StoreReader a = StoreReader.open(plain, false);
        StoreReader b = StoreReader.open(store, false)) {
      assertEquals(
          rows(b, "SELECT " + columns + " FROM wait_intervals ORDER BY ALL"),
          rows(a, "SELECT " + columns + " FROM wait_intervals ORDER BY ALL"));
    }
    assertTrue(
        Files.size(p.files().get(0)) > Files.size(all.files().get(0)),
        "gzip makes the file smaller");
  }

  private static java.util.List<String> rows(StoreReader r, String sql) throws SQLException {
    java.util.List<String> out = new java.util.ArrayList<>();
    try (PreparedStatement ps = r.connection().prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(rs.getString(i)).append('|');
        }
        out.add(row.toString());
      }
    }
    return out;
  }

  private static String runId() {
    return all.run().runId();
  }

  private static long sum(StoreReader r, String sql, String arg) throws SQLException {
    try (PreparedStatement ps = r.connection().prepareStatement(sql)) {
      ps.setString(1, arg);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
