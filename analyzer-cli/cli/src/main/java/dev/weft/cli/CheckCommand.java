package dev.weft.cli;

import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.PropertyRegistry;
import dev.weft.cli.AnalysisDiff.PropertyRow;
import dev.weft.cli.CheckRules.Verdict;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code weft check CURRENT --baseline BASE}: a CI gate on wait states. Exits 1 when a property
 * grew more than allowed relative to the baseline or exceeds its budget (see {@link CheckRules}),
 * and says why for each property; can write a JUnit XML report and GitHub Actions annotations.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Check wait states against a baseline (a CI gate): exit 1 on a regression.",
      "Fails if a property's share of time grew by more than --max-regression relative to the"
          + " baseline (properties below --noise-floor are ignored; time and execution are not"
          + " wait states) or exceeds its --budget. CURRENT and BASE are analysis JSON files or"
          + " trace directories.",
      "With GITHUB_ACTIONS=true each failure is also printed as a GitHub Actions error annotation."
    })
final class CheckCommand implements Callable<Integer> {

  /** The property ids the analyzer knows, for checking {@code --budget} names. */
  static List<String> knownProperties() {
    return PropertyRegistry.infos().stream().map(PropertyInfo::id).collect(Collectors.toList());
  }

  @Parameters(
      index = "0",
      paramLabel = "CURRENT",
      description = "The analysis (or trace) to check.")
  Path current;

  @Option(
      names = "--baseline",
      required = true,
      paramLabel = "BASE",
      description = "The analysis (or trace) to compare with.")
  Path baseline;

  @Option(
      names = "--max-regression",
      paramLabel = "PCT",
      converter = Percent.Converter.class,
      description =
          "Allowed relative growth of a property's share of time (default: ${DEFAULT-VALUE}%%).")
  double maxRegression = 10;

  @Option(
      names = "--noise-floor",
      paramLabel = "PCT",
      converter = Percent.Converter.class,
      description =
          "Properties below this share of time are not checked for growth (default:"
              + " ${DEFAULT-VALUE}%%).")
  double noiseFloor = 0.5;

  @Option(
      names = "--budget",
      paramLabel = "ID=PCT",
      description =
          "Absolute limit on a property's share of time, e.g. barrier_wait=5%%; repeatable.")
  Map<String, String> budgets = new LinkedHashMap<>();

  @Option(
      names = "--junit",
      paramLabel = "FILE",
      description = "Also write a JUnit XML report (one test case per property) to FILE.")
  Path junit;

  @Mixin ColorOption color;

  @Spec CommandSpec spec;

  /** Analyses trace directories; replaceable for tests. */
  AnalysisInputs.TraceAnalyzer analyzer = AnalysisInputs.ANALYZER;

  @Override
  public Integer call() throws IOException {
    AnalysisFile cur = AnalysisInputs.load(current, analyzer);
    AnalysisFile base = AnalysisInputs.load(baseline, analyzer);
    List<PropertyRow> rows = new ArrayList<>(AnalysisDiff.propertyRows(base, cur));
    Map<String, Double> limits = budgets(rows);
    for (String id : limits.keySet()) { // a budget on a property neither run has: it is at 0
      if (rows.stream().noneMatch(r -> r.id().equals(id))) {
        rows.add(new PropertyRow(id, id, null, 0, null, null));
      }
    }
    List<Verdict> verdicts =
        new ArrayList<>(new CheckRules(maxRegression, noiseFloor, limits).judge(rows));
    // Never silent about an analysis that did not see the whole run: a row for each one.
    if (!base.status().equals("complete")) {
      verdicts.add(0, completeness("baseline", base));
    }
    if (!cur.status().equals("complete")) {
      verdicts.add(0, completeness("current", cur));
    }

    PrintWriter out = spec.commandLine().getOut();
    Style style = color.style();
    out.println(
        "weft check: "
            + current
            + " against baseline "
            + baseline
            + String.format(
                Locale.ROOT,
                " (max regression +%.1f %%, noise floor %.2f %% of time)",
                maxRegression,
                noiseFloor));
    for (Verdict v : verdicts) {
      out.println((v.failed() ? style.red("FAIL") : style.green("PASS")) + "  " + v.reason());
    }
    List<Verdict> failed = verdicts.stream().filter(Verdict::failed).collect(Collectors.toList());
    if (failed.isEmpty()) {
      out.println("weft check: OK: " + verdicts.size() + " properties within limits");
    } else {
      out.println(
          "weft check: "
              + style.red("FAILED")
              + ": "
              + failed.size()
              + " of "
              + verdicts.size()
              + " properties ("
              + failed.stream().map(Verdict::id).collect(Collectors.joining(", "))
              + ")");
      if ("true".equalsIgnoreCase(WeftCommand.root(spec).env("GITHUB_ACTIONS"))) {
        for (Verdict v : failed) {
          out.println("::error title=weft check::" + escapeAnnotation(v.reason()));
        }
      }
    }
    out.flush();
    if (junit != null) {
      try {
        JUnitReport.write(junit, current.toString(), baseline.toString(), verdicts);
      } catch (IOException e) {
        throw new BadInputException("cannot write " + ErrorReporting.describe(e), e);
      }
    }
    return failed.isEmpty() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
  }

  /**
   * A partial analysis (of a salvaged, damaged trace) fails the check: its figures cover only part
   * of the run. A cut one passes, with what was cut in the reason.
   */
  private static Verdict completeness(String which, AnalysisFile a) {
    String status = a.status();
    boolean partial = status.equals("partial");
    String reason =
        which
            + " analysis is "
            + status
            + (a.statusDetail().isEmpty() ? "" : ": " + a.statusDetail())
            + (partial ? " (a damaged trace read in part cannot be compared)" : "");
    return new Verdict("status", which + " status", 0, 0, partial, "status", reason);
  }

  private Map<String, Double> budgets(List<PropertyRow> rows) {
    Set<String> known = new LinkedHashSet<>(knownProperties());
    rows.forEach(r -> known.add(r.id()));
    Map<String, Double> limits = new LinkedHashMap<>();
    for (Map.Entry<String, String> b : budgets.entrySet()) {
      String id = b.getKey().strip();
      if (!known.contains(id)) {
        throw new BadInputException(
            "unknown property '"
                + id
                + "' in --budget (properties: "
                + String.join(", ", known)
                + ")");
      }
      try {
        limits.put(id, Percent.parse(b.getValue()));
      } catch (IllegalArgumentException e) {
        throw new BadInputException("--budget " + id + ": " + e.getMessage());
      }
    }
    return limits;
  }

  /** Escapes a message for a GitHub Actions workflow command. */
  static String escapeAnnotation(String message) {
    return message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
  }
}
