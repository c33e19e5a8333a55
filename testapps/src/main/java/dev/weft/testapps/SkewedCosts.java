package dev.weft.testapps;

/**
 * Element costs skewed towards the end: element {@code k} of {@code n} costs {@code max(1, floor(M
 * · ((k+1)/n)^S))} ms, in integer arithmetic so that every run computes the same costs.
 */
public final class SkewedCosts {
  private SkewedCosts() {}

  /** The cost in ms of element {@code k} of {@code n} with largest cost {@code maxMs}. */
  public static long cost(int k, int n, long maxMs, int skew) {
    long numerator = maxMs;
    long denominator = 1;
    for (int s = 0; s < skew; s++) {
      numerator *= k + 1;
      denominator *= n;
    }
    return Math.max(1, numerator / denominator);
  }

  /** All {@code n} costs. */
  public static long[] costs(int n, long maxMs, int skew) {
    long[] costs = new long[n];
    for (int k = 0; k < n; k++) {
      costs[k] = cost(k, n, maxMs, skew);
    }
    return costs;
  }
}
