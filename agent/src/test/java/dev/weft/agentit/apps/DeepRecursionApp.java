package dev.weft.agentit.apps;

import dev.weft.api.Region;
import dev.weft.api.Traced;
import dev.weft.api.Weft;

/**
 * Recurses through a {@code @Traced} method until the stack overflows, several times, catching the
 * error (as some parsers do); then enters one more region. The overflow may well happen inside the
 * agent's recorder.
 */
public final class DeepRecursionApp {
  static int deepest;

  @Traced
  static int down(int depth) {
    deepest = Math.max(deepest, depth);
    return down(depth + 1) + 1;
  }

  public static void main(String[] args) {
    int overflows = 0;
    for (int i = 0; i < 20; i++) {
      try {
        down(0);
      } catch (StackOverflowError e) {
        overflows++;
      }
    }
    try (Region r = Weft.region("after-overflows")) {
      System.out.println("overflows " + overflows + ", deep: " + (deepest > 1000));
    }
  }
}
