package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread pool workers across an attach: {@code RunningPoolApp LOG AGENT_JAR OPTIONS} starts the two
 * workers of pool {@code before-} (their {@code runWorker} loop runs the JDK's original code for
 * the whole recording) and of pool {@code wrapped-} (whose thread factory wraps the worker in a
 * runnable of its own), loads the agent into itself, waits for the classes to be woven, starts pool
 * {@code after-} (its workers run the woven loop) and runs TASKS tasks of about 2 ms on each pool,
 * one at a time, then detaches and writes {@code done} to LOG.
 */
public final class RunningPoolApp {
  public static final int TASKS = 20;

  private static volatile double sink;

  public static void main(String[] args) throws Exception {
    ExecutorService before = Executors.newFixedThreadPool(2, named("before-"));
    before.submit(() -> {}).get(); // each submission starts one more worker, up to two
    before.submit(() -> {}).get();
    ExecutorService wrapped = Executors.newFixedThreadPool(2, wrapping("wrapped-"));
    wrapped.submit(() -> {}).get();
    wrapped.submit(() -> {}).get();
    SelfAttach.loadAgent(args[1], args[2]);
    Thread.sleep(1500); // the classes loaded before the attach are woven meanwhile
    ExecutorService after = Executors.newFixedThreadPool(2, named("after-"));
    for (int i = 0; i < TASKS; i++) {
      before.submit(RunningPoolApp::work).get();
      wrapped.submit(RunningPoolApp::work).get();
      after.submit(RunningPoolApp::work).get();
    }
    // get() returns as the task completes its future, inside its run(): its end comes after.
    Thread.sleep(200);
    SelfAttach.detach();
    before.shutdown();
    wrapped.shutdown();
    after.shutdown();
    Files.writeString(Path.of(args[0]), "done\n");
  }

  private static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> new Thread(r, prefix + n.incrementAndGet());
  }

  /** A factory that wraps the worker in a runnable of its own, as Netty's does. */
  private static ThreadFactory wrapping(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> new Thread(new Wrapper(r), prefix + n.incrementAndGet());
  }

  private static final class Wrapper implements Runnable {
    private final Runnable inner;

    Wrapper(Runnable inner) {
      this.inner = inner;
    }

    @Override
    public void run() {
      inner.run();
    }
  }

  private static void work() {
    long end = System.nanoTime() + 2_000_000;
    double x = 0;
    while (System.nanoTime() < end) {
      x += Math.sqrt(x + 1);
    }
    sink = x;
  }
}
