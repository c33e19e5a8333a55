package thirdparty;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * Tomcat 11 embedded: an HTTP/1.1 NIO connector whose executor is Tomcat's own copy of
 * ThreadPoolExecutor (up to 8 "http-nio-…-exec-" threads taking requests from its TaskQueue, a
 * LinkedBlockingQueue of its own), one acceptor and one poller thread, and a servlet that computes
 * ~100 us per request and then updates shared statistics under one monitor for ~10 us. Four client
 * threads send requests one at a time with HttpURLConnection (kept alive) and block in the socket
 * read for the answer. The driver times each client's requests ("client.read") and the servlet's
 * wait for the statistics' monitor ("servlet.lock_wait": from before the synchronized block to its
 * first statement).
 */
final class TomcatWorkload {
  static volatile long sink;
  private static final Object STATS = new Object();
  private static long served;

  /** Kept: java.util.logging holds its loggers weakly; Tomcat's start-up and leak-check lines go to stderr. */
  private static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

  static void spin(long ns) {
    long end = System.nanoTime() + ns;
    long x = 0;
    while (System.nanoTime() < end) x++;
    sink += x;
  }

  static void run(double scale) throws Exception {
    TOMCAT_LOG.setLevel(Level.SEVERE);
    int perClient = (int) (8_000 * scale);
    Path base = Files.createTempDirectory("weft-tomcat");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    connector.setProperty("maxThreads", "8");
    connector.setProperty("minSpareThreads", "2");
    tomcat.setConnector(connector);
    Context context = tomcat.addContext("", base.toString());
    Tomcat.addServlet(
        context,
        "bench",
        new HttpServlet() {
          @Override
          protected void doGet(HttpServletRequest req, HttpServletResponse resp)
              throws IOException {
            spin(100_000);
            long w0 = System.nanoTime();
            synchronized (STATS) {
              Truth.add("servlet.lock_wait", System.nanoTime() - w0);
              served++;
              spin(10_000);
            }
            resp.setContentType("text/plain");
            resp.getWriter().write("ok");
          }
        });
    context.addServletMappingDecoded("/", "bench");
    tomcat.start();
    try {
      URL url = new URL("http://127.0.0.1:" + connector.getLocalPort() + "/");
      List<Thread> clients = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int k = 0; k < 4; k++) {
        Thread c =
            new Thread(
                () -> {
                  long readNs = 0;
                  try {
                    for (int i = 0; i < perClient; i++) {
                      long r0 = System.nanoTime();
                      HttpURLConnection h = (HttpURLConnection) url.openConnection();
                      try (InputStream in = h.getInputStream()) {
                        if (in.readAllBytes().length != 2) throw new IllegalStateException("answer");
                      }
                      readNs += System.nanoTime() - r0;
                    }
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                  Truth.add("client.read", readNs);
                  Truth.threadDone();
                },
                "tomcat-client-" + k);
        clients.add(c);
        c.start();
      }
      for (Thread c : clients) c.join();
      Truth.add("driver_total", System.nanoTime() - t0);
      synchronized (STATS) {
        if (served != 4L * perClient) throw new IllegalStateException("served " + served);
      }
      Truth.print("tomcat", "tomcat-client-", "http-nio-", "Catalina-", "main");
    } finally {
      tomcat.stop();
      tomcat.destroy();
    }
  }

  private TomcatWorkload() {}
}
