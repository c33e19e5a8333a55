package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.jboss.threads.EnhancedQueueExecutor;

/**
 * jboss-threads' pool across an attach: {@code JBossThreadPoolAttachApp LOG AGENT_JAR OPTIONS}
 * starts a pool of {@link #THREADS} "eqe-worker-" threads (all started before the attach), runs
 * {@link PoolWork#submittedAcrossAttach} on it for {@link #RECORD_MS} ms of recording, and writes
 * how many tasks ran to LOG. The workers' loops began before the attach.
 */
public final class JBossThreadPoolAttachApp {
  public static final int THREADS = 3;
  public static final long RECORD_MS = 2_000;

  public static void main(String[] args) throws Exception {
    EnhancedQueueExecutor pool = JBossThreadPoolApp.pool(THREADS);
    pool.prestartAllCoreThreads();
    long ran = PoolWork.submittedAcrossAttach(pool, args, RECORD_MS);
    pool.shutdown();
    pool.awaitTermination(10, TimeUnit.SECONDS);
    Files.writeString(Path.of(args[0]), "ran " + ran + "\n");
  }

  private JBossThreadPoolAttachApp() {}
}
