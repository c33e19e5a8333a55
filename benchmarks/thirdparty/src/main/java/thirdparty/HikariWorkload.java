package thirdparty;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * HikariCP 7 in front of an in-memory H2 database: more threads than connections. Six
 * {@code hikari-worker-} threads each run queries through a pool of two connections; a query takes
 * about a millisecond (an aggregate over 20,000 rows), so most of the time four of the six threads
 * wait in {@code HikariDataSource.getConnection()} for a connection another thread holds (HikariCP
 * hands it over through its {@code ConcurrentBag}: a {@code SynchronousQueue.poll} with a timeout).
 * The driver times each {@code getConnection()}: the wait for a connection, which the tools should
 * find, and which is neither a lock nor a monitor.
 */
final class HikariWorkload {
  static final int THREADS = 6;
  static final int CONNECTIONS = 2;

  static void run(double scale) throws Exception {
    int queries = (int) (300 * scale);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:h2:mem:hikari;DB_CLOSE_DELAY=-1");
    config.setMaximumPoolSize(CONNECTIONS);
    config.setMinimumIdle(CONNECTIONS);
    config.setConnectionTimeout(60_000);
    config.setPoolName("bench");
    try (HikariDataSource ds = new HikariDataSource(config)) {
      try (Connection c = ds.getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t(id INT PRIMARY KEY, v INT)");
        s.execute("INSERT INTO t SELECT x, MOD(x * 7919, 1000) FROM SYSTEM_RANGE(1, 20000)");
      }
      List<Thread> workers = new ArrayList<>();
      long[] sums = new long[THREADS];
      for (int w = 0; w < THREADS; w++) {
        int id = w;
        Thread t =
            new Thread(
                () -> {
                  try {
                    sums[id] = queries(ds, id, queries);
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  } finally {
                    Truth.threadDone();
                  }
                },
                "hikari-worker-" + w);
        workers.add(t);
        t.start();
      }
      long t0 = System.nanoTime();
      for (Thread t : workers) {
        t.join();
      }
      Truth.add("join", System.nanoTime() - t0);
      long checksum = 0;
      for (long s : sums) checksum += s;
      if (checksum == 42) System.out.println(); // keep the work
    }
    Truth.print("hikari", "hikari-worker-", "main");
  }

  private static long queries(HikariDataSource ds, int worker, int n) throws Exception {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      try (Connection c = ds.getConnection()) {
        Truth.add("getConnection", System.nanoTime() - t0);
        try (PreparedStatement q =
            c.prepareStatement("SELECT SUM(v * ?) FROM t WHERE MOD(id, 3) = ?")) {
          q.setInt(1, i + worker);
          q.setInt(2, i % 3);
          try (ResultSet r = q.executeQuery()) {
            r.next();
            sum += r.getLong(1);
          }
        }
      }
    }
    return sum;
  }

  private HikariWorkload() {}
}
