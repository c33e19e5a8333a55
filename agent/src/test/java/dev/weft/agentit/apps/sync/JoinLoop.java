package dev.weft.agentit.apps.sync;

import java.util.List;

/** Joins threads one after another, as a program's {@code for (t : threads) t.join()}. */
public final class JoinLoop {
  public static void joinAll(List<Thread> threads) {
    try {
      for (Thread t : threads) {
        t.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private JoinLoop() {}
}
