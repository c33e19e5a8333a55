package dev.weft.agentit.apps.sync;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.Selector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Network calls in progress when the agent attaches, which the JVM calls RUNNABLE: {@code
 * NetworkWaitsAtAttachApp LOG AGENT_JAR OPTIONS} starts {@code acceptor} (a {@code
 * ServerSocket.accept} that nobody connects to until after the detach), {@code selector} (a {@code
 * Selector.select()} woken only after the detach), {@code reader} (a socket stream's read that gets
 * its byte only after the detach) and {@code early-acceptor} (an accept whose client connects
 * RELEASE_MS after the attach, after which the thread computes for 300 ms), then loads the agent
 * into itself and detaches after RECORD_MS. LOG gets, per thread, "NAME T" (System.nanoTime) when
 * its call returned, and "attached T", "released T" and "detached T".
 */
public final class NetworkWaitsAtAttachApp {
  public static final long RECORD_MS = 1500;
  public static final long RELEASE_MS = 700;

  public static void main(String[] args) throws Exception {
    List<String> log = new ArrayList<>();
    InetAddress local = InetAddress.getLoopbackAddress();
    ServerSocket server = new ServerSocket(0, 50, local);
    ServerSocket early = new ServerSocket(0, 50, local);
    ServerSocket dataServer = new ServerSocket(0, 50, local);
    Socket client = new Socket(local, dataServer.getLocalPort());
    Socket dataPeer = dataServer.accept();
    Selector selector = Selector.open();
    List<Thread> threads = new ArrayList<>();
    threads.add(start("acceptor", log, () -> server.accept().close(), 0));
    threads.add(start("selector", log, selector::select, 0));
    threads.add(
        start(
            "reader",
            log,
            () -> {
              InputStream in = client.getInputStream();
              in.read();
            },
            0));
    threads.add(start("early-acceptor", log, () -> early.accept().close(), 300));
    Thread.sleep(300); // all four are in their calls
    long attached = System.nanoTime();
    SelfAttach.loadAgent(args[1], args[2]);
    Thread.sleep(Math.max(0, RELEASE_MS - (System.nanoTime() - attached) / 1_000_000));
    long released = System.nanoTime();
    new Socket(local, early.getLocalPort()).close();
    Thread.sleep(Math.max(0, RECORD_MS - (System.nanoTime() - attached) / 1_000_000));
    SelfAttach.detach();
    long detached = System.nanoTime();
    new Socket(local, server.getLocalPort()).close();
    selector.wakeup();
    dataPeer.getOutputStream().write(1);
    for (Thread t : threads) {
      t.join();
    }
    synchronized (log) {
      log.add("attached " + attached);
      log.add("released " + released);
      log.add("detached " + detached);
      Files.write(Path.of(args[0]), log);
    }
    for (AutoCloseable c : List.of(client, dataPeer, dataServer, server, early, selector)) {
      c.close();
    }
  }

  interface Call {
    void run() throws Exception;
  }

  /** A thread that makes {@code call}, logs when it returned, then computes for spinMs. */
  private static Thread start(String name, List<String> log, Call call, long spinMs) {
    Thread t =
        new Thread(
            () -> {
              try {
                call.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
              long returned = System.nanoTime();
              synchronized (log) {
                log.add(name + " " + returned);
              }
              spin(spinMs); // no event: the open call's end is seen from the CPU it takes
            },
            name);
    t.start();
    return t;
  }

  private static volatile long sink;

  private static void spin(long ms) {
    long x = 0;
    for (long end = System.nanoTime() + ms * 1_000_000; System.nanoTime() < end; ) {
      x = x * 31 + 7;
    }
    sink = x;
  }

  private NetworkWaitsAtAttachApp() {}
}
