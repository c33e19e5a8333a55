package dev.weft.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongestStretchesTest {
  @Test
  void keepsTheLongestStretchesSortedByStart() {
    Random random = new Random(3);
    LongestStretches kept = new LongestStretches(40);
    List<long[]> all = new ArrayList<>();
    long t = 1_000;
    for (int i = 0; i < 5_000; i++) {
      // Distinct durations, so the 40 longest are one set.
      long d = 1 + random.nextInt(1_000_000) * 8L + (i & 7);
      long[] s = {t, t + d, i % 9, i};
      all.add(s);
      kept.offer(s[0], s[1], (int) s[2], (int) s[3]);
      t += d + random.nextInt(50);
    }
    all.sort(Comparator.comparingLong((long[] s) -> s[1] - s[0]).reversed());
    List<long[]> expected = new ArrayList<>(all.subList(0, 40));
    expected.sort(Comparator.comparingLong(s -> s[0]));
    List<long[]> got = kept.sorted(1_000, l -> l + 1);
    assertEquals(40, got.size());
    for (int i = 0; i < 40; i++) {
      long[] e = expected.get(i);
      long[] g = got.get(i);
      assertEquals(e[0] - 1_000, g[0]);
      assertEquals(e[1] - 1_000, g[1]);
      assertEquals(e[2], g[2]);
      assertEquals(e[3] + 1, g[3]);
    }
  }

  @Test
  void emptyStretchesAndAZeroBudgetKeepNothing() {
    LongestStretches none = new LongestStretches(0);
    none.offer(0, 10, 1, 1);
    assertEquals(0, none.size());
    LongestStretches some = new LongestStretches(4);
    some.offer(5, 5, 1, 1);
    assertEquals(0, some.size());
  }
}
