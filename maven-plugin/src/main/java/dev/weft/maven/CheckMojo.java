package dev.weft.maven;

import dev.weft.check.AnalysisFile;
import dev.weft.check.AnalysisInputs;
import dev.weft.check.Budgets;
import dev.weft.check.Check;
import dev.weft.check.CheckInputException;
import dev.weft.check.CheckResult;
import dev.weft.check.JUnitReport;
import dev.weft.check.Percent;
import dev.weft.check.Verdict;
import dev.weft.trace.TraceFormatException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Analyses the traces the test run recorded (see {@code prepare-agent}) and fails the build when a
 * property exceeds its budget or the run regressed against a baseline, with the rules of {@code
 * weft check} (analyzer-cli/CLI.md). Each test JVM's trace is checked on its own.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public final class CheckMojo extends AbstractMojo {

  /** Where prepare-agent had the traces recorded; each subdirectory is one trace. */
  @Parameter(
      property = "weft.traces",
      defaultValue = "${project.build.directory}/weft-traces",
      required = true)
  File traces;

  /**
   * Absolute limits on properties' shares of time, {@code <budget>barrier_wait=5%</budget>}
   * (property ids from analyzer-cli/PROPERTIES.md).
   */
  @Parameter List<String> budgets;

  /**
   * Analyses ({@code weft analyze --format json}) or trace directories of earlier runs to compare
   * with; one run, or several for the rank test.
   */
  @Parameter List<File> baseline;

  /** Allowed relative growth of a property's share of time against the baseline. */
  @Parameter(property = "weft.maxRegression", defaultValue = "10%")
  String maxRegression;

  /** Properties below this share of time are not checked for growth. */
  @Parameter(property = "weft.noiseFloor", defaultValue = "0.5%")
  String noiseFloor;

  /** With several runs per side: the confidence at which growth must be shown. */
  @Parameter(property = "weft.confidence", defaultValue = "99%")
  String confidence;

  /** Also writes the verdicts as a JUnit XML report (one test case per property) to this file. */
  @Parameter(property = "weft.junitReport")
  File junitReport;

  /** Skips the check. */
  @Parameter(property = "weft.skip", defaultValue = "false")
  boolean skip;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("Skipping weft check (weft.skip)");
      return;
    }
    List<Path> runs = traceDirectories(traces.toPath());
    if (runs.isEmpty()) {
      getLog()
          .warn(
              "weft check: no traces in "
                  + traces
                  + " (did prepare-agent run, and did the tests run with its argLine?)");
      return;
    }
    List<String> failures = new ArrayList<>();
    try {
      Check.Settings settings =
          new Check.Settings(
              Budgets.parse(budgets == null ? List.of() : budgets, "<budget>"),
              percent("maxRegression", maxRegression),
              percent("noiseFloor", noiseFloor),
              percent("confidence", confidence));
      List<AnalysisFile> base = new ArrayList<>();
      for (File b : baseline == null ? List.<File>of() : baseline) {
        base.add(load(b.toPath()));
      }
      String baseNames =
          baseline == null
              ? ""
              : baseline.stream().map(File::toString).collect(Collectors.joining(" "));
      for (Path run : runs) {
        AnalysisFile current = load(run);
        CheckResult result = Check.run(List.of(current), base, settings);
        log(run, baseNames, settings, base.size(), result);
        if (junitReport != null) {
          writeReport(run, runs.size(), baseNames, result);
        }
        result.failures().forEach(v -> failures.add(v.message()));
      }
    } catch (CheckInputException | TraceFormatException e) {
      throw new MojoExecutionException("weft check: " + e.getMessage(), e);
    }
    if (!failures.isEmpty()) {
      throw new MojoFailureException("weft check failed: " + String.join("; ", failures));
    }
  }

  private void log(
      Path run, String baseNames, Check.Settings settings, int baseRuns, CheckResult result) {
    getLog()
        .info(
            "weft check: "
                + run
                + (baseNames.isEmpty() ? " (budgets only)" : " against baseline " + baseNames)
                + " ("
                + settings.describe(1, baseRuns)
                + ")");
    for (Verdict v : result.verdicts()) {
      switch (v.outcome()) {
        case FAIL -> getLog().error("FAIL  " + v.message());
        case PASS -> getLog().info("PASS  " + v.reason());
        case NOT_CHECKED -> getLog().debug("----  " + v.reason());
      }
    }
    getLog().info("weft check: " + result.summary());
  }

  private void writeReport(Path run, int runCount, String baseNames, CheckResult result)
      throws MojoExecutionException {
    Path file = junitReport.toPath();
    if (runCount > 1) { // one report per test JVM
      String name = file.getFileName().toString();
      int dot = name.lastIndexOf('.');
      String suffix = "-" + run.getFileName();
      file =
          file.resolveSibling(
              dot < 0 ? name + suffix : name.substring(0, dot) + suffix + name.substring(dot));
    }
    try {
      JUnitReport.write(file, run.toString(), baseNames, result.verdicts());
    } catch (IOException e) {
      throw new MojoExecutionException("weft check: cannot write " + file + ": " + e, e);
    }
  }

  private static AnalysisFile load(Path input) {
    return AnalysisInputs.load(input, AnalysisInputs.ANALYZER);
  }

  private static double percent(String name, String value) {
    try {
      return Percent.parse(value);
    } catch (IllegalArgumentException e) {
      throw new CheckInputException("<" + name + ">: " + e.getMessage());
    }
  }

  /** The trace directories (those with a definitions file) directly under {@code dir}. */
  static List<Path> traceDirectories(Path dir) throws MojoExecutionException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> children = Files.list(dir)) {
      return children
          .filter(p -> Files.isRegularFile(p.resolve("defs.wdf")))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new MojoExecutionException("cannot list " + dir + ": " + e, e);
    }
  }
}
