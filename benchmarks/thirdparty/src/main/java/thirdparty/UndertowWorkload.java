package thirdparty;

import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.BlockingHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;

/**
 * Undertow 2.4: two XNIO I/O threads ("XNIO-1 I/O-") and a worker pool of up to 8 threads
 * ("XNIO-1 task-"), jboss-threads' EnhancedQueueExecutor, to which a BlockingHandler dispatches
 * each request; the handler computes ~100 us and then updates shared statistics under one monitor
 * for ~10 us. Four client threads send requests one at a time with HttpURLConnection (kept alive)
 * and block in the socket read for the answer. The driver times each client's requests
 * ("client.read") and the handler's wait for the statistics' monitor ("handler.lock_wait").
 */
final class UndertowWorkload {
  static volatile long sink;
  private static final Object STATS = new Object();
  private static long served;

  static void spin(long ns) {
    long end = System.nanoTime() + ns;
    long x = 0;
    while (System.nanoTime() < end) x++;
    sink += x;
  }

  static void run(double scale) throws Exception {
    int perClient = (int) (8_000 * scale);
    HttpHandler handler =
        new BlockingHandler(
            (HttpServerExchange exchange) -> {
              spin(100_000);
              long w0 = System.nanoTime();
              synchronized (STATS) {
                Truth.add("handler.lock_wait", System.nanoTime() - w0);
                served++;
                spin(10_000);
              }
              exchange.getResponseSender().send("ok");
            });
    Undertow server =
        Undertow.builder()
            .addHttpListener(0, "127.0.0.1")
            .setIoThreads(2)
            .setWorkerThreads(8)
            .setHandler(handler)
            .build();
    server.start();
    try {
      int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
      URL url = new URL("http://127.0.0.1:" + port + "/");
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
                "undertow-client-" + k);
        clients.add(c);
        c.start();
      }
      for (Thread c : clients) c.join();
      Truth.add("driver_total", System.nanoTime() - t0);
      synchronized (STATS) {
        if (served != 4L * perClient) throw new IllegalStateException("served " + served);
      }
      Truth.print("undertow", "undertow-client-", "XNIO-", "main");
    } finally {
      server.stop();
    }
  }

  private UndertowWorkload() {}
}
