package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Clients waiting for a server of the same process over loopback sockets. Thread {@code event-loop}
 * serves every connection from one {@code Selector} (non-blocking channels, as Netty does): it
 * accepts the {@code --clients} connections and answers each request (one byte) after working
 * {@code --serve-ms}. Threads {@code client-<i>} each connect with a {@code java.net.Socket}, send
 * {@code --requests} requests one at a time, read each answer from the socket's stream and work
 * {@code --think-ms} before the next. The truth is the loop's time in {@code select} and {@code
 * accept} ({@link TruthKinds#NETWORK_IDLE_NS}) and each client's time in its reads ({@link
 * TruthKinds#IO_WAIT_NS}).
 */
public final class NetworkWait implements Scenario {
  @Override
  public String name() {
    return "network-wait";
  }

  @Override
  public String summary() {
    return "clients blocked in socket reads while a selector event loop serves them";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("clients", 2, 1, 64, "client threads"),
        OptionSpec.integer("requests", 5, 1, 1_000_000, "requests each client sends"),
        OptionSpec.integer("serve-ms", 10, 0, 60_000, "the loop's work per request"),
        OptionSpec.integer("think-ms", 5, 0, 60_000, "a client's work after each answer"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int clients = context.options().intValue("clients");
    int requests = context.options().intValue("requests");
    long serveMs = context.options().longValue("serve-ms");
    long thinkMs = context.options().longValue("think-ms");
    Truth truth = context.truth();
    Work work = context.work();
    long[] checksums = new long[clients + 1];
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      server.configureBlocking(false);
      int port = server.socket().getLocalPort();
      List<String> names = new ArrayList<>(Team.names("client", clients));
      names.add("event-loop");
      Team.run(
          names,
          j -> {
            if (j == clients) {
              checksums[j] = serve(server, clients * requests, serveMs, work, truth);
            } else {
              checksums[j] = ask(port, j, requests, thinkMs, work, truth);
            }
          },
          truth);
    }
    long checksum = 0;
    for (long c : checksums) {
      checksum += c;
    }
    return Work.jsonSafe(checksum);
  }

  /** The event loop: accepts, then answers {@code total} requests. */
  private static long serve(
      ServerSocketChannel server, int total, long serveMs, Work work, Truth truth)
      throws Exception {
    long checksum = 0;
    ByteBuffer in = ByteBuffer.allocate(64);
    try (Selector selector = Selector.open()) {
      server.register(selector, SelectionKey.OP_ACCEPT);
      int served = 0;
      while (served < total) {
        long t0 = System.nanoTime();
        selector.select();
        truth.add(TruthKinds.NETWORK_IDLE_NS, System.nanoTime() - t0);
        for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
          SelectionKey key = it.next();
          it.remove();
          if (key.isAcceptable()) {
            long a0 = System.nanoTime();
            SocketChannel c = server.accept();
            truth.add(TruthKinds.NETWORK_IDLE_NS, System.nanoTime() - a0);
            if (c != null) {
              c.configureBlocking(false);
              c.register(selector, SelectionKey.OP_READ);
            }
          } else if (key.isReadable()) {
            SocketChannel c = (SocketChannel) key.channel();
            in.clear();
            int n = c.read(in);
            if (n < 0) {
              key.cancel();
              c.close();
              continue;
            }
            for (int i = 0; i < n; i++) {
              int request = in.get(i);
              checksum +=
                  work.runBusy(serveMs, request, truth); // a sum: the order clients come in varies
              ByteBuffer answer = ByteBuffer.wrap(new byte[] {(byte) (request + 1)});
              while (answer.hasRemaining()) {
                c.write(answer);
              }
              served++;
            }
          }
        }
      }
      for (SelectionKey key : selector.keys()) {
        if (key.channel() instanceof SocketChannel) {
          key.channel().close();
        }
      }
    }
    return checksum;
  }

  /** A client: {@code requests} requests, each answer read from the socket's stream. */
  private static long ask(int port, int index, int requests, long thinkMs, Work work, Truth truth)
      throws Exception {
    long checksum = 0;
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setTcpNoDelay(true);
      OutputStream out = s.getOutputStream();
      InputStream in = s.getInputStream();
      for (int i = 0; i < requests; i++) {
        out.write(index);
        out.flush();
        long t0 = System.nanoTime();
        int answer = in.read();
        truth.add(TruthKinds.IO_WAIT_NS, System.nanoTime() - t0);
        if (answer != index + 1) {
          throw new IllegalStateException("client-" + index + " got " + answer);
        }
        checksum += answer + work.runBusy(thinkMs, index * 1_000_003L + i, truth);
      }
    }
    return checksum;
  }
}
