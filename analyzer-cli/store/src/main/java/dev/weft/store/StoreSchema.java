package dev.weft.store;

import java.util.List;

/**
 * The store's tables and their columns (STORE.md). Each Parquet file carries the schema version in
 * its key-value metadata under {@link #VERSION_KEY}; a reader refuses versions it does not know.
 */
public final class StoreSchema {
  /** The version of the layout and columns written by this code. */
  public static final int VERSION = 1;

  /** The versions this code reads. */
  public static final List<Integer> READS = List.of(1);

  /** The Parquet key-value metadata key holding the schema version. */
  public static final String VERSION_KEY = "weft.store.schema";

  /**
   * In a file written by {@code weft store compact}: the names of the files of its directory it
   * replaces, one a line; a reader leaves them out if they are still there.
   */
  public static final String REPLACES_KEY = "weft.store.replaces";

  /** The table a file belongs to, in its metadata. */
  public static final String TABLE_KEY = "weft.store.table";

  /** One row per run. */
  public static final String RUNS = "runs";

  /** One row per property × call path × thread cell of a run. */
  public static final String RESULTS = "results";

  /** One row per wait of a run, from {@code weft export --format parquet}. */
  public static final String WAIT_INTERVALS = "wait_intervals";

  /** One row per event of a run, from {@code weft export --format parquet --events}. */
  public static final String EVENTS = "events";

  /** The tables, each a directory of the store. */
  public static final List<String> TABLES = List.of(RUNS, RESULTS, WAIT_INTERVALS, EVENTS);

  static final String RUNS_COLUMNS =
      "run_id VARCHAR, started_at_ns BIGINT, duration_ns BIGINT, thread_time_ns BIGINT, host VARCHAR,"
          + " jvm VARCHAR, main_class VARCHAR, status VARCHAR, labels MAP(VARCHAR, VARCHAR),"
          + " stored_at_ns BIGINT";

  static final String RESULTS_COLUMNS =
      "run_id VARCHAR, property VARCHAR, parent VARCHAR, property_path VARCHAR, callpath_key"
          + " BIGINT, callpath VARCHAR, thread VARCHAR, time_ns BIGINT, count BIGINT";

  static final String WAIT_INTERVALS_COLUMNS =
      "run_id VARCHAR, thread VARCHAR, ts_ns BIGINT, dur_ns BIGINT, wait_ns BIGINT, kind VARCHAR,"
          + " construct VARCHAR, property VARCHAR, callpath_key BIGINT, callpath VARCHAR,"
          + " object_id BIGINT, blocker_thread VARCHAR";

  static final String EVENTS_COLUMNS =
      "run_id VARCHAR, thread VARCHAR, stream INTEGER, ts_ns BIGINT, kind VARCHAR, f0 BIGINT,"
          + " f1 BIGINT, f2 BIGINT, f3 BIGINT";

  private StoreSchema() {}

  /** The columns of a table, as DuckDB column definitions. */
  public static String columns(String table) {
    return switch (table) {
      case RUNS -> RUNS_COLUMNS;
      case RESULTS -> RESULTS_COLUMNS;
      case WAIT_INTERVALS -> WAIT_INTERVALS_COLUMNS;
      case EVENTS -> EVENTS_COLUMNS;
      default -> throw new IllegalArgumentException(table);
    };
  }
}
