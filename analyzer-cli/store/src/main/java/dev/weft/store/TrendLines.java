package dev.weft.store;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Trend.Result} as lines of text, the way the Spark engine's JVM hands it back to {@code
 * weft trend}: the figures are computed there (same code, same queries) and printed here by the
 * usual table. Fields are tab-separated; tabs, line ends and backslashes in strings are escaped;
 * {@code \N} is null; doubles are written exactly (hex).
 */
public final class TrendLines {
  static final String HEADER = "weft-trend 1";

  private TrendLines() {}

  /** The result as text. */
  public static String write(Trend.Result t) {
    StringBuilder b = new StringBuilder(HEADER).append('\n');
    b.append("main\t").append(escape(t.mainClass())).append('\n');
    b.append("runs");
    for (String id : t.runIds()) {
      b.append('\t').append(escape(id));
    }
    b.append('\n');
    for (Trend.Row r : t.rows()) {
      b.append("row\t").append(r.callpathKey());
      b.append('\t').append(escape(r.callpath()));
      b.append('\t').append(Double.toHexString(r.changeNs()));
      b.append('\t').append(Double.toHexString(r.tau()));
      b.append('\t').append(Double.toHexString(r.p()));
      for (long v : r.values()) {
        b.append('\t').append(v);
      }
      b.append('\n');
    }
    return b.toString();
  }

  /** The result written by {@link #write}; a StoreException when it is not such text. */
  public static Trend.Result read(String text) throws StoreException {
    List<String> lines = text.lines().toList();
    if (lines.size() < 3 || !lines.get(0).equals(HEADER)) {
      throw new StoreException("the Spark engine's answer is not a trend: " + first(text));
    }
    try {
      String mainClass = unescape(lines.get(1).split("\t", -1)[1]);
      String[] runs = lines.get(2).split("\t", -1);
      List<String> runIds = new ArrayList<>();
      for (int i = 1; i < runs.length; i++) {
        runIds.add(unescape(runs[i]));
      }
      List<Trend.Row> rows = new ArrayList<>();
      for (String line : lines.subList(3, lines.size())) {
        String[] f = line.split("\t", -1);
        long[] values = new long[f.length - 6];
        for (int i = 0; i < values.length; i++) {
          values[i] = Long.parseLong(f[6 + i]);
        }
        rows.add(
            new Trend.Row(
                Long.parseLong(f[1]),
                unescape(f[2]),
                values,
                Double.parseDouble(f[3]),
                Double.parseDouble(f[4]),
                Double.parseDouble(f[5])));
      }
      return new Trend.Result(mainClass, runIds, rows);
    } catch (RuntimeException e) {
      throw new StoreException("the Spark engine's answer is not a trend: " + first(text), e);
    }
  }

  private static String first(String text) {
    String line = text.lines().findFirst().orElse("(nothing)");
    return line.length() > 80 ? line.substring(0, 80) + "…" : line;
  }

  private static String escape(String s) {
    if (s == null) {
      return "\\N";
    }
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
  }

  private static String unescape(String s) {
    if (s.equals("\\N")) {
      return null;
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(++i);
        b.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
