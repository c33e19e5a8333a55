package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Idle pool workers whose threads wrap the JDK's worker in a runnable of the application's (as
 * Tomcat's {@code TaskThread} does): {@code WrappedPoolWorkersAttachApp LOG AGENT_JAR OPTIONS}
 * starts a {@code ThreadPoolExecutor} worker waiting for a task and a {@code
 * ScheduledThreadPoolExecutor} worker waiting for a task due in ten minutes, loads the agent into
 * itself, records for {@link #RECORD_MS} ms, detaches, shuts both pools down and writes "ok" to
 * LOG.
 */
public final class WrappedPoolWorkersAttachApp {
  public static final long RECORD_MS = 500;

  /** The application's wrapper around the runnable a thread factory is given. */
  static final class Wrapper implements Runnable {
    private final Runnable wrapped;

    Wrapper(Runnable wrapped) {
      this.wrapped = wrapped;
    }

    @Override
    public void run() {
      wrapped.run();
    }
  }

  static ThreadFactory wrapping(String name) {
    return r -> new Thread(new Wrapper(r), name);
  }

  public static void main(String[] args) throws Exception {
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), wrapping("wrapped-worker"));
    pool.prestartCoreThread();
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(1, wrapping("wrapped-scheduled"));
    timer.schedule(() -> {}, 10, TimeUnit.MINUTES);
    Thread.sleep(300); // both workers wait in getTask
    SelfAttach.loadAgent(args[1], args[2]);
    Thread.sleep(RECORD_MS);
    SelfAttach.detach();
    pool.shutdown();
    timer.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
    timer.awaitTermination(10, TimeUnit.SECONDS);
    Files.writeString(Path.of(args[0]), "ok\n");
  }

  private WrappedPoolWorkersAttachApp() {}
}
