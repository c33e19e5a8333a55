package dev.weft.check;

import java.util.Arrays;

/**
 * The one-sided Mann-Whitney U test (Wilcoxon rank-sum) and the Hodges-Lehmann estimate of the
 * shift, for comparing several runs of the current build with several runs of the baseline.
 *
 * <p>Why this test: run-to-run figures of a parallel program are not normally distributed (a
 * scheduling hiccup or a GC pause gives one run a long tail), and CI affords only a handful of runs
 * per side. The rank test assumes neither normality nor equal variances, an outlier moves it by at
 * most one rank, and with few runs its p-value is exact (computed from the distribution of U, not
 * approximated). A bootstrap confidence interval needs more runs than that to be trustworthy.
 */
public final class RankTest {
  /**
   * Sides up to this many runs get the exact distribution; larger ones the normal approximation.
   */
  private static final int EXACT_MAX = 25;

  private RankTest() {}

  /**
   * The probability, if both sides came from the same distribution, of the current runs being at
   * least this much larger than the baseline runs: the one-sided p-value of U.
   */
  public static double pGreater(double[] current, double[] baseline) {
    int n = current.length;
    int m = baseline.length;
    if (n == 0 || m == 0) {
      return 1;
    }
    double u = 0; // pairs in which the current run is larger; a tie counts one half
    for (double c : current) {
      for (double b : baseline) {
        u += c > b ? 1 : c == b ? 0.5 : 0;
      }
    }
    if (n <= EXACT_MAX && m <= EXACT_MAX && !hasTies(current, baseline)) {
      return exactUpperTail(n, m, (int) Math.round(u));
    }
    return normalUpperTail(current, baseline, u);
  }

  /**
   * The smallest p-value {@link #pGreater} can give with these numbers of runs: all current runs
   * above all baseline runs. A confidence that needs a smaller one cannot be reached.
   */
  public static double smallestP(int n, int m) {
    double p = 1;
    for (int i = 1; i <= n; i++) {
      p = p * i / (m + i); // 1 / C(n + m, n)
    }
    return p;
  }

  /** The Hodges-Lehmann estimate of how much larger the current runs are: median of c - b. */
  public static double shift(double[] current, double[] baseline) {
    double[] d = new double[current.length * baseline.length];
    int k = 0;
    for (double c : current) {
      for (double b : baseline) {
        d[k++] = c - b;
      }
    }
    return median(d);
  }

  /** The median (the mean of the middle two for an even count); 0 for none. */
  public static double median(double[] values) {
    if (values.length == 0) {
      return 0;
    }
    double[] s = values.clone();
    Arrays.sort(s);
    int mid = s.length / 2;
    return s.length % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  }

  private static boolean hasTies(double[] a, double[] b) {
    double[] all = new double[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    Arrays.sort(all);
    for (int i = 1; i < all.length; i++) {
      if (all[i] == all[i - 1]) {
        return true;
      }
    }
    return false;
  }

  /**
   * P(U ≥ u) under the null hypothesis, from the number of orderings of n and m runs that give each
   * U: count(n, m, u) = count(n - 1, m, u - m) + count(n, m - 1, u).
   */
  private static double exactUpperTail(int n, int m, int u) {
    // counts[j][v]: orderings of i current and j baseline runs with U = v, built up over i
    double[][] counts = new double[m + 1][n * m + 1];
    for (int j = 0; j <= m; j++) {
      counts[j][0] = 1; // no current runs: U = 0, one ordering
    }
    for (int i = 1; i <= n; i++) {
      double[][] next = new double[m + 1][n * m + 1];
      next[0][0] = 1;
      for (int j = 1; j <= m; j++) {
        for (int v = 0; v <= i * j; v++) {
          // the largest run is a current run (it beats all j baseline runs) or a baseline run
          double largestCurrent = v >= j ? counts[j][v - j] : 0;
          next[j][v] = largestCurrent + next[j - 1][v];
        }
      }
      counts = next;
    }
    double total = 0;
    double tail = 0;
    for (int v = 0; v <= n * m; v++) {
      total += counts[m][v];
      if (v >= u) {
        tail += counts[m][v];
      }
    }
    return tail / total;
  }

  /** P(U ≥ u) by the normal approximation, with the tie and continuity corrections. */
  private static double normalUpperTail(double[] current, double[] baseline, double u) {
    int n = current.length;
    int m = baseline.length;
    int size = n + m;
    double[] all = new double[size];
    System.arraycopy(current, 0, all, 0, n);
    System.arraycopy(baseline, 0, all, n, m);
    Arrays.sort(all);
    double tieSum = 0;
    for (int i = 0; i < size; ) {
      int j = i;
      while (j < size && all[j] == all[i]) {
        j++;
      }
      double t = j - i;
      tieSum += t * t * t - t;
      i = j;
    }
    double mean = n * (double) m / 2;
    double variance = n * (double) m / 12 * ((size + 1) - tieSum / (size * (double) (size - 1)));
    if (variance <= 0) {
      return u > mean ? 0 : 1;
    }
    double z = (u - mean - 0.5) / Math.sqrt(variance);
    return upperNormal(z);
  }

  /** P(Z ≥ z) for a standard normal Z (Abramowitz-Stegun 7.1.26 for erfc; error below 1.5e-7). */
  static double upperNormal(double z) {
    double x = Math.abs(z) / Math.sqrt(2);
    double t = 1 / (1 + 0.3275911 * x);
    double poly =
        t
            * (0.254829592
                + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    double erfc = poly * Math.exp(-x * x);
    return z >= 0 ? erfc / 2 : 1 - erfc / 2;
  }
}
