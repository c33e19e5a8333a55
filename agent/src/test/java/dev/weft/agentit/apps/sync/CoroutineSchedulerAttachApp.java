package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import kotlinx.coroutines.Dispatchers;
import kotlinx.coroutines.ExecutorsKt;

/**
 * Kotlin coroutines' scheduler across an attach: {@code CoroutineSchedulerAttachApp LOG AGENT_JAR
 * OPTIONS} runs a round of tasks on {@code Dispatchers.Default} (its workers start), lets them park
 * idle, loads the agent into itself, runs ROUNDS rounds of TASKS tasks (main waiting on a latch,
 * the workers idle between rounds), detaches and writes how many tasks ran to LOG.
 */
public final class CoroutineSchedulerAttachApp {
  public static final int ROUNDS = 30;
  public static final int TASKS = 2;

  private static volatile long sink;

  public static void main(String[] args) throws Exception {
    Executor pool = ExecutorsKt.asExecutor(Dispatchers.getDefault());
    round(pool);
    Thread.sleep(300); // the workers park: idle at the attach
    SelfAttach.loadAgent(args[1], args[2]);
    for (int r = 0; r < ROUNDS; r++) {
      round(pool);
      Thread.sleep(5);
    }
    SelfAttach.detach();
    Files.writeString(Path.of(args[0]), "tasks " + (ROUNDS + 1) * TASKS + "\n");
  }

  private static void round(Executor pool) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(TASKS);
    for (int k = 0; k < TASKS; k++) {
      pool.execute(
          () -> {
            long x = 0;
            for (long end = System.nanoTime() + 1_000_000; System.nanoTime() < end; ) {
              x = x * 31 + 7;
            }
            sink = x;
            done.countDown();
          });
    }
    done.await();
  }

  private CoroutineSchedulerAttachApp() {}
}
