package dev.weft.spark;

import dev.weft.store.Trend;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** {@code weft trend --engine spark}: the trend's queries on Spark, its figures by weft-store. */
final class SparkTrend {
  private SparkTrend() {}

  /** The trend of {@code property} over a store already registered in {@code spark}. */
  static Trend.Result of(SparkSession spark, String property, int last, String mainClass)
      throws SQLException {
    return Trend.of(engine(spark), property, last, mainClass);
  }

  /** Runs the trend's queries, with Spark's positional parameters. */
  static Trend.Engine engine(SparkSession spark) {
    return (sql, params) -> {
      List<Object[]> out = new ArrayList<>();
      for (Row r : spark.sql(sql, params).collectAsList()) {
        Object[] row = new Object[r.size()];
        for (int i = 0; i < row.length; i++) {
          row[i] = r.get(i);
        }
        out.add(row);
      }
      return out;
    };
  }
}
