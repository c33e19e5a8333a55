package dev.weft.cli;

import dev.weft.cli.AnalysisDiff.PropertyRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rules of {@code weft check}, applied to each property of the current analysis against the
 * baseline. A property fails when
 *
 * <ul>
 *   <li>its share of time exceeds its absolute budget ({@code --budget id=5%}), or
 *   <li>it is a wait state (not {@code time} or {@code execution}), its share is at least the noise
 *       floor, and its share grew relative to the baseline by more than the allowed regression:
 *       {@code (current - baseline) / baseline > max}. Growth from a zero baseline always counts.
 * </ul>
 *
 * Shares are percent of total CPU allocation time, as in the analysis.
 */
final class CheckRules {

  /** The outcome for one property. */
  record Verdict(
      String id,
      String name,
      double current,
      double baseline,
      boolean failed,
      String kind,
      String reason) {}

  private final double maxRegression;
  private final double noiseFloor;
  private final Map<String, Double> budgets;

  /**
   * @param maxRegression allowed relative growth, in percent (10 = +10 %)
   * @param noiseFloor shares below this (in percent of time) are not checked for growth
   * @param budgets absolute limits by property id, in percent of time
   */
  CheckRules(double maxRegression, double noiseFloor, Map<String, Double> budgets) {
    this.maxRegression = maxRegression;
    this.noiseFloor = noiseFloor;
    this.budgets = Map.copyOf(budgets);
  }

  /** Judges every property (metric-tree order). */
  List<Verdict> judge(List<PropertyRow> rows) {
    List<Verdict> verdicts = new ArrayList<>();
    for (PropertyRow row : rows) {
      verdicts.add(judge(row));
    }
    return verdicts;
  }

  Verdict judge(PropertyRow row) {
    String id = row.id();
    double cur = row.bPercent();
    double base = row.aPercent();
    List<String> failures = new ArrayList<>();
    String kind = null;
    Double budget = budgets.get(id);
    if (budget != null && cur > budget) {
      failures.add(pct(cur) + " of time is over its budget of " + pct(budget));
      kind = "budget";
    }
    String note;
    if (AnalysisDiff.isWork(id)) {
      note = "not a wait state, not checked for growth";
    } else if (cur < noiseFloor) {
      note = "below the noise floor of " + pct(noiseFloor);
    } else if (base == 0) {
      failures.add(pct(cur) + " of time, baseline 0: a new wait state");
      kind = kind == null ? "regression" : kind;
      note = null;
    } else {
      double growth = (cur - base) / base * 100;
      String change =
          pct(cur)
              + " of time, baseline "
              + pct(base)
              + String.format(Locale.ROOT, ": %+.1f %%", growth);
      if (growth > maxRegression) {
        failures.add(change + String.format(Locale.ROOT, " > +%.1f %% allowed", maxRegression));
        kind = kind == null ? "regression" : kind;
        note = null;
      } else {
        note = change + String.format(Locale.ROOT, ", within +%.1f %%", maxRegression);
      }
    }
    if (!failures.isEmpty()) {
      return new Verdict(
          id, row.name(), cur, base, true, kind, id + ": " + String.join("; ", failures));
    }
    String reason = id + ": " + (note != null ? note : pct(cur) + " of time");
    if (budget != null) {
      reason += "; within its budget of " + pct(budget);
    }
    return new Verdict(id, row.name(), cur, base, false, null, reason);
  }

  private static String pct(double p) {
    return String.format(Locale.ROOT, "%.2f %%", p);
  }
}
