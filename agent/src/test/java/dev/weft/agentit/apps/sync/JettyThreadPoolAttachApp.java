package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty's pool across an attach: {@code JettyThreadPoolAttachApp LOG AGENT_JAR OPTIONS} starts a
 * pool of {@link #THREADS} "qtp-" threads (all started before the attach), runs {@link
 * PoolWork#submittedAcrossAttach} on it for {@link #RECORD_MS} ms of recording, and writes how many
 * jobs ran to LOG. The workers' loops began before the attach.
 */
public final class JettyThreadPoolAttachApp {
  public static final int THREADS = 3;
  public static final long RECORD_MS = 2_000;

  public static void main(String[] args) throws Exception {
    System.setProperty("slf4j.internal.verbosity", "ERROR"); // no logger bound: no warning
    QueuedThreadPool pool = JettyThreadPoolApp.pool(THREADS);
    long ran = PoolWork.submittedAcrossAttach(pool, args, RECORD_MS);
    pool.stop();
    Files.writeString(Path.of(args[0]), "ran " + ran + "\n");
  }

  private JettyThreadPoolAttachApp() {}
}
