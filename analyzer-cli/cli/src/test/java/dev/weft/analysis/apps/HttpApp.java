package dev.weft.analysis.apps;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code HttpApp REQUESTS MS}: two threads {@code http-client-<i>} each send REQUESTS requests with
 * the JDK's {@code HttpClient.send} to the JDK's HTTP server of the same process, which answers
 * each after sleeping MS. Between requests the client's selector thread and the server's dispatcher
 * wait in the JDK's own selects. Prints one line that does not depend on the run.
 */
public final class HttpApp {
  public static void main(String[] args) throws Exception {
    int requests = Integer.parseInt(args[0]);
    long ms = Long.parseLong(args[1]);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          try {
            Thread.sleep(ms);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          byte[] body = "ok".getBytes();
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    ExecutorService handlers = Executors.newFixedThreadPool(2);
    server.setExecutor(handlers);
    server.start();
    HttpClient client = HttpClient.newHttpClient();
    URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    List<Thread> clients = new ArrayList<>();
    int[] ok = new int[2];
    for (int k = 0; k < 2; k++) {
      int index = k;
      Thread t =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < requests; i++) {
                    HttpRequest request = HttpRequest.newBuilder(uri).build();
                    if (client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()
                        == 200) {
                      ok[index]++;
                    }
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              },
              "http-client-" + k);
      clients.add(t);
      t.start();
    }
    for (Thread t : clients) {
      t.join();
    }
    server.stop(0);
    handlers.shutdown();
    System.out.println("answered " + (ok[0] + ok[1] == 2 * requests));
    System.exit(0); // the client's selector thread would keep the JVM alive for a while
  }
}
