package dev.weft.agentit.apps.sync;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URL;

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

  public static void main(String[] args) throws Exception {
    EmbeddedTomcat tomcat = new EmbeddedTomcat(MAX_THREADS, 1, 1_000_000);
    URL url = tomcat.url;
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
    System.out.println("served " + tomcat.served.get());
  }
}
