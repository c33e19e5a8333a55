package dev.weft.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.store.History;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history section in headless Chromium (see {@link HeadlessChromium}): drawn from the data the
 * store's {@link History} gives, a chart per property with the current run marked, a table with the
 * same values; one run says there is no history; a page without a store has no section.
 */
class HistoryBrowserTest {
  @TempDir static Path tmp;
  private static HeadlessChromium browser;

  @BeforeAll
  static void startBrowser() throws Exception {
    assumeTrue(
        HeadlessChromium.required(), "browser tests switched off with -Dweft.browser.tests=false");
    browser = HeadlessChromium.start();
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  private static History.Series series(String callpath, long... values) {
    return new History.Series(callpath, values, values[values.length - 1] - values[0], 0.01);
  }

  /** Six runs; the current one is the fifth (a later run was stored after it). */
  private static History.Result sixRuns() {
    List<History.Run> runs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      runs.add(
          new History.Run(
              "run-" + i,
              i == 1 ? null : 1_700_000_000_000_000_000L + i * 86_400_000_000_000L,
              1_700_000_000_000_000_000L + i * 86_400_000_000_000L + 5,
              i == 3
                  ? Map.of("build", "7")
                  : Map.of("commit", "0123456789abcdef0123456789abcdef" + i)));
    }
    History.PropertyHistory lock =
        new History.PropertyHistory(
            "lock_contention",
            series(null, 100, 150, 220, 260, 330, 390),
            List.of(
                series("main @ A.java:1 > hot @ A.java:9", 60, 110, 180, 220, 290, 350),
                series("main @ A.java:1 > flat @ A.java:12", 40, 40, 40, 40, 40, 40)));
    History.PropertyHistory execution =
        new History.PropertyHistory(
            "execution",
            series(null, 2_000, 2_100, 1_900, 2_050, 2_000, 1_950),
            List.of(series("main @ A.java:1", 2_000, 2_100, 1_900, 2_050, 2_000, 1_950)));
    return new History.Result("demo.Main", runs, 4, List.of(lock, execution));
  }

  private static Path page(String name, JsonNode history) throws IOException {
    Path file = tmp.resolve(name);
    try (OutputStream out = Files.newOutputStream(file)) {
      HtmlReport.write(Fixtures.analysis(), null, out, TimelineLimits.defaults(), history);
    }
    return file;
  }

  private String text(String js) {
    return browser.eval(js).asText();
  }

  private int integer(String js) {
    return browser.eval(js).asInt();
  }

  @Test
  void chartPerPropertyWithTheCurrentRunMarkedAndTheStoresValuesInItsTable() throws Exception {
    int errors = browser.errors().size();
    History.Result h = sixRuns();
    browser.open(page("history.html", h.toJson("/stores/ci")));
    assertEquals(2, integer("document.querySelectorAll('#history figure.history-prop').length"));
    String lock = "#history figure[data-property=\"lock_contention\"] ";
    // The chart: the total and both call paths, one point per run each.
    assertEquals(3, integer("document.querySelectorAll('" + lock + "svg polyline').length"));
    for (int k = 0; k < 3; k++) {
      assertEquals(
          6,
          integer(
              "document.querySelector('"
                  + lock
                  + "svg polyline[data-series=\""
                  + k
                  + "\"]').points.numberOfItems"));
    }
    // The points rise with the values: the newest total is drawn highest (smallest y).
    assertTrue(
        browser
            .eval(
                "(() => { const p = document.querySelector('"
                    + lock
                    + "svg polyline[data-series=\"0\"]').points;"
                    + " return p.getItem(5).y < p.getItem(0).y; })()")
            .asBoolean());
    // The current run: marked in every series at its x, and by the band behind them.
    assertEquals(3, integer("document.querySelectorAll('" + lock + "circle.current').length"));
    assertEquals(
        text(
            "document.querySelector('"
                + lock
                + "svg polyline[data-series=\"0\"]').points.getItem(4).x.toFixed(1)"),
        text(
            "(+document.querySelector('"
                + lock
                + "circle.current').getAttribute('cx')).toFixed(1)"));
    assertEquals(1, integer("document.querySelectorAll('" + lock + "line.current-run').length"));
    assertTrue(
        integer(
                "Math.round(document.querySelector('"
                    + lock
                    + "svg.history-chart').getBoundingClientRect().width)")
            > 100,
        "the chart is laid out");
    // The table: newest first, one row per run, the current row marked with the run's label.
    assertEquals(6, integer("document.querySelectorAll('" + lock + "tbody tr').length"));
    assertEquals(
        "run-4",
        text("document.querySelector('" + lock + "tr[aria-current=\"true\"]').dataset.run"));
    assertTrue(
        text("document.querySelector('" + lock + "tr.current').textContent").contains("this run"));
    assertEquals(
        "0123456789ab",
        text("document.querySelector('" + lock + "tr.current td:nth-child(3)').textContent"));
    assertEquals(
        "build=7",
        text(
            "document.querySelector('"
                + lock
                + "tr[data-run=\"run-3\"] td:nth-child(3)').textContent"));
    for (int i = 0; i < 6; i++) {
      String row = "document.querySelector('" + lock + "tr[data-run=\"run-" + i + "\"] ";
      assertEquals(
          h.properties().get(0).total().values()[i],
          Long.parseLong(text(row + "td:nth-child(4)').dataset.ns")));
      assertEquals(
          h.properties().get(0).callpaths().get(0).values()[i],
          Long.parseLong(text(row + "td:nth-child(5)').dataset.ns")));
    }
    // A single call path that is the whole property: no line and no column of its own.
    String exec = "#history figure[data-property=\"execution\"] ";
    assertEquals(4, integer("document.querySelectorAll('" + exec + "thead th').length"));
    assertEquals(1, integer("document.querySelectorAll('" + exec + "svg polyline').length"));
    // The history section comes right after the panes.
    assertEquals("history", text("document.querySelector('section.panes').nextElementSibling.id"));
    List<String> all = browser.errors();
    assertEquals(List.of(), all.subList(errors, all.size()), "JavaScript errors");
  }

  @Test
  void oneRunSaysThereIsNoHistoryYetAndNoStoreNoSection() throws Exception {
    int errors = browser.errors().size();
    History.Run only = new History.Run("run-0", 1L, 2L, Map.of());
    History.Result one =
        new History.Result(
            "demo.Main",
            List.of(only),
            0,
            List.of(new History.PropertyHistory("lock_contention", series(null, 5), List.of())));
    browser.open(page("one.html", one.toJson("/stores/ci")));
    assertTrue(
        text("document.getElementById('history-none').textContent")
            .startsWith("No history yet: this is the only run of demo.Main"));
    assertEquals(0, integer("document.querySelectorAll('#history svg').length"));
    browser.open(page("none.html", null));
    assertEquals(0, integer("document.querySelectorAll('#history').length"));
    assertEquals(1, integer("document.querySelectorAll('section.panes').length"));
    List<String> all = browser.errors();
    assertEquals(List.of(), all.subList(errors, all.size()), "JavaScript errors");
  }
}
