package dev.weft.cli;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.report.TextReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code weft demo [SCENARIO]}: the first thing to try. Runs one of the test apps (programs whose
 * wait states are known, testapps/SCENARIOS.md) with the agent, then prints the analysis of its
 * trace.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Record a test program with known wait states and print its analysis.",
      "Runs SCENARIO of weft-testapps.jar (default: barrier-imbalance, threads with staggered"
          + " work meeting at a barrier) with the Weft agent, then analyses the trace. Scenarios"
          + " and their options: java -jar weft-testapps.jar --help (testapps/SCENARIOS.md), e.g.",
      "  weft demo lock-contention --lock synchronized",
      "The trace goes to a temporary directory that is deleted afterwards, unless --keep."
    })
final class DemoCommand implements Callable<Integer> {
  /** The scenario shown when none is named. */
  static final String DEFAULT_SCENARIO = "barrier-imbalance";

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "SCENARIO",
      completionCandidates = CompletionValues.DemoScenarios.class,
      description = "The test app's scenario (default: " + DEFAULT_SCENARIO + ").")
  String scenario = DEFAULT_SCENARIO;

  @Parameters(
      index = "1..*",
      paramLabel = "ARGS",
      description = "The scenario's own options, passed on.")
  List<String> scenarioArgs = new ArrayList<>();

  @Option(
      names = "--keep",
      description =
          "Keep the trace, in weft-traces/demo-<scenario>-<yyyyMMdd-HHmmss> (or --out), and say"
              + " what to do with it next.")
  boolean keep;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Trace directory when the trace is kept (implies --keep).")
  Path out;

  @Option(
      names = "--java",
      paramLabel = "PATH",
      description = "The java to run the test app with (default: the JDK running weft).")
  Path java;

  @Option(
      names = "--agent",
      paramLabel = "JAR",
      description = "The agent jar (default: found like weft run finds it).")
  Path agent;

  @Mixin ColorOption color;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException, InterruptedException {
    WeftCommand root = WeftCommand.root(spec);
    Path agentJar = WeftHome.agentJar(root, agent);
    Path apps = WeftHome.testappsJar(root);
    Path javaExe = WeftHome.javaExecutable(root, java);
    boolean kept = keep || out != null;
    Path work = Files.createTempDirectory("weft-demo");
    try {
      Path dir = kept ? keptDirectory() : work.resolve("trace");
      List<String> command = new ArrayList<>();
      command.add(javaExe.toString());
      command.add("-javaagent:" + agentJar + "=" + RunCommand.agentOptions(dir, List.of()));
      command.add("-jar");
      command.add(apps.toString());
      command.add(scenario);
      command.addAll(scenarioArgs);

      PrintWriter err = spec.commandLine().getErr();
      err.println(
          "weft: demo: running scenario '" + scenario + "' of the test apps with the agent");
      err.flush();
      Path programOut = work.resolve("program.out");
      Path programErr = work.resolve("program.err");
      Process p;
      try {
        p =
            new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(nullFile()))
                .redirectOutput(programOut.toFile())
                .redirectError(programErr.toFile())
                .start();
      } catch (IOException e) {
        throw new BadInputException("cannot run " + javaExe + ": " + ErrorReporting.describe(e), e);
      }
      int exit = p.waitFor();
      if (exit != 0) {
        throw new BadInputException(
            "the test app failed (exit " + exit + "): " + firstLine(programErr, programOut));
      }
      if (!Files.isDirectory(dir)) {
        throw new BadInputException(
            "the agent wrote no trace to " + dir + ": " + firstLine(programErr, programOut));
      }
      AnalysisResult result = Analyzer.analyze(dir);
      PrintWriter outWriter = spec.commandLine().getOut();
      outWriter.print(
          TextReportColors.apply(
              TextReport.render(result, Terminal.columns(WeftCommand.root(spec))), color.style()));
      outWriter.flush();
      if (result.trace().events() == 0) {
        err.println(
            "weft: demo: note: the trace holds no events: this agent does not instrument the"
                + " constructs scenario '"
                + scenario
                + "' uses (see agent/OPTIONS.md, construct families)");
      }
      if (kept) {
        err.println(
            "weft: demo: trace in "
                + dir
                + "  (next: weft analyze "
                + dir
                + " --format html -o report.html, or weft export "
                + dir
                + " -o trace.json for Perfetto)");
      } else {
        err.println(
            "weft: demo: the trace was in a temporary directory, now deleted; 'weft demo --keep'"
                + " keeps it");
      }
      err.flush();
      return ExitCodes.OK;
    } finally {
      deleteTree(work);
    }
  }

  /** {@code --out}, or {@code weft-traces/demo-<scenario>-<yyyyMMdd-HHmmss>} made unique. */
  private Path keptDirectory() {
    if (out != null) {
      return out.toAbsolutePath().normalize();
    }
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    String name = scenario.replaceAll("[^A-Za-z0-9_.-]", "_");
    Path base = Path.of("weft-traces", "demo-" + name + "-" + stamp);
    Path candidate = base;
    for (int i = 2; Files.exists(candidate); i++) {
      candidate = Path.of(base + "-" + i);
    }
    return candidate.toAbsolutePath();
  }

  /** The first line the test app printed on stderr (else stdout), for an error message. */
  private static String firstLine(Path err, Path out) {
    for (Path p : List.of(err, out)) {
      try {
        for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) {
            return line.strip();
          }
        }
      } catch (IOException e) {
        // try the other one
      }
    }
    return "it printed nothing";
  }

  private static java.io.File nullFile() {
    return new java.io.File(
        System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // A leftover temporary directory is not worth a message.
    }
  }
}
