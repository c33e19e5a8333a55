package dev.weft.agentit.apps.sync;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * An embedded Tomcat whose connector's executor (Tomcat's own {@code ThreadPoolExecutor}, at most
 * {@link #MAX_THREADS} "http-nio-…-exec-" threads) serves {@link #CLIENTS} clients, each sending
 * {@link #REQUESTS} requests one at a time over a kept-alive connection; the servlet computes for
 * about a millisecond per request.
 */
public final class TomcatThreadPoolApp {
  public static final int MAX_THREADS = 3;
  public static final int CLIENTS = 2;
  public static final int REQUESTS = 10;

  static final AtomicLong SERVED = new AtomicLong();
  static final AtomicLong SINK = new AtomicLong();

  /** Kept: java.util.logging holds loggers weakly; Tomcat logs its start and stop on stderr. */
  private static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

  public static void main(String[] args) throws Exception {
    TOMCAT_LOG.setLevel(Level.SEVERE);
    Path base = Files.createTempDirectory("weftit-tomcat");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    connector.setProperty("maxThreads", String.valueOf(MAX_THREADS));
    connector.setProperty("minSpareThreads", "1");
    tomcat.setConnector(connector);
    Context context = tomcat.addContext("", base.toString());
    Tomcat.addServlet(
        context,
        "work",
        new HttpServlet() {
          @Override
          protected void doGet(HttpServletRequest req, HttpServletResponse resp)
              throws IOException {
            long x = 0;
            for (long end = System.nanoTime() + 1_000_000; System.nanoTime() < end; ) {
              x = x * 31 + 7;
            }
            SINK.addAndGet(x);
            SERVED.incrementAndGet();
            resp.setContentType("text/plain");
            resp.getWriter().write("ok");
          }
        });
    context.addServletMappingDecoded("/", "work");
    tomcat.start();
    URL url = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/").toURL();
    Thread[] clients = new Thread[CLIENTS];
    for (int k = 0; k < CLIENTS; k++) {
      clients[k] =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < REQUESTS; i++) {
                    HttpURLConnection h = (HttpURLConnection) url.openConnection();
                    try (InputStream in = h.getInputStream()) {
                      in.readAllBytes();
                    }
                  }
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              },
              "client-" + k);
      clients[k].start();
    }
    for (Thread c : clients) {
      c.join();
    }
    tomcat.stop();
    tomcat.destroy();
    System.out.println("served " + SERVED.get());
  }
}
