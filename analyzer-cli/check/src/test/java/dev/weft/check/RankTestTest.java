package dev.weft.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RankTestTest {

  @Test
  void exactTailsMatchCountedOrderings() {
    // 3 against 3: 20 orderings; all current runs above all baseline runs is one of them.
    assertEquals(
        1.0 / 20, RankTest.pGreater(new double[] {4, 5, 6}, new double[] {1, 2, 3}), 1e-12);
    assertEquals(1.0 / 20, RankTest.smallestP(3, 3), 1e-12);
    // U = 7 of 9: orderings with U >= 7 are U = 9 (one), U = 8 (one) and U = 7 (two).
    assertEquals(
        4.0 / 20, RankTest.pGreater(new double[] {2.5, 5, 6}, new double[] {1, 3, 4}), 1e-12);
    // All below: certain under the null hypothesis.
    assertEquals(1.0, RankTest.pGreater(new double[] {1, 2, 3}, new double[] {4, 5, 6}), 1e-12);
    // 10 against 10 entirely above: 1 / C(20, 10).
    double[] low = new double[10];
    double[] high = new double[10];
    for (int i = 0; i < 10; i++) {
      low[i] = i;
      high[i] = 100 + i;
    }
    assertEquals(1.0 / 184756, RankTest.pGreater(high, low), 1e-15);
  }

  @Test
  void normalApproximationIsCloseToTheExactTailForLargerSides() {
    // Interleaved values without ties: the exact tail, and the same data with one tie added
    // (which forces the normal approximation), agree within a few percent of each other.
    double[] cur = new double[20];
    double[] base = new double[20];
    for (int i = 0; i < 20; i++) {
      cur[i] = 2 * i + 1.5;
      base[i] = 2 * i;
    }
    double exact = RankTest.pGreater(cur, base);
    double[] tied = base.clone();
    tied[0] = cur[0];
    double approx = RankTest.pGreater(cur, tied);
    assertEquals(exact, approx, 0.05);
    assertEquals(0.5, RankTest.upperNormal(0), 1e-7);
    assertEquals(0.025, RankTest.upperNormal(1.959964), 1e-6);
  }

  @Test
  void hodgesLehmannShiftIsTheMedianPairwiseDifference() {
    assertEquals(1.0, RankTest.shift(new double[] {11, 12, 13}, new double[] {10, 11, 12}), 1e-12);
    assertEquals(2.5, RankTest.median(new double[] {4, 1, 3, 2}), 1e-12);
  }
}
