package dev.weft.agentit.apps;

import dev.weft.api.Region;
import dev.weft.api.Traced;
import dev.weft.api.Weft;

/**
 * User regions of every shape: constant and computed names, nesting, {@code @Traced} methods that
 * return and throw, a traced constructor, on/off, a second thread that renames itself. Prints
 * results that do not depend on the agent, so runs with and without it must print the same.
 */
public final class RegionsApp {
  private final int seed;

  @Traced("make")
  RegionsApp(int seed) {
    this.seed = seed;
  }

  @Traced
  static long square(long x) {
    return x * x;
  }

  @Traced("failing")
  static int fail(int x) {
    if (x > 0) {
      throw new IllegalStateException("boom " + x);
    }
    return x;
  }

  @Traced
  int sumTo(int n) {
    int s = seed;
    for (int i = 1; i <= n; i++) {
      try (Region r = Weft.region("item-" + (i % 3))) { // computed-name site
        s += i;
      }
    }
    return s;
  }

  public static void main(String[] args) throws Exception {
    long total = 0;
    try (Region outer = Weft.region("outer")) { // outer site
      for (int i = 0; i < 5; i++) {
        try (Region inner = Weft.region("inner")) { // inner site
          total += square(i);
        }
      }
      for (int i = 0; i < 3; i++) {
        try {
          total += fail(i);
        } catch (IllegalStateException e) {
          System.out.println("caught " + e.getMessage());
        }
      }
      total += new RegionsApp(7).sumTo(6);
    }
    Weft.off();
    boolean offRecording = Weft.isRecording();
    for (int i = 0; i < 4; i++) {
      try (Region hidden = Weft.region("while-off")) {
        total += square(100 + i);
      }
    }
    Weft.on();
    Thread worker =
        new Thread(
            () -> {
              try (Region r = Weft.region("worker-before")) {
                square(3);
              }
              Thread.currentThread().setName("renamed-worker");
              try (Region r = Weft.region("worker-after")) {
                square(4);
              }
            },
            "first-name");
    worker.start();
    worker.join();
    System.out.println("total " + total);
    System.out.println("recording while off: " + offRecording);
  }
}
