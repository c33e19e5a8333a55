package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * More busy threads than cores across an attach: {@code RunningCpuApp LOG AGENT_JAR OPTIONS} starts
 * {@link #busyThreads} threads named {@code busy-N} before it loads the agent into itself. Each
 * computes in short steps, each under a lock of its own (never contended: it never waits, so its
 * time is on a core or waiting for one); a step is a method entered again and again, so its lock is
 * recorded once woven. It detaches after RECORD_MS and writes the steps taken to LOG.
 */
public final class RunningCpuApp {
  public static final long RECORD_MS = 1500;

  /** Twice the cores and two more: each gets at most half a core. */
  public static int busyThreads() {
    return 2 * Runtime.getRuntime().availableProcessors() + 2;
  }

  private static volatile boolean stop;
  private static volatile long sink;

  public static void main(String[] args) throws Exception {
    AtomicLong steps = new AtomicLong();
    List<Thread> busy = new ArrayList<>();
    for (int i = 0; i < busyThreads(); i++) {
      ReentrantLock own = new ReentrantLock();
      Thread t =
          new Thread(
              () -> {
                while (!stop) {
                  step(own);
                  steps.incrementAndGet();
                }
              },
              "busy-" + i);
      t.setDaemon(true);
      t.start();
      busy.add(t);
    }
    Thread.sleep(200); // their loops are running
    SelfAttach.loadAgent(args[1], args[2]);
    Thread.sleep(RECORD_MS);
    SelfAttach.detach();
    stop = true;
    for (Thread t : busy) {
      t.join();
    }
    Files.writeString(Path.of(args[0]), "steps " + steps.get() + "\n");
  }

  private static void step(ReentrantLock own) {
    own.lock();
    try {
      long x = sink;
      for (int i = 0; i < 20_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      sink = x;
    } finally {
      own.unlock();
    }
  }

  private RunningCpuApp() {}
}
