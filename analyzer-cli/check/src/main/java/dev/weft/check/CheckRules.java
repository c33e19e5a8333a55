package dev.weft.check;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rules of a check, applied to each property's share of time (percent of total CPU allocation
 * time) in one or several runs of the current build and, optionally, of a baseline. A property
 * fails when
 *
 * <ul>
 *   <li>its share exceeds its absolute budget ({@code barrier_wait=5%}); with several runs, their
 *       median does; or
 *   <li>it is a wait state (not {@code time} or {@code execution}), its share is at least the noise
 *       floor, and it grew relative to the baseline by more than the allowed regression. With one
 *       run per side: {@code (current - baseline) / baseline > max}; growth from a zero baseline
 *       always counts. With several runs on either side: the one-sided Mann-Whitney U test finds
 *       the current runs larger at the confidence asked for, and the Hodges-Lehmann estimate of the
 *       growth, relative to the baseline median, exceeds the allowed regression ({@link RankTest}).
 * </ul>
 *
 * A parent does not fail for a regression that its failing descendants account for: its shares
 * without theirs are judged again, and it fails only if that still regresses. Every property that
 * no rule applies to (no budget, and no baseline, below the noise floor, or not a wait state) is
 * {@link Verdict.Outcome#NOT_CHECKED}, never a pass.
 */
public final class CheckRules {

  /**
   * One property's shares of time in each run, in percent.
   *
   * @param parent the parent's id, or null for a root
   * @param current one value per current run (at least one)
   * @param baseline one value per baseline run, empty when there is no baseline
   * @param newSinceBaseline the baseline's analyses do not have this property at all (an older
   *     Weft, which counted its time elsewhere, e.g. as execution): not compared, and not held
   *     against its parent either ({@code baseline} is then empty)
   */
  public record Samples(
      String id,
      String name,
      String parent,
      double[] current,
      double[] baseline,
      boolean newSinceBaseline) {
    /** A property that the baseline's analyses know (or there is no baseline). */
    public Samples(String id, String name, String parent, double[] current, double[] baseline) {
      this(id, name, parent, current, baseline, false);
    }
  }

  private final double maxRegression;
  private final double noiseFloor;
  private final double confidence;
  private final Map<String, Double> budgets;

  /**
   * @param maxRegression allowed relative growth, in percent (10 = +10 %)
   * @param noiseFloor shares below this (in percent of time) are not checked for growth
   * @param confidence for several runs: the confidence (in percent, e.g. 99) the rank test must
   *     reach to call a growth real
   * @param budgets absolute limits by property id, in percent of time
   */
  public CheckRules(
      double maxRegression, double noiseFloor, double confidence, Map<String, Double> budgets) {
    this.maxRegression = maxRegression;
    this.noiseFloor = noiseFloor;
    this.confidence = confidence;
    this.budgets = Map.copyOf(budgets);
  }

  /** Judges every property; the verdicts come in the order of {@code rows} (metric-tree order). */
  public List<Verdict> judge(List<Samples> rows) {
    Map<String, List<Samples>> children = new HashMap<>();
    for (Samples s : rows) {
      if (s.parent() != null) {
        children.computeIfAbsent(s.parent(), k -> new ArrayList<>()).add(s);
      }
    }
    Map<String, Verdict> verdicts = new HashMap<>();
    for (int i = rows.size() - 1; i >= 0; i--) { // children before their parents
      Samples s = rows.get(i);
      List<Samples> failing = new ArrayList<>();
      collectRegressed(s.id(), children, verdicts, failing, new ArrayList<>());
      List<Samples> unknown = new ArrayList<>();
      collectNew(s.id(), children, unknown, new ArrayList<>());
      verdicts.put(s.id(), judge(s, failing, unknown));
    }
    List<Verdict> ordered = new ArrayList<>();
    rows.forEach(s -> ordered.add(verdicts.get(s.id())));
    return ordered;
  }

  /** The outermost descendants of {@code id} that failed for a regression. */
  private static void collectRegressed(
      String id,
      Map<String, List<Samples>> children,
      Map<String, Verdict> verdicts,
      List<Samples> out,
      List<String> seen) {
    if (seen.contains(id)) {
      return; // a parent cycle in a hand-written file
    }
    seen.add(id);
    for (Samples child : children.getOrDefault(id, List.of())) {
      Verdict v = verdicts.get(child.id());
      if (v != null && v.regressed()) {
        out.add(child);
      } else {
        collectRegressed(child.id(), children, verdicts, out, seen);
      }
    }
  }

  /** The outermost descendants of {@code id} that the baseline's analyses do not have. */
  private static void collectNew(
      String id, Map<String, List<Samples>> children, List<Samples> out, List<String> seen) {
    if (seen.contains(id)) {
      return;
    }
    seen.add(id);
    for (Samples child : children.getOrDefault(id, List.of())) {
      if (child.newSinceBaseline()) {
        out.add(child);
      } else {
        collectNew(child.id(), children, out, seen);
      }
    }
  }

  private Verdict judge(Samples s, List<Samples> failingDescendants, List<Samples> newDescendants) {
    String id = s.id();
    double cur = RankTest.median(s.current());
    boolean hasBaseline = s.baseline().length > 0;
    double base = hasBaseline ? RankTest.median(s.baseline()) : Double.NaN;
    List<String> failures = new ArrayList<>();
    String kind = null;
    Double budget = budgets.get(id);
    if (budget != null && cur > budget) {
      failures.add(share(s.current()) + " is over its budget of " + Percent.format(budget));
      kind = "budget";
    }
    String note = null;
    boolean checked = budget != null;
    boolean regressed = false;
    if (s.newSinceBaseline()) {
      note =
          "not in the baseline's analysis (an older Weft, which counted this time elsewhere): not"
              + " compared";
    } else if (!hasBaseline) {
      note = budget == null ? "no budget and no baseline" : null;
    } else if (AnalysisDiff.isWork(id)) {
      note = "not a wait state, not checked for growth";
    } else if (cur < noiseFloor) {
      note = "below the noise floor of " + Percent.format(noiseFloor);
    } else {
      checked = true;
      Growth g = growth(s.current(), s.baseline());
      if (g.regressed && !newDescendants.isEmpty()) {
        // Time the baseline's analyzer counted elsewhere is no growth of this property.
        Growth own = growth(without(s, newDescendants, true), s.baseline());
        g =
            new Growth(
                own.regressed,
                own.text
                    + " (without "
                    + String.join(", ", newDescendants.stream().map(Samples::id).toList())
                    + ", new since the baseline's analysis)");
      }
      if (g.regressed && !failingDescendants.isEmpty()) {
        Growth own =
            growth(without(s, failingDescendants, true), without(s, failingDescendants, false));
        if (!own.regressed) {
          g =
              new Growth(
                  false,
                  g.text
                      + "; within limits without "
                      + String.join(", ", failingDescendants.stream().map(Samples::id).toList())
                      + ", which failed");
        }
      }
      if (g.regressed) {
        failures.add(g.text);
        kind = kind == null ? "regression" : kind;
        regressed = true;
      } else {
        note = g.text;
      }
    }
    if (!failures.isEmpty()) {
      return new Verdict(
          id,
          s.name(),
          Verdict.Outcome.FAIL,
          kind,
          regressed,
          cur,
          base,
          id + ": " + String.join("; ", failures),
          null);
    }
    String reason = id + ": " + (note != null ? note : share(s.current()));
    if (budget != null) {
      reason +=
          (note != null ? "; " + share(s.current()) + "," : ";")
              + " within its budget of "
              + Percent.format(budget);
    }
    return new Verdict(
        id,
        s.name(),
        checked ? Verdict.Outcome.PASS : Verdict.Outcome.NOT_CHECKED,
        null,
        false,
        cur,
        base,
        reason,
        null);
  }

  private record Growth(boolean regressed, String text) {}

  private Growth growth(double[] current, double[] baseline) {
    if (current.length == 1 && baseline.length == 1) {
      double cur = current[0];
      double base = baseline[0];
      if (base <= 0) {
        return new Growth(
            cur > 0,
            Percent.format(cur) + " of time, baseline 0" + (cur > 0 ? ": a new wait state" : ""));
      }
      double growth = (cur - base) / base * 100;
      String change =
          Percent.format(cur)
              + " of time, baseline "
              + Percent.format(base)
              + String.format(Locale.ROOT, ": %+.1f %%", growth);
      return growth > maxRegression
          ? new Growth(
              true, change + String.format(Locale.ROOT, " > +%.1f %% allowed", maxRegression))
          : new Growth(
              false, change + String.format(Locale.ROOT, ", within +%.1f %%", maxRegression));
    }
    double p = RankTest.pGreater(current, baseline);
    double alpha = 1 - confidence / 100;
    double base = RankTest.median(baseline);
    double shift = RankTest.shift(current, baseline);
    String estimate =
        base > 0
            ? String.format(Locale.ROOT, "%+.1f %%", shift / base * 100)
            : String.format(Locale.ROOT, "%+.2f points from 0", shift);
    boolean large = base > 0 ? shift / base * 100 > maxRegression : shift > 0;
    boolean significant = p < alpha;
    String text =
        share(current)
            + ", baseline "
            + share(baseline).replace(" of time", "")
            + ": "
            + estimate
            + " (Hodges-Lehmann), p = "
            + twoDigits(p)
            + " (Mann-Whitney U, one-sided) "
            + (significant ? "< " : "≥ ")
            + twoDigits(alpha);
    if (significant && large) {
      return new Growth(
          true, text + String.format(Locale.ROOT, "; > +%.1f %% allowed", maxRegression));
    }
    return new Growth(
        false,
        text
            + (significant
                ? String.format(Locale.ROOT, "; within +%.1f %%", maxRegression)
                : String.format(Locale.ROOT, ": no growth at %.0f %% confidence", confidence)));
  }

  /** One side's shares of {@code s} without those of {@code descendants}, run by run. */
  private static double[] without(Samples s, List<Samples> descendants, boolean current) {
    double[] own = (current ? s.current() : s.baseline()).clone();
    for (Samples d : descendants) {
      double[] theirs = current ? d.current() : d.baseline();
      for (int i = 0; i < own.length && i < theirs.length; i++) {
        own[i] -= theirs[i];
      }
    }
    return own;
  }

  /** {@code 4.20 % of time}, or the median and run count for several runs. */
  private static String share(double[] runs) {
    return runs.length == 1
        ? Percent.format(runs[0]) + " of time"
        : "median "
            + Percent.format(RankTest.median(runs))
            + " of time over "
            + runs.length
            + " runs";
  }

  /** {@code 0.0011}, {@code 0.01}: two significant digits, no trailing zeros. */
  private static String twoDigits(double v) {
    return new BigDecimal(v).round(new MathContext(2)).stripTrailingZeros().toPlainString();
  }
}
