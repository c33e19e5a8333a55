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
 * Tomcat's executor across an attach: {@code TomcatThreadPoolAttachApp LOG AGENT_JAR OPTIONS}
 * starts an embedded Tomcat whose connector's executor has {@link #THREADS} workers (all started
 * with the pool), lets {@link #CLIENTS} clients send requests one at a time (each served in about
 * half a millisecond), loads the agent into itself once the workers serve them, records for {@link
 * #RECORD_MS} ms, detaches, stops the clients and writes how many requests were served to LOG. The
 * workers' task loops began before the attach.
 */
public final class TomcatThreadPoolAttachApp {
  public static final int THREADS = 3;
  public static final int CLIENTS = 2;
  public static final long RECORD_MS = 2_000;

  static final AtomicLong SERVED = new AtomicLong();
  static final AtomicLong SINK = new AtomicLong();
  static volatile boolean stop;

  /** Kept: java.util.logging holds loggers weakly; Tomcat logs its start and stop on stderr. */
  private static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

  public static void main(String[] args) throws Exception {
    TOMCAT_LOG.setLevel(Level.SEVERE);
    Path base = Files.createTempDirectory("weftattach-tomcat");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    connector.setProperty("maxThreads", String.valueOf(THREADS));
    connector.setProperty("minSpareThreads", String.valueOf(THREADS));
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
            for (long end = System.nanoTime() + 500_000; System.nanoTime() < end; ) {
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
                  while (!stop) {
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
    Thread.sleep(500); // the workers serve requests in their loops
    SelfAttach.loadAgent(args[1], args[2]);
    Thread.sleep(RECORD_MS);
    SelfAttach.detach();
    stop = true;
    for (Thread c : clients) {
      c.join();
    }
    tomcat.stop();
    tomcat.destroy();
    Files.writeString(Path.of(args[0]), "served " + SERVED.get() + "\n");
  }

  private TomcatThreadPoolAttachApp() {}
}
