package dev.weft.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** An SQL result as an aligned table, CSV (RFC 4180) or a JSON array of objects. */
public final class QueryOutput {
  /** The output formats of {@code weft query}. */
  public enum Format {
    TABLE,
    CSV,
    JSON
  }

  private QueryOutput() {}

  /** The rows of {@code rs} in {@code format}, ending with a newline. */
  public static String render(ResultSet rs, Format format) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<String> names = new ArrayList<>();
    boolean[] numeric = new boolean[n];
    for (int i = 0; i < n; i++) {
      names.add(md.getColumnLabel(i + 1));
      numeric[i] =
          isNumeric(md.getColumnType(i + 1)) || isUnsignedOrHuge(md.getColumnTypeName(i + 1));
    }
    List<String[]> rows = new ArrayList<>();
    while (rs.next()) {
      String[] row = new String[n];
      for (int i = 0; i < n; i++) {
        row[i] = rs.getString(i + 1);
      }
      rows.add(row);
    }
    return render(names, numeric, rows, format);
  }

  /**
   * Rows already read (another engine's), in {@code format}, ending with a newline.
   *
   * @param numeric which columns are numbers (right-aligned, unquoted in JSON)
   * @param rows each row's values as the engine prints them, null for null
   */
  public static String render(
      List<String> names, boolean[] numeric, List<String[]> rows, Format format) {
    return switch (format) {
      case TABLE -> table(names, numeric, rows);
      case CSV -> csv(names, rows);
      case JSON -> json(names, numeric, rows);
    };
  }

  private static boolean isNumeric(int type) {
    return switch (type) {
      case Types.TINYINT,
              Types.SMALLINT,
              Types.INTEGER,
              Types.BIGINT,
              Types.FLOAT,
              Types.REAL,
              Types.DOUBLE,
              Types.DECIMAL,
              Types.NUMERIC ->
          true;
      default -> false;
    };
  }

  /** DuckDB's integer types that JDBC has no type code for (sum() of BIGINT is a HUGEINT). */
  private static boolean isUnsignedOrHuge(String typeName) {
    return typeName != null && typeName.matches("U?(HUGEINT|BIGINT|INTEGER|SMALLINT|TINYINT)");
  }

  private static String table(List<String> names, boolean[] numeric, List<String[]> rows) {
    int n = names.size();
    int[] width = new int[n];
    for (int i = 0; i < n; i++) {
      width[i] = names.get(i).length();
      for (String[] r : rows) {
        width[i] = Math.max(width[i], shown(r[i]).length());
      }
    }
    StringBuilder b = new StringBuilder();
    line(b, names.toArray(new String[0]), width, new boolean[n]);
    String[] rule = new String[n];
    for (int i = 0; i < n; i++) {
      rule[i] = "-".repeat(width[i]);
    }
    line(b, rule, width, new boolean[n]);
    for (String[] r : rows) {
      line(b, r, width, numeric);
    }
    b.append("(").append(rows.size()).append(rows.size() == 1 ? " row)\n" : " rows)\n");
    return b.toString();
  }

  private static String shown(String s) {
    return s == null ? "NULL" : s;
  }

  private static void line(StringBuilder b, String[] cells, int[] width, boolean[] right) {
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      String s = shown(cells[i]);
      String pad = " ".repeat(width[i] - s.length());
      l.append(i == 0 ? "" : "  ").append(right[i] ? pad + s : s + pad);
    }
    b.append(l.toString().stripTrailing()).append('\n');
  }

  private static String csv(List<String> names, List<String[]> rows) {
    StringBuilder b = new StringBuilder();
    b.append(String.join(",", names.stream().map(QueryOutput::csvField).toList())).append("\r\n");
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        b.append(i == 0 ? "" : ",").append(r[i] == null ? "" : csvField(r[i]));
      }
      b.append("\r\n");
    }
    return b.toString();
  }

  private static String csvField(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  private static String json(List<String> names, boolean[] numeric, List<String[]> rows) {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
      g.writeStartArray();
      for (String[] r : rows) {
        g.writeStartObject();
        for (int i = 0; i < r.length; i++) {
          g.writeFieldName(names.get(i));
          if (r[i] == null) {
            g.writeNull();
          } else if (numeric[i] && !r[i].equals("NaN") && !r[i].contains("Infinity")) {
            g.writeNumber(r[i]); // as the engine printed it: exact for 128-bit sums
          } else {
            g.writeString(r[i]);
          }
        }
        g.writeEndObject();
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to a string", e);
    }
    return w + "\n";
  }
}
