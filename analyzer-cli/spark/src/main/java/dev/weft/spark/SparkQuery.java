package dev.weft.spark;

import dev.weft.store.QueryOutput;
import dev.weft.store.StoreException;
import dev.weft.store.TrendLines;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code weft query --engine spark}: one SQL query over a store on Spark, printed as {@code weft
 * query} prints DuckDB's rows. Started in a JVM of its own by {@code weft query --engine spark}, or
 * by {@code spark-submit --class dev.weft.spark.SparkQuery weft-spark.jar [options] DIR SQL} on a
 * cluster (whose master then comes from spark-submit).
 *
 * <p>Arguments: {@code [--master URL] [--format table|csv|json] [--skip-damaged] DIR SQL}; or, for
 * {@code weft trend --engine spark}, {@code --trend ID --last N [--main-class CLASS]} and DIR only,
 * printing the trend as {@link TrendLines}. DIR is a local path or a URI Spark's file systems read
 * (hdfs://, s3a://, file://). Exit code 0, or 2 with one line {@code weft: <message>} on stderr.
 */
public final class SparkQuery {
  static final String USAGE =
      "usage: SparkQuery [--master URL] [--format table|csv|json] [--skip-damaged] DIR SQL,"
          + " or SparkQuery [--master URL] [--skip-damaged] --trend ID --last N [--main-class C]"
          + " DIR";

  private SparkQuery() {}

  public static void main(String[] args) {
    // Spark logs at INFO to stderr unless configured; weft prints its own one-line errors.
    if (System.getProperty("log4j2.configurationFile") == null) {
      System.setProperty("log4j2.configurationFile", "classpath:dev/weft/spark/log4j2.properties");
    }
    int code = run(args, System.out, System.err);
    System.out.flush();
    // Spark leaves non-daemon threads behind.
    System.exit(code);
  }

  /** Runs the query of {@code args}; returns the exit code. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    String master = null;
    QueryOutput.Format format = QueryOutput.Format.TABLE;
    boolean skipDamaged = false;
    String trend = null;
    int last = 20;
    String mainClass = null;
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--master" -> {
          if (++i == args.length) {
            return bad(err, "--master needs a URL; " + USAGE);
          }
          master = args[i];
        }
        case "--format" -> {
          if (++i == args.length) {
            return bad(err, "--format needs table, csv or json; " + USAGE);
          }
          try {
            format = QueryOutput.Format.valueOf(args[i].toUpperCase(Locale.ROOT));
          } catch (IllegalArgumentException e) {
            return bad(err, "unknown format '" + args[i] + "' (table, csv or json)");
          }
        }
        case "--skip-damaged" -> skipDamaged = true;
        case "--trend", "--main-class" -> {
          if (i + 1 == args.length) {
            return bad(err, args[i] + " needs a value; " + USAGE);
          }
          if (args[i].equals("--trend")) {
            trend = args[++i];
          } else {
            mainClass = args[++i];
          }
        }
        case "--last" -> {
          try {
            last = Integer.parseInt(args[++i]);
          } catch (RuntimeException e) {
            return bad(err, "--last needs a number; " + USAGE);
          }
        }
        default -> positional.add(args[i]);
      }
    }
    if (positional.size() != (trend == null ? 2 : 1)) {
      return bad(err, USAGE);
    }
    SparkSession spark = session(master);
    try {
      List<String> skipped = SparkStore.register(spark, positional.get(0), skipDamaged);
      if (!skipped.isEmpty()) {
        int n = skipped.size();
        err.println(
            "weft: warning: skipped "
                + n
                + (n == 1 ? " damaged or foreign file: " : " damaged or foreign files, the first: ")
                + skipped.get(0));
      }
      if (trend != null) {
        out.print(TrendLines.write(SparkTrend.of(spark, trend, last, mainClass)));
      } else {
        out.print(render(spark.sql(positional.get(1)), format));
      }
      return 0;
    } catch (StoreException e) {
      return bad(err, e.getMessage());
    } catch (Exception e) {
      // Spark's analysis and execution errors (AnalysisException, SparkException), which Scala
      // throws without declaring them.
      return bad(err, "query failed: " + SparkStore.oneLine(e));
    } finally {
      spark.stop();
    }
  }

  /**
   * A session: {@code master}, else the one spark-submit configured, else {@code local[*]}. No UI:
   * a query is over in seconds.
   */
  static SparkSession session(String master) {
    SparkSession.Builder b = SparkSession.builder().appName("weft query");
    if (master != null) {
      b.master(master);
    } else if (System.getProperty("spark.master") == null) {
      b.master("local[*]");
    }
    return b.config("spark.ui.enabled", false).getOrCreate();
  }

  /** The rows as weft query prints them. */
  static String render(Dataset<Row> result, QueryOutput.Format format) {
    StructField[] fields = result.schema().fields();
    List<String> names = new ArrayList<>();
    boolean[] numeric = new boolean[fields.length];
    for (int i = 0; i < fields.length; i++) {
      names.add(fields[i].name());
      numeric[i] = fields[i].dataType() instanceof NumericType;
    }
    List<String[]> rows = new ArrayList<>();
    for (Row r : result.collectAsList()) {
      String[] row = new String[fields.length];
      for (int i = 0; i < fields.length; i++) {
        row[i] = text(r.get(i));
      }
      rows.add(row);
    }
    return QueryOutput.render(names, numeric, rows, format);
  }

  /**
   * A value as DuckDB's JDBC driver prints it: numbers and strings alike, a map as {@code {k=v, …}}
   * in key order (the store writes labels in key order), a list as {@code [a, b]}, with DuckDB's
   * quoting of the strings inside them.
   */
  static String text(Object v) {
    if (v instanceof scala.collection.Map<?, ?> m) {
      Map<String, String> sorted = new TreeMap<>();
      CollectionConverters.asJava(m).forEach((k, x) -> sorted.put(nested(k), nested(x)));
      List<String> entries = new ArrayList<>();
      sorted.forEach((k, x) -> entries.add(k + "=" + x));
      return "{" + String.join(", ", entries) + "}";
    }
    if (v instanceof scala.collection.Iterable<?> s) {
      List<String> items = new ArrayList<>();
      CollectionConverters.asJava(s).forEach(x -> items.add(nested(x)));
      return "[" + String.join(", ", items) + "]";
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    return v == null ? null : v.toString();
  }

  /**
   * A value inside a map or list as DuckDB writes it: NULL spelled out; a string quoted, with
   * {@code '} and {@code \} escaped by a backslash, when it is empty, "null", starts or ends with
   * white space or holds one of the characters that delimit nested values.
   */
  static String nested(Object v) {
    String t = text(v);
    if (t == null) {
      return "NULL";
    }
    if (!(v instanceof String) || !needsQuotes(t)) {
      return t;
    }
    return "'" + t.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  private static boolean needsQuotes(String s) {
    if (s.isEmpty()
        || s.equalsIgnoreCase("null")
        || isSpace(s.charAt(0))
        || (s.length() > 1 && isSpace(s.charAt(s.length() - 1)))) {
      return true;
    }
    for (int i = 0; i < s.length(); i++) {
      if ("\"'(),:=[]{}".indexOf(s.charAt(i)) >= 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }

  private static int bad(PrintStream err, String message) {
    err.println("weft: " + message);
    err.flush();
    return 2;
  }
}
