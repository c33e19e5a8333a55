package thirdparty;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.SplittableRandom;

/**
 * HSQLDB in-memory database in MVCC mode, 4 client threads; each transaction updates one of 4 hot
 * rows, reads a 20 000-row table while it holds the row, then commits. A conflicting UPDATE waits
 * inside HSQLDB until the holder's session commits: the waiting session parks on its own latch
 * (org.hsqldb.lib.CountUpDownLatch, an AbstractQueuedSynchronizer of HSQLDB's), not on a JDK lock,
 * and the committing session counts it down. The driver times each UPDATE (where that wait is).
 */
final class HsqldbWorkload {
  static final int THREADS = 4;
  static final int HOT = 4;

  static void run(double scale) throws Exception {
    int txPerThread = (int) (400 * scale);
    String url = "jdbc:hsqldb:mem:bench";
    try (Connection c = DriverManager.getConnection(url, "SA", "");
        Statement s = c.createStatement()) {
      s.execute("SET DATABASE TRANSACTION CONTROL MVCC");
      s.execute("CREATE TABLE hot(id INT PRIMARY KEY, bal BIGINT)");
      s.execute("CREATE TABLE cold(id INT PRIMARY KEY, v BIGINT)");
      for (int i = 0; i < HOT; i++) s.execute("INSERT INTO hot VALUES(" + i + ", 0)");
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO cold VALUES(?, ?)")) {
        for (int i = 1; i <= 20_000; i++) {
          ins.setInt(1, i);
          ins.setLong(2, i);
          ins.addBatch();
        }
        ins.executeBatch();
      }
    }
    Thread[] ts = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      final int id = t;
      ts[t] = new Thread(() -> {
        try (Connection c = DriverManager.getConnection(url, "SA", "")) {
          c.setAutoCommit(false);
          PreparedStatement up = c.prepareStatement("UPDATE hot SET bal = bal + 1 WHERE id = ?");
          PreparedStatement rd = c.prepareStatement("SELECT SUM(v) FROM cold WHERE MOD(v, ?) = 0");
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
      }, "hsqldb-worker-" + t);
    }
    long t0 = System.nanoTime();
    for (Thread t : ts) t.start();
    for (Thread t : ts) t.join();
    Truth.add("driver_join", System.nanoTime() - t0);
    try (Connection c = DriverManager.getConnection(url, "SA", "");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT SUM(bal) FROM hot")) {
      rs.next();
      if (rs.getLong(1) != (long) THREADS * txPerThread) throw new IllegalStateException("lost updates");
      s.execute("SHUTDOWN");
    }
    Truth.print("hsqldb", "hsqldb-worker-", "main");
  }

  private HsqldbWorkload() {}
}
