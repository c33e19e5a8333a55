package dev.weft.analysis.apps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Threads blocked for {@code MS} milliseconds each, {@code OffCpuApp MS}, until {@code main} writes
 * to them: {@code socket-reader} in a read of a socket's stream (recorded: io_wait), {@code
 * channel-reader} in a blocking socket channel's read (off the CPU in nothing the agent records),
 * and {@code event-loop} in a selector's select, for half as long again (recorded: network_idle).
 * {@code spinner} computes for {@code MS}. Prints lines that do not depend on the run.
 */
public final class OffCpuApp {
  public static void main(String[] args) throws Exception {
    long ms = Long.parseLong(args[0]);
    try (ServerSocket server = new ServerSocket(0);
        ServerSocketChannel channels =
            ServerSocketChannel.open().bind(new InetSocketAddress("localhost", 0))) {
      Thread reader =
          new Thread(
              () -> {
                try (Socket s = new Socket("localhost", server.getLocalPort())) {
                  System.out.println("read " + s.getInputStream().read());
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              },
              "socket-reader");
      Thread channelReader =
          new Thread(
              () -> {
                try (SocketChannel c = SocketChannel.open(channels.getLocalAddress())) {
                  ByteBuffer b = ByteBuffer.allocate(1);
                  c.read(b);
                  System.out.println("channel read " + b.get(0));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              },
              "channel-reader");
      Thread loop =
          new Thread(
              () -> {
                try (Selector selector = Selector.open()) {
                  System.out.println("selected " + selector.select(ms + ms / 2));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              },
              "event-loop");
      reader.start();
      channelReader.start();
      try (Socket peer = server.accept();
          SocketChannel channelPeer = channels.accept()) {
        long[] sink = new long[1];
        Thread spinner = new Thread(() -> sink[0] = spin(ms), "spinner");
        spinner.start();
        loop.start();
        Thread.sleep(ms);
        peer.getOutputStream().write(7);
        channelPeer.write(ByteBuffer.wrap(new byte[] {7}));
        reader.join();
        channelReader.join();
        spinner.join();
        loop.join();
        System.out.println(sink[0] == 42 ? "spun!" : "spun");
      }
    }
  }

  private static long spin(long ms) {
    long end = System.nanoTime() + ms * 1_000_000L;
    long x = 1;
    while (System.nanoTime() < end) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x;
  }
}
