package dev.weft.cli.apps;

import dev.weft.api.Region;
import dev.weft.api.Traced;
import dev.weft.api.Weft;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A long-running program for the attach tests. Says {@code ready}, then every few milliseconds
 * calls {@link #tick}, which enters the user region {@code tick}, takes a {@code ReentrantLock} and
 * calls the {@code @Traced} method {@link #step}, until a line arrives on stdin (or, with an
 * argument, that many milliseconds have passed). Then it prints {@code ticks N sum S correct} when
 * S is the sum it must be, so a test sees that it computed correctly whatever was attached and
 * detached meanwhile. With {@code -Dtick.eventLoop=true} a thread {@code event-loop} also waits in
 * a selector's {@code select(5)} over and over in a frame that runs from the start, as a server's
 * event loop does, and a thread {@code listener} in a server socket's {@code accept} that times out
 * after 5 ms, as a listener does.
 */
public final class TickApp {
  private static final ReentrantLock LOCK = new ReentrantLock();
  private static volatile boolean stop;

  private TickApp() {}

  @Traced
  static long step(long i) {
    return 3 * i;
  }

  /**
   * One tick in its own method: a method that is running when the agent attaches keeps its old code
   * until it is called again, so a region in the main loop itself would never be recorded.
   */
  static long tick(long i) {
    try (Region r = Weft.region("tick")) {
      LOCK.lock();
      try {
        return step(i);
      } finally {
        LOCK.unlock();
      }
    }
  }

  public static void main(String[] args) throws Exception {
    long limitNanos = args.length > 0 ? Long.parseLong(args[0]) * 1_000_000L : Long.MAX_VALUE;
    Thread stdin =
        new Thread(
            () -> {
              try {
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                    .readLine();
              } catch (Exception e) {
                // stdin closed: stop as well
              }
              stop = true;
            },
            "stdin");
    stdin.setDaemon(true);
    stdin.start();
    if (Boolean.getBoolean("tick.eventLoop")) {
      Thread loop =
          new Thread(
              () -> {
                try (Selector selector = Selector.open()) {
                  while (!stop) {
                    selector.select(5);
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              },
              "event-loop");
      loop.setDaemon(true);
      loop.start();
      Thread listener =
          new Thread(
              () -> {
                try (ServerSocket server = new ServerSocket(0)) {
                  server.setSoTimeout(5);
                  while (!stop) {
                    try {
                      server.accept().close();
                    } catch (SocketTimeoutException e) {
                      // nobody connects: accept again
                    }
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              },
              "listener");
      listener.setDaemon(true);
      listener.start();
    }
    System.out.println("ready");
    System.out.flush();
    long begin = System.nanoTime();
    long n = 0;
    long sum = 0;
    while (!stop && System.nanoTime() - begin < limitNanos) {
      sum += tick(n);
      n++;
      Thread.sleep(2);
    }
    System.out.println(
        "ticks " + n + " sum " + sum + (sum == 3 * n * (n - 1) / 2 ? " correct" : " WRONG"));
  }
}
