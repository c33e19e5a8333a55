package dev.weft.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.Analyzer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens generated reports in headless Chromium (see {@link HeadlessChromium}) and checks what a
 * user sees and does: the panes, their linking, keyboard use, the timeline's tracks, the regions
 * table, the comparison page, a summarised one-million-event timeline, and that no page logs a
 * JavaScript error. Fails when Chromium is missing unless {@code -Dweft.browser.tests=false}.
 */
class ReportBrowserTest {
  @TempDir static Path tmp;
  private static HeadlessChromium browser;
  private int errorsBefore;

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

  private Duration open(Path page) throws InterruptedException {
    errorsBefore = browser.errors().size();
    return browser.open(page);
  }

  private void assertNoJavaScriptErrors() {
    List<String> all = browser.errors();
    assertEquals(List.of(), all.subList(errorsBefore, all.size()), "JavaScript errors");
  }

  private String text(String js) {
    return browser.eval(js).asText();
  }

  private int integer(String js) {
    return browser.eval(js).asInt();
  }

  /**
   * Idle workers waiting for their queue's next task (task_queue_idle, 0.25 s of idle_threads' 0.5
   * s) are marked as threads ready for work, and the page starts on the wait that holds work up
   * most: lock contention (0.35 s), not idle threads (0.5 s inclusive, 0.25 s without them).
   */
  @Test
  void threadsReadyForWorkAreMarkedAndNotWhereThePageStarts() throws Exception {
    ObjectNode analysis = Fixtures.analysis();
    ObjectNode idle = null;
    for (JsonNode p : analysis.withArray("properties")) {
      if (p.path("id").asText().equals("idle_threads")) {
        idle = (ObjectNode) p;
      }
    }
    ObjectNode ready = analysis.withArray("properties").addObject();
    ready.setAll(idle.deepCopy());
    ready.put("id", "task_queue_idle");
    ready.put("parent", "idle_threads");
    ready.put("name", "Task queue idle");
    ready.put("severity_ns", 250_000_000L);
    Path page = writeReport(tmp.resolve("ready.html"), analysis, null);
    open(page);
    assertEquals(
        "lock_contention", text("document.getElementById('pane-callpaths').dataset.property"));
    browser.click("#pane-properties .row[data-id=\"idle_threads\"] .name");
    browser.key("ArrowRight", "ArrowRight", 39); // opens idle threads
    assertEquals(
        1,
        integer(
            "document.querySelectorAll('#pane-properties .row[data-id=\"task_queue_idle\"]"
                + " .ready').length"));
    assertEquals(
        0,
        integer(
            "document.querySelectorAll('#pane-properties .row[data-id=\"idle_threads\"]"
                + " .ready').length"));
    assertNoJavaScriptErrors();
  }

  private static Path writeReport(Path file, JsonNode analysis, Path trace) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      HtmlReport.write(analysis, trace, out);
    }
    return file;
  }

  @Test
  void panesAreLinkedAndTimelineDrawsEveryThread() throws Exception {
    Path trace = Fixtures.smallTrace(tmp.resolve("small"));
    Path page = writeReport(tmp.resolve("small.html"), Fixtures.analysis(), trace);
    open(page);

    // Property tree: 'time' open (its children shown), separate roots listed.
    for (String id :
        List.of(
            "time",
            "execution",
            "idle_threads",
            "thread_management",
            "join_wait",
            "barrier_wait",
            "lock_contention",
            "spin_wait",
            "pool_queue_wait",
            "work_imbalance")) {
      assertEquals(
          1,
          integer(
              "document.querySelectorAll('#pane-properties .row[data-id=\"" + id + "\"]').length"),
          id + " shown");
    }
    assertEquals(
        0,
        integer(
            "document.querySelectorAll('#pane-properties"
                + " .row[data-id=\"monitor_contention\"]').length"));
    // Collapsed lock_contention shows its inclusive value: 0.35 s of 4 s.
    assertEquals(
        "8.75 %",
        text(
            "document.querySelector('#pane-properties .row[data-id=\"lock_contention\"]"
                + " .val').textContent"));
    // Expanded 'time' shows its exclusive value, which is zero here.
    assertEquals(
        "0",
        text("document.querySelector('#pane-properties .row[data-id=\"time\"]').dataset.value"));
    // The page starts on the most severe wait state: idle threads (collapsed, so inclusive).
    assertEquals(
        "idle_threads", text("document.getElementById('pane-callpaths').dataset.property"));
    assertEquals(3, integer("+document.getElementById('pane-callpaths').dataset.nodes"));
    assertEquals(
        "true",
        text(
            "document.querySelector('#pane-properties"
                + " li[data-key=\"idle_threads\"]').getAttribute('aria-selected')"));

    // Clicking a property updates call paths and threads.
    browser.click("#pane-properties .row[data-id=\"lock_contention\"] .name");
    assertEquals(
        "lock_contention", text("document.getElementById('pane-callpaths').dataset.property"));
    assertEquals(
        "lock_contention", text("document.getElementById('pane-threads').dataset.property"));
    // Inclusive of monitor and lock API contention: main › {parallel stream › {synchronized, lock},
    // lock@61}.
    assertEquals(5, integer("+document.getElementById('pane-callpaths').dataset.nodes"));
    assertEquals(3, integer("+document.getElementById('pane-threads').dataset.threads"));
    assertEquals(
        "150000000",
        text(
            "document.querySelector('#pane-threads [data-thread=\"fj-worker-1\"]').dataset.value"));
    assertEquals("property", text("document.getElementById('pane-threads').dataset.scope"));

    // Keyboard: → opens the focused property; it then shows its exclusive value and call paths.
    browser.key("ArrowRight", "ArrowRight", 39);
    assertEquals(
        "true",
        text(
            "document.querySelector('#pane-properties"
                + " li[data-key=\"lock_contention\"]').getAttribute('aria-expanded')"));
    assertEquals(
        "0",
        text(
            "document.querySelector('#pane-properties"
                + " .row[data-id=\"lock_contention\"]').dataset.value"));
    assertEquals(0, integer("+document.getElementById('pane-callpaths').dataset.nodes"));
    // ↓ moves to (and selects) the first child.
    browser.key("ArrowDown", "ArrowDown", 40);
    assertEquals(
        "monitor_contention", text("document.getElementById('pane-callpaths').dataset.property"));
    assertEquals("monitor_contention", text("document.activeElement.dataset.key"));

    // A call path with a per-thread split narrows the thread pane to it.
    browser.click("#pane-properties .row[data-id=\"lock_api_contention\"] .name");
    browser.click("#pane-callpaths li[data-key$=\"ReentrantLock.lock @ App.java:61\"] .name");
    assertEquals("callpath", text("document.getElementById('pane-threads').dataset.scope"));
    assertEquals(1, integer("+document.getElementById('pane-threads').dataset.threads"));
    assertEquals(
        "80000000",
        text("document.querySelector('#pane-threads [data-thread=\"timer\"]').dataset.value"));

    // Without a split, the thread pane says it shows the whole property.
    browser.click("#pane-properties .row[data-id=\"barrier_wait\"] .name");
    browser.click("#pane-callpaths li[data-key$=\"CyclicBarrier.await @ Worker.java:55\"] .name");
    assertEquals("property", text("document.getElementById('pane-threads').dataset.scope"));
    assertTrue(
        text("document.getElementById('thread-caption').textContent")
            .contains("no per-call-path thread split"));
    assertEquals(3, integer("+document.getElementById('pane-threads').dataset.threads"));

    // Timeline: five threads in three groups, every interval and arrow of the trace.
    assertEquals("detailed", text("document.getElementById('timeline').dataset.mode"));
    assertEquals(5, integer("+document.getElementById('timeline').dataset.tracks"));
    assertEquals(3, integer("+document.getElementById('timeline').dataset.groups"));
    // 12 activities and main's lock hold.
    assertEquals(13, integer("+document.getElementById('timeline').dataset.intervals"));
    assertEquals(3, integer("+document.getElementById('timeline').dataset.arrows"));
    long viewEnd = browser.eval("+document.getElementById('timeline').dataset.viewEnd").asLong();
    assertEquals(2000, viewEnd);
    // + on the focused canvas zooms in around the middle; 0 shows everything again.
    browser.click("#timeline-canvas");
    browser.key("+", "Equal", 187);
    long zoomed = browser.eval("+document.getElementById('timeline').dataset.viewEnd").asLong();
    assertTrue(zoomed < 2000, "zoomed in: " + zoomed);
    browser.key("ArrowRight", "ArrowRight", 39);
    assertNotEquals(
        zoomed, browser.eval("+document.getElementById('timeline').dataset.viewEnd").asLong());
    browser.key("0", "Digit0", 48);
    assertEquals(
        2000, browser.eval("+document.getElementById('timeline').dataset.viewEnd").asLong());
    // Ctrl+wheel zooms around the pointer; dragging pans; the buttons zoom and reset.
    JsonNode canvas = browser.box("#timeline-canvas");
    double px = canvas.get("x").asDouble() + 170 + (canvas.get("width").asDouble() - 178) * 0.75;
    double py = canvas.get("y").asDouble() + 60;
    browser.wheel(px, py, -400, HeadlessChromium.CTRL);
    long start = browser.eval("+document.getElementById('timeline').dataset.viewStart").asLong();
    long end = browser.eval("+document.getElementById('timeline').dataset.viewEnd").asLong();
    assertTrue(
        start > 0 && end < 2000 && end > 1500, "zoomed around 1500 ns: " + start + ".." + end);
    browser.drag(px, py, px - 200, py);
    long dragged = browser.eval("+document.getElementById('timeline').dataset.viewStart").asLong();
    assertTrue(dragged > start, "dragging left moves the view later: " + start + " -> " + dragged);
    browser.click("#timeline button[aria-label^='Show the whole trace']");
    assertEquals(
        0, browser.eval("+document.getElementById('timeline').dataset.viewStart").asLong());
    browser.click("#timeline button[aria-label^='Zoom in']");
    assertTrue(
        browser.eval("+document.getElementById('timeline').dataset.viewEnd").asLong() < 2000);
    browser.click("#timeline button[aria-label^='Show the whole trace']");
    // With 'time' selected nothing is dimmed.
    browser.click("#pane-properties .row[data-id=\"time\"] .name");
    // The canvas really has the tracks' colours: the main thread's region (sky blue) is painted.
    assertTrue(browser.eval(canvasHasColor(0x56, 0xB4, 0xE9)).asBoolean(), "region colour drawn");
    assertTrue(
        browser.eval(canvasHasColor(0xD5, 0x5E, 0x00)).asBoolean(), "lock wait colour drawn");

    // Clicking a thread in the thread pane highlights its track.
    browser.click("#pane-properties .row[data-id=\"barrier_wait\"] .name");
    browser.click("#pane-threads [data-thread=\"timer\"]");
    assertEquals("timer", text("document.getElementById('timeline').dataset.highlighted"));

    // Regions: the location link selects the call path through it.
    assertEquals(2, integer("+document.getElementById('regions').dataset.regions"));
    browser.click("#pane-properties .row[data-id=\"execution\"] .name");
    browser.click("#regions tr[data-location=\"App.java:20\"] button");
    assertEquals(
        "yes",
        text("document.querySelector('#regions tr[data-location=\"App.java:20\"]').dataset.found"));
    assertEquals(
        "work_imbalance", text("document.getElementById('pane-callpaths').dataset.property"));
    assertTrue(
        text("document.querySelector('#pane-callpaths li[aria-selected=\"true\"]').dataset.key")
            .endsWith("parallel stream @ App.java:20"));

    // A location no call path passes through says so.
    browser.click("#regions tr[data-location=\"Worker.java:12\"] button");
    assertEquals(
        "no",
        text(
            "document.querySelector('#regions tr[data-location=\"Worker.java:12\"]').dataset.found"));
    assertTrue(
        text("document.getElementById('regions-status').textContent").contains("Worker.java:12"));

    // The note's markup is shown as text, not run.
    assertTrue(text("document.getElementById('notes').textContent").contains("</script><b>x</b>"));

    Path shot = Paths.get("target", "report-screenshot.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, browser.screenshot());
    assertTrue(Files.size(shot) > 10_000, "screenshot written");
    assertNoJavaScriptErrors();
  }

  /**
   * Colours: work, each wait, sleep and lock holds apart. Selecting a property highlights its
   * intervals and dims the rest; selecting a call path narrows that to the intervals at it. The
   * plain wheel over the timeline scrolls the page and leaves the view alone.
   */
  @Test
  void selectionHighlightsItsIntervalsAndTheWheelScrollsThePage() throws Exception {
    Path trace = Fixtures.smallTrace(tmp.resolve("focus"));
    Path page = writeReport(tmp.resolve("focus.html"), Fixtures.analysis(), trace);
    open(page);
    browser.click("#pane-properties .row[data-id=\"time\"] .name");
    assertEquals("", text("document.getElementById('timeline').dataset.focus"));
    // main sleeps (light grey, not the condition-wait wine) and holds a lock (orange strip); the
    // timer waits at a barrier (yellow); workers run regions (sky blue).
    for (int[] rgb :
        new int[][] {
          {0xBB, 0xBB, 0xBB}, {0xE6, 0x9F, 0x00}, {0xF0, 0xE4, 0x42}, {0x56, 0xB4, 0xE9}
        }) {
      assertTrue(
          browser.eval(canvasHasColor(rgb[0], rgb[1], rgb[2])).asBoolean(),
          String.format("colour %02X%02X%02X drawn", rgb[0], rgb[1], rgb[2]));
    }
    assertFalse(browser.eval(canvasHasColor(0x88, 0x22, 0x55)).asBoolean(), "no condition wait");

    // Lock contention: its lock wait keeps its colour, everything else is dimmed to a quarter.
    browser.click("#pane-properties .row[data-id=\"lock_contention\"] .name");
    assertEquals("lock_contention", text("document.getElementById('timeline').dataset.focus"));
    assertEquals(1, integer("+document.getElementById('timeline').dataset.focusIntervals"));
    assertTrue(browser.eval(canvasHasColor(0xD5, 0x5E, 0x00)).asBoolean(), "lock wait in full");
    assertFalse(browser.eval(canvasHasColor(0x56, 0xB4, 0xE9)).asBoolean(), "no region in full");
    assertTrue(browser.eval(canvasHasColor(0x56, 0xB4, 0xE9, 0.25)).asBoolean(), "regions dimmed");
    assertTrue(
        browser.eval(canvasHasColor(0xF0, 0xE4, 0x42, 0.25)).asBoolean(), "barrier wait dimmed");

    // A call path narrows the highlight to the intervals at it: the wait at Worker.java:33 is one,
    // App.java:61 has none in this trace.
    browser.key("ArrowRight", "ArrowRight", 39);
    browser.click("#pane-properties .row[data-id=\"lock_api_contention\"] .name");
    browser.click("#pane-callpaths li[data-key$=\"ReentrantLock.lock @ Worker.java:33\"] .name");
    assertEquals(1, integer("+document.getElementById('timeline').dataset.focusIntervals"));
    assertTrue(browser.eval(canvasHasColor(0xD5, 0x5E, 0x00)).asBoolean(), "its wait in full");
    browser.click("#pane-callpaths li[data-key$=\"ReentrantLock.lock @ App.java:61\"] .name");
    assertEquals(0, integer("+document.getElementById('timeline').dataset.focusIntervals"));
    assertFalse(browser.eval(canvasHasColor(0xD5, 0x5E, 0x00)).asBoolean(), "no wait in full");
    assertTrue(browser.eval(canvasHasColor(0xD5, 0x5E, 0x00, 0.25)).asBoolean(), "wait dimmed");

    // Execution highlights the work: regions in full again.
    browser.click("#pane-properties .row[data-id=\"execution\"] .name");
    assertTrue(browser.eval(canvasHasColor(0x56, 0xB4, 0xE9)).asBoolean(), "regions in full");

    // The plain wheel over the canvas leaves the view as it is and its default (scrolling the
    // page) alone; Ctrl+wheel zooms and takes the event.
    browser.eval(
        "window.addEventListener('wheel', (e) => { window.wheelPrevented = e.defaultPrevented; })");
    JsonNode canvas = browser.box("#timeline-canvas");
    double px = canvas.get("x").asDouble() + canvas.get("width").asDouble() / 2;
    double py = canvas.get("y").asDouble() + 40;
    browser.wheel(px, py, 300);
    assertEquals("false", text("String(window.wheelPrevented)"));
    assertEquals(0, integer("+document.getElementById('timeline').dataset.viewStart"));
    assertEquals(2000, integer("+document.getElementById('timeline').dataset.viewEnd"));
    browser.wheel(px, py, -300, HeadlessChromium.CTRL);
    assertEquals("true", text("String(window.wheelPrevented)"));
    assertTrue(integer("+document.getElementById('timeline').dataset.viewEnd") < 2000, "zoomed");
    assertNoJavaScriptErrors();
  }

  /**
   * The critical path of the small trace, as the analyzer finds it, is drawn over the timeline in
   * its own colour at its segments' positions, and the legend's checkbox takes it away and back.
   */
  @Test
  void criticalPathIsDrawnOverTheTimelineAndToggledInTheLegend() throws Exception {
    Path trace = Fixtures.smallTrace(tmp.resolve("critical"));
    JsonNode analyzed = Fixtures.JSON.readTree(AnalysisJson.toJson(Analyzer.analyze(trace)));
    JsonNode cp = analyzed.get("critical_path");
    assertTrue(cp.get("segments").size() > 1, cp.toString());
    ObjectNode analysis = Fixtures.analysis();
    analysis.set("critical_path", cp);
    Path page = writeReport(tmp.resolve("critical.html"), analysis, trace);
    open(page);
    String timeline = "document.getElementById('timeline').dataset";
    assertEquals(cp.get("segments").size(), integer("+" + timeline + ".criticalSegments"));
    assertEquals("on", text(timeline + ".critical"));
    String probe = text(timeline + ".criticalProbe");
    assertFalse(probe.isEmpty(), "a segment is in view");
    assertEquals("238,51,119", text(pixelAt(probe)), "the path's colour at " + probe);
    assertTrue(browser.eval(canvasHasColor(0xEE, 0x33, 0x77)).asBoolean());

    browser.click("#tl-critical");
    assertEquals("off", text(timeline + ".critical"));
    assertNotEquals("238,51,119", text(pixelAt(probe)), "nothing drawn over " + probe);
    assertFalse(browser.eval(canvasHasColor(0xEE, 0x33, 0x77)).asBoolean());
    browser.click("#tl-critical");
    assertEquals("238,51,119", text(pixelAt(probe)));
    assertNoJavaScriptErrors();
  }

  /** A script giving the canvas pixel at CSS position "x,y" as "r,g,b". */
  private static String pixelAt(String xy) {
    return "(() => { const c = document.getElementById('timeline-canvas');"
        + " const dpr = c.width / c.clientWidth; const p = '"
        + xy
        + "'.split(',').map(Number);"
        + " const d = c.getContext('2d').getImageData(Math.floor(p[0] * dpr),"
        + " Math.floor(p[1] * dpr), 1, 1).data; return d[0] + ',' + d[1] + ',' + d[2]; })()";
  }

  /** A script that tells whether some canvas pixel has this colour. */
  private static String canvasHasColor(int r, int g, int b) {
    return canvasHasColor(r, g, b, 1.0);
  }

  /**
   * A script that tells whether some canvas pixel has this colour drawn over white with one of the
   * given opacities.
   */
  private static String canvasHasColor(int r, int g, int b, double... alphas) {
    StringBuilder wanted = new StringBuilder("[");
    for (double a : alphas) {
      wanted.append(
          String.format(
              java.util.Locale.ROOT,
              "[%.1f,%.1f,%.1f],",
              255 + (r - 255) * a,
              255 + (g - 255) * a,
              255 + (b - 255) * a));
    }
    wanted.append("]");
    return "(() => { const c = document.getElementById('timeline-canvas');"
        + " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        + " const want = "
        + wanted
        + "; for (let i = 0; i < d.length; i += 4) for (const w of want) { if (Math.abs(d[i] -"
        + " w[0]) < 3 && Math.abs(d[i + 1] - w[1]) < 3 && Math.abs(d[i + 2] - w[2]) < 3) return"
        + " true; } return false; })()";
  }

  @Test
  void reportWithoutTraceSaysThereIsNoTimeline() throws Exception {
    Path page = writeReport(tmp.resolve("notrace.html"), Fixtures.analysis(), null);
    open(page);
    assertEquals(0, integer("+document.getElementById('timeline').dataset.tracks"));
    assertTrue(text("document.getElementById('timeline').textContent").contains("no timeline"));
    assertNoJavaScriptErrors();
  }

  @Test
  void comparisonShowsBothValuesAndTheirDifference() throws Exception {
    ObjectNode a = Fixtures.analysis();
    ObjectNode b = Fixtures.analysis();
    for (JsonNode p : b.get("properties")) {
      if (p.get("id").asText().equals("lock_contention")) {
        ((ObjectNode) p).put("severity_ns", 550_000_000L);
      }
    }
    ((ObjectNode) b.get("regions").get(0)).put("imbalance", 0.75);
    Path page = tmp.resolve("diff.html");
    try (OutputStream out = Files.newOutputStream(page)) {
      HtmlReport.writeDiff(a, b, out);
    }
    open(page);
    assertEquals("diff", text("document.getElementById('app').dataset.page"));
    assertEquals(13, integer("+document.getElementById('diff-properties').dataset.properties"));
    String row = "document.querySelector('#diff-properties .row[data-id=\"lock_contention\"]')";
    assertEquals("350000000", text(row + ".dataset.a"));
    assertEquals("550000000", text(row + ".dataset.b"));
    assertEquals("200000000", text(row + ".dataset.delta"));
    assertTrue(text(row + ".textContent").contains("▲ +5.00 pp"));
    assertEquals(2, integer("+document.getElementById('diff-regions').dataset.regions"));
    assertTrue(
        text("document.querySelector('#diff-regions tr[data-region=\"parallel"
                + " stream\"]').textContent")
            .contains("▲ +0.50"));
    // Keyboard: the tree opens with →.
    browser.click("#diff-properties .row[data-id=\"lock_contention\"] .name");
    browser.key("ArrowRight", "ArrowRight", 39);
    assertEquals(
        1,
        integer(
            "document.querySelectorAll('#diff-properties"
                + " .row[data-id=\"monitor_contention\"]').length"));
    assertNoJavaScriptErrors();
  }

  @Test
  void manyThreadsScrollUnderAFixedSizeCanvas() throws Exception {
    Path trace = tmp.resolve("wide");
    SyntheticTrace.write(trace, 200_000, 250, 50, 7);
    Path page = writeReport(tmp.resolve("wide.html"), Fixtures.analysis(), trace);
    open(page);
    assertEquals(301, integer("+document.getElementById('timeline').dataset.tracks"));
    assertEquals(3, integer("+document.getElementById('timeline').dataset.groups"));
    int canvasHeight = integer("document.getElementById('timeline-canvas').height");
    assertTrue(canvasHeight < 1000, "canvas height " + canvasHeight);
    assertEquals(0, integer("+document.getElementById('timeline').dataset.offset"));
    browser.click("#timeline-canvas");
    for (int i = 0; i < 5; i++) {
      browser.key("ArrowDown", "ArrowDown", 40);
    }
    // Scrolling redraws on the next animation frame.
    browser.eval("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    assertTrue(integer("+document.getElementById('timeline').dataset.offset") > 0, "scrolled down");
    assertNoJavaScriptErrors();
  }

  @Test
  void millionEventTraceIsSummarisedSmallAndLoads() throws Exception {
    Path trace = tmp.resolve("million");
    long events = SyntheticTrace.write(trace, 1_000_000, 6, 2, 42);
    Path page = tmp.resolve("million.html");
    long t0 = System.nanoTime();
    writeReport(page, Fixtures.analysis(), trace);
    long writeMs = (System.nanoTime() - t0) / 1_000_000;
    long size = Files.size(page);
    Duration load = open(page);
    double renderMs = browser.eval("+document.getElementById('app').dataset.renderMs").asDouble();
    System.out.printf(
        "report of %,d events: %,d bytes, written in %d ms, opened in %d ms (rendered at %.0f"
            + " ms)%n",
        events, size, writeMs, load.toMillis(), renderMs);
    assertTrue(size <= 5 * 1024 * 1024, "page size " + size);
    assertEquals("summarised", text("document.getElementById('timeline').dataset.mode"));
    assertEquals(9, integer("+document.getElementById('timeline').dataset.tracks"));
    // A cleanly closed trace tells its length up front, so (nearly) all 4096 columns are used.
    int columns = integer("+document.getElementById('timeline').dataset.columns");
    assertTrue(columns > 4000 && columns <= 4096, "columns used: " + columns);
    assertTrue(text("document.getElementById('timeline-mode').textContent").contains("Summarised"));
    Files.write(Paths.get("target", "report-screenshot-summarised.png"), browser.screenshot());
    // Workers spend most of a column in their traced method (region, sky blue) at some opacity.
    assertTrue(
        browser.eval(canvasHasColor(0x56, 0xB4, 0xE9, 0.4, 0.6, 0.8, 1.0)).asBoolean(),
        "region colour drawn");

    // Zooming in returns to detail: the kept stretches, all drawn once a column is 3+ px wide.
    int kept = integer("+document.getElementById('timeline').dataset.kept");
    assertTrue(kept > 100, "stretches kept: " + kept);
    // At the full view only stretches a column long are drawn; zoomed in, every kept one is.
    assertEquals(
        integer("+document.getElementById('timeline').dataset.columnNs"),
        integer("+document.getElementById('timeline').dataset.stretchMinNs"),
        "only long stretches at first");
    int atFull = integer("+document.getElementById('timeline').dataset.stretchesDrawn");
    browser.click("#timeline-canvas");
    for (int i = 0; i < 12; i++) {
      browser.key("+", "Equal", 187);
    }
    assertEquals(0, integer("+document.getElementById('timeline').dataset.stretchMinNs"));
    int zoomed = integer("+document.getElementById('timeline').dataset.stretchesDrawn");
    assertTrue(zoomed > 0, "stretches drawn when zoomed in (" + atFull + " at full view)");
    // Exact stretches are drawn in the kind's full colour.
    assertTrue(browser.eval(canvasHasColor(0x56, 0xB4, 0xE9)).asBoolean(), "region in full");
    assertNoJavaScriptErrors();
  }
}
