package dev.weft.agentit.apps;

import dev.weft.api.Region;
import dev.weft.api.Traced;
import dev.weft.api.Weft;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Eight long-running threads entering 20000 nested regions each, at the same time as 300
 * short-lived threads entering one region each.
 */
public final class ManyThreadsApp {
  static final AtomicLong total = new AtomicLong();

  @Traced
  static long leaf(long x) {
    return x * 3 + 1;
  }

  public static void main(String[] args) throws Exception {
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      threads.add(
          new Thread(
              () -> {
                long s = 0;
                for (int i = 0; i < 20_000; i++) {
                  try (Region r = Weft.region("long-lived")) {
                    s += leaf(i);
                  }
                }
                total.addAndGet(s);
              },
              "long-" + t));
    }
    for (int t = 0; t < 300; t++) {
      threads.add(
          new Thread(
              () -> {
                try (Region r = Weft.region("short-lived")) {
                  total.addAndGet(leaf(1));
                }
              },
              "short-" + t));
    }
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    System.out.println("total " + total.get());
  }
}
