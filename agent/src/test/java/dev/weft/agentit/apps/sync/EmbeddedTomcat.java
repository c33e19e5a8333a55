package dev.weft.agentit.apps.sync;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
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
 * An embedded Tomcat for the apps of Tomcat's executor: one NIO connector on a free local port
 * whose executor (Tomcat's own {@code ThreadPoolExecutor}) has at most {@code maxThreads} workers,
 * and a servlet that computes for {@code workNanos} per request and counts it in {@link #served}.
 */
final class EmbeddedTomcat {
  /** Kept: java.util.logging holds loggers weakly; Tomcat logs its start and stop on stderr. */
  private static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

  static final AtomicLong SINK = new AtomicLong();

  final AtomicLong served = new AtomicLong();
  final URL url;
  private final Tomcat tomcat;

  EmbeddedTomcat(int maxThreads, int minSpareThreads, long workNanos) throws Exception {
    TOMCAT_LOG.setLevel(Level.SEVERE);
    Path base = Files.createTempDirectory("weftit-tomcat");
    tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    connector.setProperty("maxThreads", String.valueOf(maxThreads));
    connector.setProperty("minSpareThreads", String.valueOf(minSpareThreads));
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
            for (long end = System.nanoTime() + workNanos; System.nanoTime() < end; ) {
              x = x * 31 + 7;
            }
            SINK.addAndGet(x);
            served.incrementAndGet();
            resp.setContentType("text/plain");
            resp.getWriter().write("ok");
          }
        });
    context.addServletMappingDecoded("/", "work");
    tomcat.start();
    url = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/").toURL();
  }

  void stop() throws Exception {
    tomcat.stop();
    tomcat.destroy();
  }
}
