package dev.weft.store;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;

/** SQL text helpers: literals for paths and strings, and errors in one line. */
final class Sql {
  private Sql() {}

  /** A string literal: single quotes, doubled inside. */
  static String literal(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  /** A list literal of file names, for {@code read_parquet} and {@code parquet_kv_metadata}. */
  static String files(List<Path> files) {
    StringBuilder b = new StringBuilder("[");
    for (Path p : files) {
      if (b.length() > 1) {
        b.append(", ");
      }
      b.append(literal(p.toString()));
    }
    return b.append(']').toString();
  }

  /** The first line of an SQL error, without DuckDB's error-type prefix repeated. */
  static String oneLine(SQLException e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage().strip();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl).strip();
  }
}
