package dev.weft.cli;

import dev.weft.store.StoreReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.regex.Pattern;

/**
 * What {@code query} and {@code trend} share: the store's place (a path, or a URI for Spark), the
 * skipped-files warning, SQL errors in a line.
 */
final class StoreCommands {
  /** A URI with a scheme of two letters or more (so that C:\\dir stays a path). */
  private static final Pattern URI = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+://.*");

  private StoreCommands() {}

  /** Whether {@code dir} is a URI (hdfs://, s3a://, file://), passed to Spark unchanged. */
  static boolean isUri(String dir) {
    return URI.matcher(dir).matches();
  }

  /**
   * The store in {@code dir} as a local path for DuckDB: a path as it is, a file:// URI as its
   * path; any other URI is bad input (Spark's file systems read it, DuckDB's do not).
   */
  static Path local(String dir) {
    if (!isUri(dir)) {
      return Path.of(dir);
    }
    if (dir.regionMatches(true, 0, "file:", 0, 5)) {
      try {
        return Path.of(new URI(dir));
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw new BadInputException(dir + ": not a file URI: " + e.getMessage(), e);
      }
    }
    throw new BadInputException(
        dir + ": a remote store is read with --engine spark (DuckDB reads local directories)");
  }

  /** The store in {@code dir} as Spark is given it: a URI unchanged, a path made absolute. */
  static String forSpark(String dir) {
    return isUri(dir) ? dir : Path.of(dir).toAbsolutePath().toString();
  }

  static void warnSkipped(StoreReader store, PrintWriter err) {
    int n = store.skipped().size();
    if (n > 0) {
      err.println(
          "weft: warning: skipped "
              + n
              + (n == 1 ? " damaged or foreign file: " : " damaged or foreign files, the first: ")
              + store.skipped().get(0));
      err.flush();
    }
  }

  static String oneLine(SQLException e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage().strip();
    int nl = m.indexOf('\n');
    return "query failed: " + (nl < 0 ? m : m.substring(0, nl).strip());
  }
}
