package dev.weft.store.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.store.StoreEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Files of odd shapes written by {@link TableWriter}, read back by DuckDB value by value. */
class TableWriterTest {
  @TempDir Path tmp;

  private static final int ID = 0;
  private static final int N = 1;
  private static final int NAME = 2;
  private static final int KEY = 3;
  private static final int X = 4;

  /** One row as the test means it; null name or x for nulls. */
  private record Row(long id, int n, String name, long key, Long x) {}

  private final Dictionary names = Dictionary.ofStrings();
  private final Dictionary keys = Dictionary.ofLongs();

  private List<Column> columns() {
    return List.of(
        Column.int64("id", false),
        Column.int32("n"),
        Column.string("name", true, names),
        Column.int64Dict("key", keys),
        Column.int64("x", true));
  }

  private Path write(List<Row> rows, int rowGroup, Codec codec) throws Exception {
    Path target = tmp.resolve("t-" + codec + "-" + rows.size() + "-" + rowGroup + ".parquet");
    Path temp = target.resolveSibling("." + target.getFileName() + ".tmp");
    try (TableWriter w =
        TableWriter.create(
            temp, columns(), Map.of("weft.test", "yes"), codec, RowOrder.AS_ADDED, rowGroup)) {
      for (Row r : rows) {
        RowBlock b = w.block();
        int i = b.add();
        b.longs[ID][i] = r.id();
        b.ints[N][i] = r.n();
        b.ints[NAME][i] = r.name() == null ? -1 : names.id(r.name());
        b.ints[KEY][i] = keys.id(r.key());
        if (r.x() == null) {
          b.setNull(X, i);
        } else {
          b.longs[X][i] = r.x();
        }
      }
      assertTrue(Files.exists(temp) && !Files.exists(target), "renamed only when finished");
      w.finish(target);
    }
    assertFalse(Files.exists(temp));
    return target;
  }

  private static List<Row> read(Path file) throws Exception {
    List<Row> out = new ArrayList<>();
    try (Connection c = StoreEngine.open();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT id, n, name, key, x FROM read_parquet('" + file + "') ORDER BY id")) {
      while (rs.next()) {
        long id = rs.getLong(1);
        int n = rs.getInt(2);
        String name = rs.getString(3);
        long key = rs.getLong(4);
        long x = rs.getLong(5);
        out.add(new Row(id, n, name, key, rs.wasNull() ? null : x));
      }
    }
    return out;
  }

  private static List<List<String>> query(String sql) throws Exception {
    List<List<String>> out = new ArrayList<>();
    try (Connection c = StoreEngine.open();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(rs.getString(i));
        }
        out.add(row);
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(Codec.class)
  void anEmptyFileHasTheColumnsAndNoRows(Codec codec) throws Exception {
    Path f = write(List.of(), 4, codec);
    assertEquals(List.of(), read(f));
    assertEquals(
        List.of(
            List.of("id", "BIGINT"),
            List.of("n", "INTEGER"),
            List.of("name", "VARCHAR"),
            List.of("key", "BIGINT"),
            List.of("x", "BIGINT")),
        query("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '" + f + "')"));
    assertEquals(
        List.of(List.of("weft.test", "yes")),
        query("SELECT decode(key), decode(value) FROM parquet_kv_metadata('" + f + "')"));
  }

  @ParameterizedTest
  @EnumSource(Codec.class)
  void oddValuesRoundTrip(Codec codec) throws Exception {
    String longName = "ab\u00e9".repeat(70_000); // 210 k characters, longer than a page
    List<Row> rows =
        List.of(
            new Row(0, Integer.MIN_VALUE, "main", Long.MIN_VALUE, Long.MAX_VALUE),
            new Row(1, -1, null, 0, null),
            new Row(
                2, Integer.MAX_VALUE, "Arbeiter-\u00fc\u00df-\u7ebf\u7a0b-\ud83e\uddf5", -1, 0L),
            new Row(3, 0, longName, Long.MAX_VALUE, Long.MIN_VALUE),
            new Row(4, 7, "", 42, null),
            new Row(5, 7, "main", 42, -5L));
    assertEquals(rows, read(write(rows, 1 << 16, codec)));
    assertEquals(rows.subList(0, 1), read(write(rows.subList(0, 1), 1 << 16, codec)));
  }

  @Test
  void rowGroupsAndPagesSplitWhereTheyShould() throws Exception {
    List<Row> rows = new ArrayList<>();
    int count = ChunkEncoder.PAGE_ROWS * 2 + 17; // three pages in a group, then a second group
    for (int i = 0; i < count; i++) {
      rows.add(
          new Row(
              i,
              i % 5,
              i % 3 == 0 ? null : "t" + (i % 7),
              i % 11,
              i % 4 == 0 ? null : (long) i * 1_000_003));
    }
    Path f = write(rows, ChunkEncoder.PAGE_ROWS * 2 + 10, Codec.GZIP);
    assertEquals(rows, read(f));
    // Two row groups with their own statistics, as a reader uses them to skip.
    assertEquals(
        List.of(
            List.of("0", "0", String.valueOf(ChunkEncoder.PAGE_ROWS * 2 + 9), "0"),
            List.of(
                "1",
                String.valueOf(ChunkEncoder.PAGE_ROWS * 2 + 10),
                String.valueOf(count - 1),
                "0")),
        query(
            "SELECT row_group_id, stats_min_value, stats_max_value, stats_null_count FROM"
                + " parquet_metadata('"
                + f
                + "') WHERE path_in_schema = 'id' ORDER BY row_group_id"));
    assertEquals(
        List.of(List.of("t0", "t6")),
        query(
            "SELECT stats_min_value, stats_max_value FROM parquet_metadata('"
                + f
                + "') WHERE path_in_schema = 'name' AND row_group_id = 0"));
    assertEquals(
        List.of(List.of("id", "REQUIRED"), List.of("name", "OPTIONAL")),
        query(
            "SELECT name, repetition_type FROM parquet_schema('"
                + f
                + "') WHERE name IN ('id', 'name') ORDER BY name"));
  }

  @Test
  void anAllNullChunkHasNoMinOrMax() throws Exception {
    List<Row> rows = List.of(new Row(0, 0, null, 1, null), new Row(1, 0, null, 1, null));
    Path f = write(rows, 8, Codec.UNCOMPRESSED);
    assertEquals(rows, read(f));
    List<List<String>> stats =
        query(
            "SELECT stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata('"
                + f
                + "') WHERE path_in_schema = 'x'");
    assertNull(stats.get(0).get(0));
    assertEquals("2", stats.get(0).get(2));
  }

  @Test
  void anUnfinishedFileLeavesNothing() throws Exception {
    Path temp = tmp.resolve(".unfinished.tmp");
    try (TableWriter w =
        TableWriter.create(temp, columns(), Map.of(), Codec.GZIP, RowOrder.AS_ADDED, 4)) {
      RowBlock b = w.block();
      int i = b.add();
      b.ints[NAME][i] = -1;
      b.ints[KEY][i] = keys.id(1);
    }
    assertFalse(Files.exists(temp));
    try (var files = Files.list(tmp)) {
      assertEquals(0, files.count());
    }
  }
}
