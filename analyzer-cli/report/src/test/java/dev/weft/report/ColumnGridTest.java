package dev.weft.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ColumnGridTest {
  private static final int TASK = IntervalKind.TASK.ordinal();
  private static final int LOCK = IntervalKind.LOCK_WAIT.ordinal();

  @Test
  void splitsTimeOverTheColumnsItSpans() {
    ColumnGrid g = new ColumnGrid(1, 16, 1000, 10);
    g.ensure(1000 + 45);
    g.add(0, TASK, 1005, 1032);
    assertEquals(5f, g.time(0, 0, TASK));
    assertEquals(10f, g.time(0, 1, TASK));
    assertEquals(10f, g.time(0, 2, TASK));
    assertEquals(2f, g.time(0, 3, TASK));
    assertEquals(4, g.used());
  }

  @Test
  void doublingTheWidthKeepsEveryNanosecond() {
    ColumnGrid g = new ColumnGrid(2, 16, 0, 1);
    g.add(0, TASK, 0, 16);
    g.add(1, LOCK, 3, 7);
    g.ensure(100); // 16 → 32 → 64 → 128 ns of grid: width 8
    assertEquals(8, g.width());
    assertEquals(8f, g.time(0, 0, TASK));
    assertEquals(8f, g.time(0, 1, TASK));
    assertEquals(0f, g.time(0, 2, TASK));
    assertEquals(4f, g.time(1, 0, LOCK));
    assertEquals(2, g.used());
    g.add(1, LOCK, 100, 104);
    assertEquals(4f, g.time(1, 12, LOCK));
    assertEquals(13, g.used());
  }

  @Test
  void encodesTheDominantKindAndItsShareRunLength() {
    ColumnGrid g = new ColumnGrid(1, 16, 0, 100);
    g.ensure(1599);
    g.add(0, TASK, 0, 300); // three full columns of task
    g.add(0, LOCK, 300, 330); // column 3: lock 30 %, task 20 %
    g.add(0, TASK, 330, 350);
    g.add(0, TASK, 500, 501); // column 5: a trace of task
    String full = String.valueOf(ColumnGrid.SYMBOLS.charAt(TASK * 4 + 3));
    String lock2 = String.valueOf(ColumnGrid.SYMBOLS.charAt(LOCK * 4 + 1));
    String task1 = String.valueOf(ColumnGrid.SYMBOLS.charAt(TASK * 4));
    assertEquals(full + "3" + lock2 + "." + task1 + ".10", g.encode(0, 16));
    assertEquals(full + "3" + lock2, g.encode(0, 4));
  }

  @Test
  void manyThreadsGetFewerColumns() {
    TimelineLimits l = TimelineLimits.defaults();
    assertEquals(4096, l.columnsFor(1));
    assertEquals(4096, l.columnsFor(512));
    assertEquals(2096, l.columnsFor(1000));
    assertEquals(16, l.columnsFor(1_000_000));
  }
}
