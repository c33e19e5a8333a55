package dev.weft.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Shortens call paths for people: a block of up to {@link #MAX_PERIOD} frames repeated back to back
 * (recursion, e.g. a fork-join task forking itself) becomes one frame, {@code "Fib.compute ×24
 * levels"}. Used by the text report; the JSON keeps every frame.
 */
final class CallPathFolding {
  /** Longest repeated block recognised (a task, its fork and a helper method, …). */
  static final int MAX_PERIOD = 4;

  private CallPathFolding() {}

  /**
   * One frame of a folded path: {@code levels} repetitions of {@code block} (1 for a plain frame).
   */
  record Frame(String key, String block, int levels) {
    String label() {
      return levels == 1 ? block : block + " ×" + levels + " levels";
    }
  }

  /** The folded path. Repeated blocks are keyed by the block alone, so depths merge. */
  static List<Frame> fold(List<String> path) {
    List<Frame> out = new ArrayList<>();
    int i = 0;
    int n = path.size();
    while (i < n) {
      int bestPeriod = 0;
      int bestReps = 1;
      for (int k = 1; k <= MAX_PERIOD && i + 2 * k <= n; k++) {
        int reps = 1;
        while (i + (reps + 1) * k <= n && sameBlock(path, i, i + reps * k, k)) {
          reps++;
        }
        if (reps >= 2 && reps * k > bestReps * Math.max(1, bestPeriod)) {
          bestPeriod = k;
          bestReps = reps;
        }
      }
      if (bestPeriod == 0) {
        out.add(new Frame(path.get(i), path.get(i), 1));
        i++;
      } else {
        String block = String.join(" › ", path.subList(i, i + bestPeriod));
        out.add(new Frame("\u27f3" + block, block, bestReps));
        i += bestPeriod * bestReps;
      }
    }
    return out;
  }

  private static boolean sameBlock(List<String> path, int a, int b, int k) {
    for (int j = 0; j < k; j++) {
      if (!path.get(a + j).equals(path.get(b + j))) {
        return false;
      }
    }
    return true;
  }
}
