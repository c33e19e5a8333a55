package thirdparty;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.SplittableRandom;

/**
 * H2 as {@link H2Workload}, but 16 clients on virtual threads (JDK 21 or later; called through
 * reflection so that the drivers still compile for 17). The JVM's ThreadMXBean does not see virtual
 * threads, so the ground truth is the driver's own timers: "update" holds the waits for H2's row
 * locks (Object.wait in org.h2.mvstore.tx.Transaction, which unmounts a virtual thread on JDK 24
 * and later).
 */
final class H2VirtualWorkload {
  static final int CLIENTS = 16;
  static final int HOT = 4;

  static void run(double scale) throws Exception {
    int txPerClient = (int) (250 * scale);
    String url = "jdbc:h2:mem:bench;LOCK_TIMEOUT=60000;DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE hot(id INT PRIMARY KEY, bal BIGINT)");
      s.execute("CREATE TABLE cold(id INT PRIMARY KEY, v BIGINT)");
      for (int i = 0; i < HOT; i++) s.execute("INSERT INTO hot VALUES(" + i + ", 0)");
      s.execute("INSERT INTO cold SELECT X, X FROM SYSTEM_RANGE(1, 20000)");
    }
    Method ofVirtual;
    try {
      ofVirtual = Thread.class.getMethod("ofVirtual");
    } catch (NoSuchMethodException e) {
      System.err.println("h2-virtual needs JDK 21 or later (virtual threads)");
      System.exit(2);
      return;
    }
    Object builder = ofVirtual.invoke(null);
    Class<?> builderType = Class.forName("java.lang.Thread$Builder");
    builder = builderType.getMethod("name", String.class, long.class).invoke(builder, "h2-vt-", 0L);
    Method unstarted = builderType.getMethod("unstarted", Runnable.class);
    Thread[] ts = new Thread[CLIENTS];
    for (int t = 0; t < CLIENTS; t++) {
      final int id = t;
      Runnable client = () -> {
        try (Connection c = DriverManager.getConnection(url)) {
          c.setAutoCommit(false);
          PreparedStatement up = c.prepareStatement("UPDATE hot SET bal = bal + 1 WHERE id = ?");
          PreparedStatement rd = c.prepareStatement("SELECT SUM(v) FROM cold WHERE v % ? = 0");
          SplittableRandom r = new SplittableRandom(id);
          for (int i = 0; i < txPerClient; i++) {
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
      };
      ts[t] = (Thread) unstarted.invoke(builder, client);
    }
    long t0 = System.nanoTime();
    for (Thread t : ts) t.start();
    for (Thread t : ts) t.join();
    Truth.add("driver_join", System.nanoTime() - t0);
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT SUM(bal) FROM hot")) {
      rs.next();
      if (rs.getLong(1) != (long) CLIENTS * txPerClient) throw new IllegalStateException("lost updates");
      s.execute("SHUTDOWN");
    }
    Truth.print("h2-virtual", "main");
  }

  private H2VirtualWorkload() {}
}
