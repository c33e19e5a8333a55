package dev.weft.agentit.apps.sync;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

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

  static volatile boolean stop;

  public static void main(String[] args) throws Exception {
    EmbeddedTomcat tomcat = new EmbeddedTomcat(THREADS, THREADS, 500_000);
    URL url = tomcat.url;
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
    Files.writeString(Path.of(args[0]), "served " + tomcat.served.get() + "\n");
  }

  private TomcatThreadPoolAttachApp() {}
}
