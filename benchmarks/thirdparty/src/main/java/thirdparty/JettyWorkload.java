package thirdparty;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty 12: an HTTP server (a QueuedThreadPool of up to 8 threads "jetty-", one acceptor, one
 * selector) whose handler computes ~100 us per request, and four client threads that each send
 * requests one at a time with HttpURLConnection (kept alive) and block in the socket read for the
 * answer. The server's pool is idle most of the time: its workers poll their job queue, its
 * reserved threads wait on a semaphore, its scheduler waits for idle timeouts it arms and cancels.
 * The driver times each client's request from sending it to reading the whole answer
 * ("client.read": the socket reads and the small write before them).
 */
final class JettyWorkload {
  static volatile long sink;

  static void spin(long ns) {
    long end = System.nanoTime() + ns;
    long x = 0;
    while (System.nanoTime() < end) x++;
    sink += x;
  }

  static void run(double scale) throws Exception {
    int perClient = (int) (8_000 * scale);
    QueuedThreadPool pool = new QueuedThreadPool(8, 2);
    pool.setName("jetty");
    Server server = new Server(pool);
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            spin(100_000);
            response.getHeaders().put("Content-Type", "text/plain");
            Content.Sink.write(response, true, "ok", callback);
            return true;
          }
        });
    server.start();
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
                "jetty-client-" + k);
        clients.add(c);
        c.start();
      }
      for (Thread c : clients) c.join();
      Truth.add("driver_total", System.nanoTime() - t0);
      Truth.print("jetty", "jetty-client-", "jetty-", "Scheduler-", "main");
    } finally {
      server.stop();
    }
  }

  private JettyWorkload() {}
}
