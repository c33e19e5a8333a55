package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.report.TextReport;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The text report fits the terminal width and loses nothing when it wraps. */
class TextReportWidthTest {
  @TempDir Path tmp;

  /**
   * Lock contention at call sites with long names, between threads with long names: the rows that
   * the report lays out in columns and the call paths that it wraps.
   */
  private AnalysisResult longNames() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int[] sites = new int[3];
    for (int k = 0; k < sites.length; k++) {
      sites[k] =
          f.region(
              "com.example.inventory.warehouse.StockLedger.reserveQuantityForOrderLine" + k,
              ConstructKind.REENTRANT_LOCK,
              50 + k);
    }
    f.object(7, ConstructKind.REENTRANT_LOCK, 0);
    StreamWriter a = f.thread("order-intake-worker-with-a-very-long-descriptive-name-1", 0);
    StreamWriter b = f.thread("b", 0);
    for (int k = 0; k < sites.length; k++) {
      long t = 100 + 100L * k;
      a.lockRequest(t, sites[k], 7);
      a.lockAcquired(t, 7, 0);
      b.lockRequest(t + 10, sites[k], 7);
      a.lockReleased(t + 50, 7);
      b.lockAcquired(t + 50 + k, 7, 0);
      b.lockReleased(t + 60, 7);
    }
    return Analyzer.analyze(f.close(1000));
  }

  private static void assertFits(String text, int width) {
    for (String line : text.split("\n", -1)) {
      assertTrue(
          line.codePointCount(0, line.length()) <= width,
          "line longer than " + width + ": [" + line + "]\n" + text);
    }
  }

  private static String ink(String text) {
    return text.replaceAll("\\s+", "");
  }

  @ParameterizedTest
  @ValueSource(ints = {60, 80, 100, 132, 200})
  void everyLineFitsAndNothingIsCutOff(int width) {
    AnalysisResult r = longNames();
    String text = TextReport.render(r, width);
    assertFits(text, width);
    // Wrapping only moves words between lines: the same characters as at the widest layout.
    assertEquals(ink(TextReport.render(r, TextReport.MAX_WIDTH)), ink(text));
    assertTrue(text.contains("reserveQuantityForOrderLine2"), text);
  }

  @ParameterizedTest
  @ValueSource(ints = {60, 80, 120, 200})
  void straggler(int width) {
    AnalysisResult r = Analyzer.analyze(TraceFixture.rotatingStraggler(tmp.resolve("s")));
    String text = TextReport.render(r, width);
    assertFits(text, width);
    assertEquals(ink(TextReport.render(r, TextReport.MAX_WIDTH)), ink(text));
  }

  @ParameterizedTest
  @ValueSource(ints = {60, 80})
  void narrowLayoutsUseMoreLinesThanWideOnes(int width) {
    AnalysisResult r = longNames();
    long narrow = TextReport.render(r, width).lines().count();
    long wide = TextReport.render(r, 200).lines().count();
    assertTrue(narrow > wide, width + ": " + narrow + " lines, 200: " + wide + " lines");
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 59, 201, 1000})
  void widthsOutsideTheSupportedRangeAreClamped(int width) {
    AnalysisResult r = Analyzer.analyze(TraceFixture.rotatingStraggler(tmp.resolve("c")));
    int clamped = Math.max(TextReport.MIN_WIDTH, Math.min(TextReport.MAX_WIDTH, width));
    assertEquals(TextReport.render(r, clamped), TextReport.render(r, width));
  }

  /**
   * Thread names longer than the usual column (Pekko's dispatcher threads) widen it for the whole
   * list, so that every row's figures stand in one column.
   */
  @ParameterizedTest
  @ValueSource(ints = {80, 132})
  void longThreadNamesKeepTheFiguresInOneColumn(int width) {
    TraceFixture f = TraceFixture.create(tmp.resolve("n"));
    int site = f.region("synchronized", ConstructKind.MONITOR, 12);
    f.object(9, ConstructKind.MONITOR, 0);
    String[] names = {
      "bench-pekko.actor.default-dispatcher-3", "bench-pekko.actor.default-dispatcher-11", "main"
    };
    StreamWriter[] w = new StreamWriter[names.length];
    for (int i = 0; i < names.length; i++) {
      w[i] = f.thread(names[i], 0);
    }
    w[0].lockRequest(100, site, 9);
    w[0].lockAcquired(100, 9, 0);
    for (int i = 1; i < names.length; i++) {
      w[i].lockRequest(110, site, 9);
    }
    w[0].lockReleased(400, 9);
    w[1].lockAcquired(400, 9, 0);
    w[1].lockReleased(700, 9);
    w[2].lockAcquired(700, 9, 0);
    w[2].lockReleased(800, 9);
    String text = TextReport.render(Analyzer.analyze(f.close(1000)), width);
    // Each list's rows end in their share, right-aligned: rows of one list are of one length.
    int lists = 0;
    int length = -1;
    for (String line : text.split("\n")) {
      boolean row = line.startsWith("     ") && line.endsWith("%") && startsWithName(line, names);
      if (!row) {
        length = -1;
        continue;
      }
      if (length < 0) {
        lists++;
        length = line.length();
      }
      assertEquals(length, line.length(), text);
    }
    assertTrue(lists >= 2, text);
  }

  private static boolean startsWithName(String line, String[] names) {
    for (String n : names) {
      if (line.startsWith("     " + n + " ")) {
        return true;
      }
    }
    return false;
  }
}
