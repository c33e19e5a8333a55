package thirdparty;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.SplittableRandom;

/**
 * H2 in-memory database, 4 client threads, each transaction updates one of 4 hot rows, then reads a
 * 20 000-row table while it still holds the row lock, then commits. Conflicting UPDATEs wait for the
 * row lock inside H2 (org.h2.mvstore.tx). The driver times each UPDATE (where the row-lock wait is).
 */
final class H2Workload {
  static final int THREADS = 4;
  static final int HOT = 4;

  static void run(double scale) throws Exception {
    int txPerThread = (int) (400 * scale);
    String url = "jdbc:h2:mem:bench;LOCK_TIMEOUT=60000;DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE hot(id INT PRIMARY KEY, bal BIGINT)");
      s.execute("CREATE TABLE cold(id INT PRIMARY KEY, v BIGINT)");
      for (int i = 0; i < HOT; i++) s.execute("INSERT INTO hot VALUES(" + i + ", 0)");
      s.execute("INSERT INTO cold SELECT X, X FROM SYSTEM_RANGE(1, 20000)");
    }
    Thread[] ts = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      final int id = t;
      ts[t] = new Thread(() -> {
        try (Connection c = DriverManager.getConnection(url)) {
          c.setAutoCommit(false);
          PreparedStatement up = c.prepareStatement("UPDATE hot SET bal = bal + 1 WHERE id = ?");
          PreparedStatement rd = c.prepareStatement("SELECT SUM(v) FROM cold WHERE v % ? = 0");
          SplittableRandom r = new SplittableRandom(id);
          for (int i = 0; i < txPerThread; i++) {
            up.setInt(1, r.nextInt(HOT));
            long t0 = System.nanoTime();
            up.executeUpdate();
            long t1 = System.nanoTime();
            rd.setInt(1, 1 + r.nextInt(7));
            try (ResultSet rs = rd.executeQuery()) {
              rs.next();
            }
            long t2 = System.nanoTime();
            c.commit();
            long t3 = System.nanoTime();
            Truth.add("update", t1 - t0);
            Truth.add("read_in_tx", t2 - t1);
            Truth.add("commit", t3 - t2);
          }
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
        Truth.threadDone();
      }, "h2-worker-" + t);
    }
    long t0 = System.nanoTime();
    for (Thread t : ts) t.start();
    for (Thread t : ts) t.join();
    Truth.add("driver_join", System.nanoTime() - t0);
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT SUM(bal) FROM hot")) {
      rs.next();
      if (rs.getLong(1) != (long) THREADS * txPerThread) throw new IllegalStateException("lost updates");
      s.execute("SHUTDOWN");
    }
    Truth.print("h2", "h2-worker-", "main");
  }

  private H2Workload() {}
}
