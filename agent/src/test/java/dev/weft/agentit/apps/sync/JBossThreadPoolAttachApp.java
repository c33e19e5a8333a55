package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.threads.EnhancedQueueExecutor;

/**
 * jboss-threads' pool across an attach: {@code JBossThreadPoolAttachApp LOG AGENT_JAR OPTIONS}
 * starts a pool of {@link #THREADS} "eqe-worker-" threads (all started before the attach), into
 * which the main thread submits a task of about half a millisecond every millisecond; loads the
 * agent into itself once the workers run them, records for {@link #RECORD_MS} ms, detaches, and
 * writes how many tasks ran to LOG. The workers' loops began before the attach.
 */
public final class JBossThreadPoolAttachApp {
  public static final int THREADS = 3;
  public static final long RECORD_MS = 2_000;

  static final AtomicLong RAN = new AtomicLong();
  static volatile boolean stop;

  public static void main(String[] args) throws Exception {
    EnhancedQueueExecutor pool = JBossThreadPoolApp.pool(THREADS);
    pool.prestartAllCoreThreads();
    Thread submitter =
        new Thread(
            () -> {
              while (!stop) {
                pool.execute(
                    () -> {
                      JBossThreadPoolApp.compute(500_000);
                      RAN.incrementAndGet();
                    });
                try {
                  Thread.sleep(1);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "submitter");
    submitter.start();
    Thread.sleep(500); // the workers run tasks in their loops
    SelfAttach.loadAgent(args[1], args[2]);
    Thread.sleep(RECORD_MS);
    SelfAttach.detach();
    stop = true;
    submitter.join();
    pool.shutdown();
    pool.awaitTermination(10, TimeUnit.SECONDS);
    Files.writeString(Path.of(args[0]), "ran " + RAN.get() + "\n");
  }

  private JBossThreadPoolAttachApp() {}
}
