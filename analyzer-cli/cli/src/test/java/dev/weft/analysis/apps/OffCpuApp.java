package dev.weft.analysis.apps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Two threads for {@code MS} milliseconds each, {@code OffCpuApp MS}: {@code socket-reader} blocks
 * in a socket read (off the CPU, in nothing the agent records) until {@code main} writes a byte,
 * and {@code spinner} computes. Prints one line that does not depend on the run.
 */
public final class OffCpuApp {
  public static void main(String[] args) throws Exception {
    long ms = Long.parseLong(args[0]);
    try (ServerSocket server = new ServerSocket(0)) {
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
      reader.start();
      try (Socket peer = server.accept()) {
        long[] sink = new long[1];
        Thread spinner = new Thread(() -> sink[0] = spin(ms), "spinner");
        spinner.start();
        Thread.sleep(ms);
        peer.getOutputStream().write(7);
        reader.join();
        spinner.join();
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
