package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scheduled executor's tasks across an attach: {@code ScheduledAtAttachApp LOG AGENT_JAR OPTIONS}
 * starts the one worker of pool {@code evictor} and schedules, before it loads the agent into
 * itself, a periodic task (every PERIOD_MS, first after FIRST_MS) and a one-shot task due after
 * ONE_SHOT_MS: at the attach the worker waits in the JDK's {@code DelayedWorkQueue.take} for them,
 * as a cache's evictor or a server's timeouts do. A second pool, {@code housekeeper}, holds one
 * task due long after the run: its worker waits from before the attach until the pool is shut down
 * just before the detach, and ends. It detaches after RECORD_MS and writes how often each ran to
 * LOG. The one-shot task is due late enough that a slow attach (up to 2.9 s: 0.3–0.8 s here) still
 * finds it queued, and early enough to run before the detach.
 */
public final class ScheduledAtAttachApp {
  public static final long FIRST_MS = 600;
  public static final long PERIOD_MS = 700;
  public static final long ONE_SHOT_MS = 3000;
  public static final long RECORD_MS = 3500;

  public static void main(String[] args) throws Exception {
    AtomicLong periodic = new AtomicLong();
    AtomicLong oneShot = new AtomicLong();
    ScheduledThreadPoolExecutor pool =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "evictor");
              t.setDaemon(true);
              return t;
            });
    pool.prestartAllCoreThreads();
    pool.scheduleAtFixedRate(periodic::incrementAndGet, FIRST_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    pool.schedule(oneShot::incrementAndGet, ONE_SHOT_MS, TimeUnit.MILLISECONDS);
    ScheduledThreadPoolExecutor housekeeper =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "housekeeper");
              t.setDaemon(true);
              return t;
            });
    housekeeper.prestartAllCoreThreads();
    housekeeper.schedule(() -> {}, 1, TimeUnit.HOURS);
    Thread.sleep(100); // the workers wait for their tasks to come due
    SelfAttach.loadAgent(args[1], args[2]);
    Thread.sleep(RECORD_MS);
    housekeeper
        .shutdownNow(); // its worker wakes from the wait it began before the attach, and ends
    housekeeper.awaitTermination(10, TimeUnit.SECONDS);
    SelfAttach.detach();
    pool.shutdownNow();
    Files.writeString(Path.of(args[0]), "periodic " + periodic + "\none-shot " + oneShot + "\n");
  }

  private ScheduledAtAttachApp() {}
}
