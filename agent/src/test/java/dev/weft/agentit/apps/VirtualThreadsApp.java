package dev.weft.agentit.apps;

import dev.weft.api.Region;
import dev.weft.api.Weft;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs 1000 tasks on virtual threads (JDK 21+; looked up reflectively, the tests compile for 17),
 * each entering one region, plus one region on the main thread.
 */
public final class VirtualThreadsApp {
  public static void main(String[] args) throws Exception {
    try (Region r = Weft.region("main-region")) {
      Method factory;
      try {
        factory = java.util.concurrent.Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
      } catch (NoSuchMethodException e) {
        System.out.println("no virtual threads");
        return;
      }
      ExecutorService pool = (ExecutorService) factory.invoke(null);
      for (int i = 0; i < 1000; i++) {
        pool.execute(
            () -> {
              try (Region v = Weft.region("virtual-region")) {
                Thread.yield();
              }
            });
      }
      pool.shutdown();
      System.out.println("finished " + pool.awaitTermination(60, TimeUnit.SECONDS));
    }
  }
}
