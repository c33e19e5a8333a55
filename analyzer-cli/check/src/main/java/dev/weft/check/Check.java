package dev.weft.check;

import dev.weft.check.AnalysisDiff.PropertyRow;
import dev.weft.check.AnalysisFile.CallpathShare;
import dev.weft.check.AnalysisFile.Property;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A performance gate: the analyses of one or several runs of the current build, checked against
 * budgets and, optionally, the analyses of runs of a baseline, by {@link CheckRules}. What {@code
 * weft check}, the Maven plugin's {@code check} goal and {@code @WeftBudget} share.
 *
 * <pre>{@code
 * CheckResult r = Check.run(List.of(AnalysisFile.read(path)), List.of(),
 *     Check.Settings.defaults().withBudgets(Budgets.parse(List.of("barrier_wait=5%"), "budget")));
 * if (r.failed()) throw new AssertionError(r.failures().get(0).message());
 * }</pre>
 */
public final class Check {
  private Check() {}

  /**
   * What a check allows.
   *
   * @param budgets absolute limits by property id, in percent of time
   * @param maxRegression allowed relative growth against the baseline, in percent
   * @param noiseFloor shares below this (percent of time) are not checked for growth
   * @param confidence with several runs per side, the confidence in percent that a growth is real
   */
  public record Settings(
      Map<String, Double> budgets, double maxRegression, double noiseFloor, double confidence) {
    public Settings {
      budgets = Map.copyOf(new LinkedHashMap<>(budgets));
      if (!(confidence > 0 && confidence < 100)) {
        throw new CheckInputException(
            "confidence " + confidence + " %: must be above 0 % and below 100 %");
      }
    }

    /** No budgets, +10 % regression allowed, 0.5 % noise floor, 99 % confidence. */
    public static Settings defaults() {
      return new Settings(Map.of(), 10, 0.5, 99);
    }

    public Settings withBudgets(Map<String, Double> limits) {
      return new Settings(limits, maxRegression, noiseFloor, confidence);
    }

    public Settings withMaxRegression(double percent) {
      return new Settings(budgets, percent, noiseFloor, confidence);
    }

    public Settings withNoiseFloor(double percent) {
      return new Settings(budgets, maxRegression, percent, confidence);
    }

    public Settings withConfidence(double percent) {
      return new Settings(budgets, maxRegression, noiseFloor, percent);
    }

    /** {@code max regression +10.0 %, noise floor 0.50 % of time} and, for several runs, more. */
    public String describe(int currentRuns, int baselineRuns) {
      String s =
          String.format(
              Locale.ROOT,
              "max regression +%.1f %%, noise floor %.2f %% of time",
              maxRegression,
              noiseFloor);
      if (baselineRuns > 0 && (currentRuns > 1 || baselineRuns > 1)) {
        s +=
            String.format(
                Locale.ROOT,
                "; %d current and %d baseline runs, Mann-Whitney U at %.0f %% confidence",
                currentRuns,
                baselineRuns,
                confidence);
      }
      return s;
    }
  }

  /**
   * Checks the current runs against the settings' budgets and the baseline runs.
   *
   * @param current analyses of one or more runs of the build being checked
   * @param baseline analyses of the runs to compare with; empty to check budgets only
   * @throws CheckInputException when there is nothing to check, or there are too few runs to ever
   *     reach the confidence asked for
   */
  public static CheckResult run(
      List<AnalysisFile> current, List<AnalysisFile> baseline, Settings settings) {
    if (current.isEmpty()) {
      throw new CheckInputException("no analysis to check");
    }
    if (baseline.isEmpty() && settings.budgets().isEmpty()) {
      throw new CheckInputException("nothing to check: give a baseline or at least one budget");
    }
    int n = current.size();
    int m = baseline.size();
    if (m > 0 && (n > 1 || m > 1)) {
      double alpha = 1 - settings.confidence() / 100;
      if (RankTest.smallestP(n, m) >= alpha) {
        int each = 1;
        while (RankTest.smallestP(each, each) >= alpha) {
          each++;
        }
        throw new CheckInputException(
            String.format(
                Locale.ROOT,
                "%d current and %d baseline runs cannot show a regression at %.0f %% confidence:"
                    + " give at least %d runs on each side (or one on each)",
                n,
                m,
                settings.confidence(),
                each));
      }
    }
    AnalysisFile first = current.get(0);
    List<PropertyRow> rows =
        AnalysisDiff.propertyRows(baseline.isEmpty() ? first : baseline.get(0), first);
    List<CheckRules.Samples> samples = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (PropertyRow row : rows) {
      ids.add(row.id());
      boolean newSinceBaseline = !baseline.isEmpty() && absentFromAll(baseline, row.id());
      samples.add(
          new CheckRules.Samples(
              row.id(),
              row.name(),
              row.parent(),
              shares(current, row.id()),
              newSinceBaseline ? new double[0] : shares(baseline, row.id()),
              newSinceBaseline));
    }
    for (String id : settings.budgets().keySet()) { // a budget on a property no run has: it is 0
      if (!ids.contains(id)) {
        samples.add(new CheckRules.Samples(id, id, null, new double[n], new double[m]));
      }
    }
    List<Verdict> judged =
        new CheckRules(
                settings.maxRegression(),
                settings.noiseFloor(),
                settings.confidence(),
                settings.budgets())
            .judge(samples);
    Map<String, List<String>> children = new HashMap<>();
    for (CheckRules.Samples s : samples) {
      if (s.parent() != null) {
        children.computeIfAbsent(s.parent(), k -> new ArrayList<>()).add(s.id());
      }
    }
    List<Verdict> verdicts = new ArrayList<>();
    // Never silent about an analysis that did not see the whole run: a row for each one.
    for (AnalysisFile a : current) {
      completeness("current", a, n > 1, verdicts);
    }
    for (AnalysisFile a : baseline) {
      completeness("baseline", a, m > 1, verdicts);
    }
    for (Verdict v : judged) {
      verdicts.add(v.failed() ? v.withWorst(worst(v, current, baseline, children)) : v);
    }
    return new CheckResult(verdicts);
  }

  /** Whether no analysis of {@code runs} has property {@code id} (made by an older Weft). */
  private static boolean absentFromAll(List<AnalysisFile> runs, String id) {
    for (AnalysisFile a : runs) {
      if (a.property(id) != null) {
        return false;
      }
    }
    return true;
  }

  private static double[] shares(List<AnalysisFile> runs, String id) {
    double[] s = new double[runs.size()];
    for (int i = 0; i < s.length; i++) {
      Property p = runs.get(i).property(id);
      s[i] = p == null ? 0 : p.percent();
    }
    return s;
  }

  /**
   * A partial analysis (of a salvaged, damaged trace) fails the check: its figures cover only part
   * of the run. A cut one passes, with what was cut in the reason.
   */
  private static void completeness(String which, AnalysisFile a, boolean named, List<Verdict> out) {
    String status = a.status();
    if (status.equals("complete")) {
      return;
    }
    boolean partial = status.equals("partial");
    String reason =
        which
            + " analysis "
            + (named ? a.source() + " " : "")
            + "is "
            + status
            + (a.statusDetail().isEmpty() ? "" : ": " + a.statusDetail())
            + (partial ? " (a damaged trace read in part cannot be compared)" : "");
    out.add(
        new Verdict(
            "status",
            which + " status",
            partial ? Verdict.Outcome.FAIL : Verdict.Outcome.PASS,
            partial ? "status" : null,
            false,
            0,
            Double.NaN,
            reason,
            null));
  }

  /**
   * The call path a failure points at: where the property and its descendants waited most in the
   * current runs or, for a regression, where that grew most over the baseline (mean per run).
   */
  private static CallPath worst(
      Verdict v,
      List<AnalysisFile> current,
      List<AnalysisFile> baseline,
      Map<String, List<String>> children) {
    List<String> ids = new ArrayList<>();
    subtree(v.id(), children, ids);
    Map<List<String>, Double> ns = new LinkedHashMap<>();
    add(ns, current, ids, 1.0 / current.size());
    if (v.regressed() && !v.kind().equals("budget") && !baseline.isEmpty()) {
      add(ns, baseline, ids, -1.0 / baseline.size());
    }
    List<String> best = null;
    double max = 0;
    for (Map.Entry<List<String>, Double> e : ns.entrySet()) {
      if (e.getValue() > max) {
        max = e.getValue();
        best = e.getKey();
      }
    }
    return best == null ? null : CallPath.of(best);
  }

  private static void subtree(String id, Map<String, List<String>> children, List<String> out) {
    if (out.contains(id)) {
      return;
    }
    out.add(id);
    for (String child : children.getOrDefault(id, List.of())) {
      subtree(child, children, out);
    }
  }

  private static void add(
      Map<List<String>, Double> ns, List<AnalysisFile> runs, List<String> ids, double weight) {
    for (AnalysisFile run : runs) {
      for (String id : ids) {
        Property p = run.property(id);
        if (p != null) {
          for (CallpathShare s : p.byCallpath()) {
            ns.merge(s.path(), s.severityNs() * weight, Double::sum);
          }
        }
      }
    }
  }
}
