package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trend names the call path whose wait grew, not the one that only varied. */
class TrendTest {
  @TempDir Path tmp;

  @Test
  void growingCallPathRanksFirstAndFlatOneIsNotGrowth() throws Exception {
    Path store = tmp.resolve("store");
    Random random = new Random(7);
    int runs = 12;
    try (StoreWriter w = StoreWriter.open()) {
      for (int i = 0; i < runs; i++) {
        Map<String, Long> cells = new LinkedHashMap<>();
        cells.put("grows @ App.java:20", 1_000_000L + 200_000L * i + random.nextInt(50_000));
        cells.put("flat @ App.java:30", 3_000_000L + random.nextInt(400_000));
        w.add(store, StoreFilesTest.run("App", 1_000L * (i + 1), cells));
        // Another program's runs, growing fast at the flat path: never compared with App's.
        w.add(
            store,
            StoreFilesTest.run(
                "Other", 1_000L * (i + 1) + 1, Map.of("flat @ App.java:30", i * 1_000_000_000L)));
      }
    }
    try (StoreReader r = StoreReader.open(store, false)) {
      Trend.Result t = Trend.of(r.connection(), "wait", 10, "App");
      assertEquals("App", t.mainClass());
      assertEquals(10, t.runIds().size());
      assertEquals(2, t.rows().size());
      Trend.Row first = t.rows().get(0);
      Trend.Row second = t.rows().get(1);
      assertTrue(first.callpath().endsWith("grows @ App.java:20"), first.callpath());
      assertTrue(first.grew(), "p " + first.p());
      assertTrue(first.changeNs() > 1_500_000, "change " + first.changeNs());
      assertFalse(second.grew(), "flat: p " + second.p() + ", tau " + second.tau());
      assertEquals(10, first.values().length);
      // The property's own id selects the same subtree.
      assertEquals(2, Trend.of(r.connection(), "lock_contention", 10, "App").rows().size());
      assertTrue(Trend.of(r.connection(), "barrier_wait", 10, "App").rows().isEmpty());
      assertSame(t, TrendLines.read(TrendLines.write(t)));
    }
  }

  @Test
  void trendLinesKeepOddTextNullsAndExactFigures() throws Exception {
    Trend.Result t =
        new Trend.Result(
            null,
            List.of("r\\1", "r\t2"),
            List.of(
                new Trend.Row(-3, "a\tb\nc \\N", new long[] {1, Long.MAX_VALUE}, 0.1, -1 / 3.0, 1),
                new Trend.Row(7, null, new long[] {0, 0}, 0, 0, 1)));
    assertSame(t, TrendLines.read(TrendLines.write(t)));
    StoreException e =
        assertThrows(StoreException.class, () -> TrendLines.read("Exception in thread main"));
    assertEquals(
        "the Spark engine's answer is not a trend: Exception in thread main", e.getMessage());
  }

  /** Equal results (records with arrays compare arrays by identity). */
  static void assertSame(Trend.Result want, Trend.Result got) {
    assertEquals(want.mainClass(), got.mainClass());
    assertEquals(want.runIds(), got.runIds());
    assertEquals(want.rows().size(), got.rows().size());
    for (int i = 0; i < want.rows().size(); i++) {
      Trend.Row a = want.rows().get(i);
      Trend.Row b = got.rows().get(i);
      assertEquals(a.callpathKey(), b.callpathKey());
      assertEquals(a.callpath(), b.callpath());
      assertArrayEquals(a.values(), b.values());
      assertEquals(a.changeNs(), b.changeNs());
      assertEquals(a.tau(), b.tau());
      assertEquals(a.p(), b.p());
    }
  }

  @Test
  void mannKendallOfAStrictlyRisingSeriesIsSignificantAndOfAConstantOneIsNot() {
    double[] up = Trend.mannKendall(new long[] {1, 2, 3, 4, 5, 6, 7, 8});
    assertEquals(1.0, up[0], 1e-12);
    assertTrue(up[1] < 0.001, "p " + up[1]);
    double[] flat = Trend.mannKendall(new long[] {5, 5, 5, 5, 5});
    assertEquals(0.0, flat[0], 1e-12);
    assertEquals(1.0, flat[1], 1e-12);
    assertEquals(0.5, Trend.normalCdf(0), 1e-7);
    assertEquals(0.975, Trend.normalCdf(1.959964), 1e-6);
  }
}
