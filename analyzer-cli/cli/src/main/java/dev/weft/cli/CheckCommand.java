package dev.weft.cli;

import dev.weft.check.AnalysisFile;
import dev.weft.check.AnalysisInputs;
import dev.weft.check.Budgets;
import dev.weft.check.Check;
import dev.weft.check.CheckResult;
import dev.weft.check.JUnitReport;
import dev.weft.check.SourceFiles;
import dev.weft.check.Verdict;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code weft check CURRENT... [--baseline BASE...] [--budget ID=PCT...]}: a CI gate on wait
 * states, the command-line front of {@link Check}. Exits 1 when a property exceeds its budget or
 * regressed against the baseline, and says why for each property (and which were not checked); can
 * write a JUnit XML report and GitHub Actions annotations with file and line.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Check wait states against budgets and a baseline (a CI gate): exit 1 on a failure.",
      "Fails if a property's share of time exceeds its --budget, or grew by more than"
          + " --max-regression relative to the baseline (properties below --noise-floor are not"
          + " checked for growth; time and execution are not wait states). With several runs on"
          + " a side, growth counts only when the one-sided Mann-Whitney U test shows it at"
          + " --confidence, and its Hodges-Lehmann estimate exceeds --max-regression. CURRENT and"
          + " BASE are analysis JSON files or trace directories.",
      "With GITHUB_ACTIONS=true each failure is also printed as a GitHub Actions error annotation"
          + " at the source line of its worst call path."
    })
final class CheckCommand implements Callable<Integer> {

  @Parameters(
      arity = "1..*",
      paramLabel = "CURRENT",
      description = "The analyses (or traces) to check: one run, or several runs of one build.")
  List<Path> current;

  @Option(
      names = "--baseline",
      arity = "1..*",
      paramLabel = "BASE",
      description = "The analyses (or traces) to compare with: one run or several.")
  List<Path> baseline = new ArrayList<>();

  @Option(
      names = "--history",
      paramLabel = "DIR",
      description =
          "Compare with the last runs of the same program in the store in DIR (see STORE.md)"
              + " instead of --baseline.")
  Path history;

  @Option(
      names = "--last",
      paramLabel = "N",
      description =
          "With --history: how many of the program's latest runs (default: ${DEFAULT-VALUE}).")
  int last = 10;

  @Option(
      names = "--main-class",
      paramLabel = "CLASS",
      description =
          "With --history: the program whose runs to compare with (default: that of CURRENT's"
              + " trace).")
  String mainClass;

  @Option(
      names = "--max-regression",
      paramLabel = "PCT",
      converter = Percent.Converter.class,
      description =
          "Allowed relative growth of a property's share of time (default: ${DEFAULT-VALUE}%%).")
  double maxRegression = Check.Settings.defaults().maxRegression();

  @Option(
      names = "--noise-floor",
      paramLabel = "PCT",
      converter = Percent.Converter.class,
      description =
          "Properties below this share of time are not checked for growth (default:"
              + " ${DEFAULT-VALUE}%%).")
  double noiseFloor = Check.Settings.defaults().noiseFloor();

  @Option(
      names = "--confidence",
      paramLabel = "PCT",
      converter = Percent.Converter.class,
      description =
          "With several runs per side: the confidence at which growth must be shown (default:"
              + " ${DEFAULT-VALUE}%%).")
  double confidence = Check.Settings.defaults().confidence();

  @Option(
      names = "--budget",
      paramLabel = "ID=PCT",
      completionCandidates = PropertyIds.class,
      description =
          "Absolute limit on a property's share of time, e.g. barrier_wait=5%%; repeatable."
              + " Budgets alone need no baseline.")
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
    Check.Settings settings =
        new Check.Settings(
            Budgets.parse(budgets, "--budget"), maxRegression, noiseFloor, confidence);
    List<AnalysisFile> cur = load(current);
    List<AnalysisFile> base = history == null ? load(baseline) : history(cur);
    CheckResult result = Check.run(cur, base, settings);

    PrintWriter out = spec.commandLine().getOut();
    Style style = color.style();
    out.println(
        "weft check: "
            + names(current)
            + (history != null
                ? " against " + against
                : baseline.isEmpty() ? " (budgets only)" : " against baseline " + names(baseline))
            + " ("
            + settings.describe(cur.size(), base.size())
            + ")");
    for (Verdict v : result.verdicts()) {
      String label =
          switch (v.outcome()) {
            case FAIL -> style.red("FAIL");
            case PASS -> style.green("PASS");
            case NOT_CHECKED -> "----";
          };
      out.println(label + "  " + (v.failed() ? v.message() : v.reason()));
    }
    out.println(
        "weft check: "
            + (result.failed()
                ? result.summary().replace("FAILED", style.red("FAILED"))
                : result.summary()));
    if (result.failed() && "true".equalsIgnoreCase(WeftCommand.root(spec).env("GITHUB_ACTIONS"))) {
      Path here = Path.of("").toAbsolutePath();
      result.githubAnnotations(SourceFiles.resolver(here, List.of(here))).forEach(out::println);
    }
    out.flush();
    if (junit != null) {
      try {
        JUnitReport.write(junit, names(current), names(baseline), result.verdicts());
      } catch (IOException e) {
        throw new BadInputException("cannot write " + ErrorReporting.describe(e), e);
      }
    }
    return result.failed() ? ExitCodes.CHECK_FAILED : ExitCodes.OK;
  }

  /** What --history compared with, for the report's first line. */
  private String against;

  /** The store's last runs of CURRENT's program, as the baseline. */
  private List<AnalysisFile> history(List<AnalysisFile> cur) throws IOException {
    if (!baseline.isEmpty()) {
      throw new BadInputException("give either --baseline or --history, not both");
    }
    if (last < 1) {
      throw new BadInputException("--last must be at least 1");
    }
    if (mainClass == null) {
      mainClass = StoreHistory.mainClass(current.get(0), cur.get(0));
      if (mainClass == null) {
        throw new BadInputException(
            current.get(0) + ": its trace is not there to name the program; give --main-class");
      }
    }
    List<AnalysisFile> runs =
        StoreHistory.lastRuns(history, mainClass, last, false, spec.commandLine().getErr());
    if (runs.isEmpty()) {
      throw new BadInputException(history + ": no stored run of " + mainClass);
    }
    against = "the last " + runs.size() + " runs of " + mainClass + " in " + history;
    if (cur.size() == 1 && runs.size() > 1) {
      // One run against many: against their median, as one run against one.
      against = "the median of " + against;
      return List.of(StoreHistory.median(runs, against));
    }
    return runs;
  }

  private List<AnalysisFile> load(List<Path> inputs) {
    List<AnalysisFile> files = new ArrayList<>();
    for (Path p : inputs) {
      files.add(AnalysisInputs.load(p, analyzer));
    }
    return files;
  }

  private static String names(List<Path> paths) {
    return paths.stream().map(Path::toString).collect(Collectors.joining(" "));
  }
}
