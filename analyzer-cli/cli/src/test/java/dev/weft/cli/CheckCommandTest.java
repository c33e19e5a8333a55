package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.check.AnalysisFile;
import dev.weft.check.Budgets;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import picocli.CommandLine;

class CheckCommandTest {
  @TempDir Path tmp;
  Path base;

  @BeforeEach
  void writeBaseline() throws Exception {
    base = Analyses.write(tmp.resolve("base.json"), Analyses.baseline(), 50_000_000L);
  }

  private Path current(String id, double percent) throws Exception {
    Map<String, Double> p = Analyses.baseline();
    p.put(id, percent);
    return Analyses.write(tmp.resolve("current.json"), p, 50_000_000L);
  }

  private static List<String> lines(Cli.Result r, String prefix) {
    return r.outLines().stream().filter(l -> l.startsWith(prefix)).collect(Collectors.toList());
  }

  @Test
  void passesAgainstItsOwnBaseline() {
    Cli.Result r = Cli.run("check", base.toString(), "--baseline", base.toString());
    assertEquals(0, r.exit(), r.toString());
    assertEquals(10, lines(r, "PASS  ").size(), r.out());
    assertTrue(lines(r, "FAIL").isEmpty(), r.out());
    // Not checked, and not counted as passing: work, and a share below the noise floor.
    assertEquals(
        List.of(
            "----  time: not a wait state, not checked for growth",
            "----  execution: not a wait state, not checked for growth",
            "----  spin_wait: below the noise floor of 0.50 %"),
        lines(r, "----"));
    assertTrue(
        r.out().contains("weft check: OK: 10 properties within limits, 3 not checked"), r.out());
    assertTrue(
        r.out()
            .contains(
                "PASS  lock_contention: 6.00 % of time, baseline 6.00 %: +0.0 %, within +10.0 %"),
        r.out());
    assertEquals("", r.err());
  }

  @Test
  void failsOnARegressionBeyondTheAllowedGrowth() throws Exception {
    Path cur = current("lock_contention", 7.0); // +16.7 %
    Cli.Result r = Cli.run("check", cur.toString(), "--baseline", base.toString());
    assertEquals(1, r.exit(), r.toString());
    assertEquals(
        List.of(
            "FAIL  lock_contention: 7.00 % of time, baseline 6.00 %: +16.7 % > +10.0 % allowed"
                + " (worst call path: main > solve @ Solver.java:42, at Solver.java:42)"),
        lines(r, "FAIL"));
    assertTrue(
        r.out().contains("FAILED: 1 of 10 properties (lock_contention), 3 not checked"), r.out());
    // The same growth passes when more is allowed.
    assertEquals(
        0,
        Cli.run("check", cur.toString(), "--baseline", base.toString(), "--max-regression", "20%")
            .exit());
  }

  @Test
  void smallGrowthAndShrinkingPass() throws Exception {
    Map<String, Double> p = Analyses.baseline();
    p.put("barrier_wait", 8.5); // +6.25 %
    p.put("join_wait", 1.0); // better
    p.put("execution", 90.0); // more useful work is never a regression
    Path cur = Analyses.write(tmp.resolve("c.json"), p, 0);
    Cli.Result r = Cli.run("check", cur.toString(), "--baseline", base.toString());
    assertEquals(0, r.exit(), r.toString());
  }

  @Test
  void noiseFloorIgnoresTinyProperties() throws Exception {
    Path cur = current("spin_wait", 0.4); // doubled, but below the default floor of 0.5 %
    Cli.Result r = Cli.run("check", cur.toString(), "--baseline", base.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("----  spin_wait: below the noise floor of 0.50 %"), r.out());
    r = Cli.run("check", cur.toString(), "--baseline", base.toString(), "--noise-floor", "0.1%");
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        lines(r, "FAIL")
            .get(0)
            .startsWith("FAIL  spin_wait: 0.40 % of time, baseline 0.20 %: +100.0 %"),
        r.out());
  }

  @Test
  void aWaitStateThatWasNotThereFails() throws Exception {
    Map<String, Double> p = Analyses.baseline();
    p.put("thread_management", 0.0);
    Path baseWithout = Analyses.write(tmp.resolve("b0.json"), p, 0);
    Cli.Result r = Cli.run("check", base.toString(), "--baseline", baseWithout.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        lines(r, "FAIL")
            .get(0)
            .contains("thread_management: 1.00 % of time, baseline 0: a new wait state"),
        r.out());
  }

  /**
   * A baseline analysed by an older Weft lacks a property this one has (it counted that time
   * elsewhere, e.g. as execution): the property is not compared, and its parent is compared without
   * it, so that upgrading Weft does not fail a CI gate.
   */
  @Test
  void aPropertyTheBaselinesAnalyzerDidNotHaveIsNotCompared() throws Exception {
    Map<String, Double> older = Analyses.baseline();
    older.remove("limited_parallelism");
    older.put("idle_threads", 6.0);
    older.put("execution", 74.0);
    Path baseOlder = Analyses.write(tmp.resolve("older.json"), older, 0);
    Cli.Result r = Cli.run("check", base.toString(), "--baseline", baseOlder.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(
        r.out()
            .contains(
                "----  limited_parallelism: not in the baseline's analysis (an older Weft, which"
                    + " counted this time elsewhere): not compared"),
        r.out());
    assertTrue(
        r.out()
            .contains(
                "PASS  idle_threads: 6.00 % of time, baseline 6.00 %: +0.0 %, within +10.0 %"
                    + " (without limited_parallelism, new since the baseline's analysis)"),
        r.out());
    // The parent's own growth still counts.
    Map<String, Double> grown = Analyses.baseline();
    grown.put("idle_threads", 12.0);
    Path cur = Analyses.write(tmp.resolve("grown.json"), grown, 0);
    r = Cli.run("check", cur.toString(), "--baseline", baseOlder.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(
        lines(r, "FAIL").get(0).startsWith("FAIL  idle_threads: 8.00 % of time, baseline 6.00 %"),
        r.out());
  }

  @Test
  void budgetExceededFails() {
    Cli.Result r =
        Cli.run(
            "check", base.toString(), "--baseline", base.toString(), "--budget", "barrier_wait=5%");
    assertEquals(1, r.exit(), r.toString());
    assertEquals(
        List.of(
            "FAIL  barrier_wait: 8.00 % of time is over its budget of 5.00 % (worst call path:"
                + " main > solve @ Solver.java:42, at Solver.java:42)"),
        lines(r, "FAIL"));
    r =
        Cli.run(
            "check",
            base.toString(),
            "--baseline",
            base.toString(),
            "--budget",
            "barrier_wait=10",
            "--budget",
            "join_wait=5.5%");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("within its budget of 10.00 %"), r.out());
  }

  @Test
  void unknownBudgetPropertyIsBadUsage() {
    Cli.Result r =
        Cli.run(
            "check", base.toString(), "--baseline", base.toString(), "--budget", "barier_wait=5%");
    BadInputTest.assertOneLineError(
        r, "unknown property 'barier_wait' in --budget (properties: time, execution,");
    r =
        Cli.run(
            "check",
            base.toString(),
            "--baseline",
            base.toString(),
            "--budget",
            "barrier_wait=lots");
    BadInputTest.assertOneLineError(r, "'lots' is not a percentage");
  }

  @Test
  void junitReportHasOneTestCasePerProperty() throws Exception {
    Path cur = current("lock_contention", 9.0);
    Path xml = tmp.resolve("reports/weft-check.xml");
    Cli.Result r =
        Cli.run(
            "check",
            cur.toString(),
            "--baseline",
            base.toString(),
            "--budget",
            "barrier_wait=5%",
            "--junit",
            xml.toString());
    assertEquals(1, r.exit(), r.toString());
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Document doc = f.newDocumentBuilder().parse(xml.toFile());
    Element suite = (Element) doc.getElementsByTagName("testsuite").item(0);
    assertEquals("13", suite.getAttribute("tests"));
    assertEquals("2", suite.getAttribute("failures"));
    assertEquals("3", suite.getAttribute("skipped"));
    NodeList cases = doc.getElementsByTagName("testcase");
    assertEquals(13, cases.getLength());
    int failures = 0;
    for (int i = 0; i < cases.getLength(); i++) {
      Element c = (Element) cases.item(i);
      assertEquals(Analyses.TREE.keySet().toArray()[i], c.getAttribute("name"));
      NodeList failure = c.getElementsByTagName("failure");
      if (failure.getLength() > 0) {
        failures++;
        String message = ((Element) failure.item(0)).getAttribute("message");
        assertTrue(message.startsWith(c.getAttribute("name") + ": "), message);
        assertEquals(
            c.getAttribute("name").equals("barrier_wait") ? "budget" : "regression",
            ((Element) failure.item(0)).getAttribute("type"));
      }
    }
    assertEquals(2, failures);
  }

  @Test
  void githubActionsAnnotationsOnlyOnGithub() throws Exception {
    Path cur = current("lock_contention", 7.0);
    Cli.Result r =
        Cli.run(
            Map.of("GITHUB_ACTIONS", "true"),
            "check",
            cur.toString(),
            "--baseline",
            base.toString());
    assertEquals(1, r.exit());
    assertEquals(
        List.of(
            "::error file=Solver.java,line=42,title=weft check%3A lock_contention::lock_contention:"
                + " 7.00 %25 of time, baseline 6.00 %25: +16.7 %25 > +10.0 %25 allowed (worst call"
                + " path: main > solve @ Solver.java:42, at Solver.java:42)"),
        lines(r, "::"));
    r = Cli.run(Map.of(), "check", cur.toString(), "--baseline", base.toString());
    assertTrue(lines(r, "::").isEmpty(), r.out());
  }

  @Test
  void inputsThatAreNotAnalyses() throws Exception {
    Path broken =
        Files.writeString(
            tmp.resolve("broken.json"), "{\"format\": \"weft-analysis/1\", \"properties\": [");
    BadInputTest.assertOneLineError(
        Cli.run("check", broken.toString(), "--baseline", base.toString()),
        broken + ": not a Weft analysis (invalid JSON at line 1");
    Path other = Files.writeString(tmp.resolve("other.json"), "{\"traceEvents\": []}");
    BadInputTest.assertOneLineError(
        Cli.run("check", other.toString(), "--baseline", base.toString()),
        "not a Weft analysis (no \"format\"");
    Path future =
        Files.writeString(
            tmp.resolve("future.json"), "{\"format\": \"weft-analysis/2\", \"properties\": []}");
    BadInputTest.assertOneLineError(
        Cli.run("check", future.toString(), "--baseline", base.toString()),
        "analysis format weft-analysis/2 is not supported");
    BadInputTest.assertOneLineError(
        Cli.run("check", tmp.resolve("nope.json").toString(), "--baseline", base.toString()),
        "nope.json: no such file or directory");
    BadInputTest.assertOneLineError(
        Cli.run("check", base.toString()),
        "nothing to check: give a baseline or at least one budget");
  }

  @Test
  void aTraceDirectoryIsAnalysedLikeItsAnalysisFile() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("trace"));
    Path json = tmp.resolve("analysis.json");
    assertEquals(
        0, Cli.run("analyze", trace.toString(), "--format", "json", "-o", json.toString()).exit());
    int properties = Budgets.knownProperties().size();

    Cli.Result r = Cli.run("check", trace.toString(), "--baseline", json.toString());
    assertEquals(0, r.exit(), r.toString());
    assertEquals(properties, lines(r, "PASS  ").size() + lines(r, "----  ").size(), r.out());
    assertTrue(lines(r, "FAIL").isEmpty(), r.out());

    // A baseline with half the lock contention: the trace has regressed.
    ObjectMapper m = new ObjectMapper();
    ObjectNode root = (ObjectNode) m.readTree(json.toFile());
    for (JsonNode p : root.get("properties")) {
      if (p.get("id").asText().equals("lock_contention")) {
        ((ObjectNode) p).put("percent", p.get("percent").asDouble() / 2);
      }
    }
    Path better = tmp.resolve("better.json");
    m.writeValue(better.toFile(), root);
    r = Cli.run("check", trace.toString(), "--baseline", better.toString());
    assertEquals(1, r.exit(), r.toString());
    assertEquals(1, lines(r, "FAIL").size(), r.out());
    assertTrue(lines(r, "FAIL").get(0).startsWith("FAIL  lock_contention: "), r.out());
  }

  @Test
  void aDirectoryThatIsNotATraceIsBadInput() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("empty"));
    BadInputTest.assertOneLineError(
        Cli.run("check", dir.toString(), "--baseline", base.toString()), "not a Weft trace");
  }

  @Test
  void aTraceDirectoryIsAnalysedByTheAnalyzer() throws Exception {
    Path trace = Files.createDirectories(tmp.resolve("trace"));
    CommandLine cl = WeftCommand.newCommandLine(new WeftCommand(Map.of(), false));
    CheckCommand check = cl.getSubcommands().get("check").getCommand();
    check.analyzer = dir -> AnalysisFile.read(current("lock_contention", 7.0));
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    int exit = cl.execute("check", trace.toString(), "--baseline", base.toString());
    assertEquals(1, exit, out.toString());
    assertTrue(out.toString().contains("FAIL  lock_contention"), out.toString());
    assertFalse(out.toString().contains("FAIL  barrier_wait"), out.toString());
  }

  @Test
  void budgetsNeedNoBaseline() throws Exception {
    Cli.Result r = Cli.run("check", base.toString(), "--budget", "barrier_wait=5%");
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.out().startsWith("weft check: " + base + " (budgets only)"), r.out());
    assertEquals(1, lines(r, "FAIL").size(), r.out());
    assertTrue(lines(r, "FAIL").get(0).startsWith("FAIL  barrier_wait: 8.00 % of time is over"));
    // Every other property is listed as not checked, none as passing.
    assertEquals(12, lines(r, "----  ").size(), r.out());
    assertTrue(lines(r, "PASS").isEmpty(), r.out());
    assertTrue(r.out().contains("----  join_wait: no budget and no baseline"), r.out());
    r = Cli.run("check", base.toString(), "--budget", "barrier_wait=9%");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("OK: 1 properties within limits, 12 not checked"), r.out());
  }

  @Test
  void aFailingChildDoesNotAlsoFailItsParent() throws Exception {
    Map<String, Double> p = Analyses.baseline();
    p.put("monitor_contention", 5.5); // +37.5 %
    p.put("lock_contention", 7.5); // +25 %, all of it from monitor_contention
    Path cur = Analyses.write(tmp.resolve("child.json"), p, 0);
    Cli.Result r = Cli.run("check", cur.toString(), "--baseline", base.toString());
    assertEquals(1, r.exit(), r.toString());
    assertEquals(1, lines(r, "FAIL").size(), r.out());
    assertTrue(lines(r, "FAIL").get(0).startsWith("FAIL  monitor_contention: "), r.out());
    assertTrue(
        r.out().contains("+25.0 % > +10.0 % allowed; within limits without monitor_contention"),
        r.out());
    // When the parent's own part grew as well, both fail.
    p.put("lock_contention", 9.0);
    cur = Analyses.write(tmp.resolve("both.json"), p, 0);
    r = Cli.run("check", cur.toString(), "--baseline", base.toString());
    assertEquals(2, lines(r, "FAIL").size(), r.out());
  }

  @Test
  void severalRunsPerSideUseTheRankTest() throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("check"));
    List<String> baseRuns = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Map<String, Double> p = Analyses.baseline();
      p.put("barrier_wait", 8.0 + i * 0.1);
      baseRuns.add(Analyses.write(tmp.resolve("b" + i + ".json"), p, 0).toString());
      p.put("barrier_wait", 9.6 + i * 0.1); // +20 %
      args.add(Analyses.write(tmp.resolve("c" + i + ".json"), p, 0).toString());
    }
    args.add("--baseline");
    args.addAll(baseRuns);
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.out().contains("6 current and 6 baseline runs, Mann-Whitney U at 99 %"), r.out());
    assertEquals(1, lines(r, "FAIL").size(), r.out());
    assertTrue(
        lines(r, "FAIL")
            .get(0)
            .startsWith(
                "FAIL  barrier_wait: median 9.85 % of time over 6 runs, baseline median 8.25 %"
                    + " over 6 runs: +19.4 % (Hodges-Lehmann), p = 0.0011 (Mann-Whitney U,"
                    + " one-sided) < 0.01; > +10.0 % allowed"),
        r.out());
    // The baseline against itself: nothing grew.
    List<String> same = new java.util.ArrayList<>(List.of("check"));
    same.addAll(baseRuns);
    same.add("--baseline");
    same.addAll(baseRuns);
    assertEquals(0, Cli.run(same.toArray(String[]::new)).exit());
    // Two runs a side can never show anything at 99 %: bad input, not a silent pass.
    BadInputTest.assertOneLineError(
        Cli.run("check", args.get(1), args.get(2), "--baseline", baseRuns.get(0), baseRuns.get(1)),
        "2 current and 2 baseline runs cannot show a regression at 99 % confidence: give at"
            + " least 5 runs on each side");
  }
}
