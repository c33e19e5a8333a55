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
 * recorded once woven. Once attached it starts two more, {@code late-0} and {@code late-1}, alive
 * at the detach. It detaches after RECORD_MS and writes the steps taken to LOG.
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
      busy.add(busy("busy-" + i, steps));
    }
    Thread.sleep(200); // their loops are running
    SelfAttach.loadAgent(args[1], args[2]);
    for (int i = 0; i < 2; i++) { // started in the recording, alive at its end
      busy.add(busy("late-" + i, steps));
    }
    Thread.sleep(RECORD_MS);
    SelfAttach.detach();
    stop = true;
    for (Thread t : busy) {
      t.join();
    }
    Files.writeString(Path.of(args[0]), "steps " + steps.get() + "\n");
  }

  /** A started thread that steps until {@link #stop}, under a lock of its own. */
  private static Thread busy(String name, AtomicLong steps) {
    ReentrantLock own = new ReentrantLock();
    Thread t =
        new Thread(
            () -> {
              while (!stop) {
                step(own);
                steps.incrementAndGet();
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
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
