package dev.weft.cli;

import dev.weft.store.StoreReader;
import java.io.PrintWriter;
import java.sql.SQLException;

/** What {@code query} and {@code trend} share: the skipped-files warning, SQL errors in a line. */
final class StoreCommands {
  private StoreCommands() {}

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
