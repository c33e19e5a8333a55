package dev.weft.testapps;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Command line of the test apps: {@code java -jar weft-testapps.jar <scenario> [--option value]...
 * [--cpu]}.
 *
 * <p>Stdout gets deterministic lines only, then the truth line as the last line: {@code
 * {"scenario":...,"params":{...},"result":...,"truth":{...}}}. Exit codes: 0 ok, 1 the scenario
 * failed, 2 bad usage (one line on stderr).
 */
public final class Main {
  /** Exit code of a successful run. */
  public static final int EXIT_OK = 0;

  /** Exit code when a scenario threw. */
  public static final int EXIT_FAILED = 1;

  /** Exit code for an unknown scenario or option, or a bad value. */
  public static final int EXIT_USAGE = 2;

  private static final String PROGRAM = "weft-testapps";

  private Main() {}

  /** Runs the command line and exits with a non-zero code on failure. */
  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    System.out.flush();
    if (code != EXIT_OK) {
      System.exit(code);
    }
  }

  /**
   * Runs the command line in the calling thread, writing to {@code out} and {@code err}.
   *
   * @return the exit code
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.println(
          PROGRAM
              + ": missing scenario; usage: "
              + PROGRAM
              + " <scenario> [options]"
              + " (see --help)");
      return EXIT_USAGE;
    }
    if (args[0].equals("--help") || args[0].equals("-h")) {
      printHelp(out, Scenarios.all());
      return EXIT_OK;
    }
    Optional<Scenario> found = Scenarios.find(args[0]);
    if (found.isEmpty()) {
      err.println(PROGRAM + ": unknown scenario '" + args[0] + "' (see --help)");
      return EXIT_USAGE;
    }
    Scenario scenario = found.get();
    List<String> rest = Arrays.asList(args).subList(1, args.length);
    if (rest.contains("--help") || rest.contains("-h")) {
      printHelp(out, List.of(scenario));
      return EXIT_OK;
    }
    Options options;
    try {
      options = Options.parse(scenario.options(), rest);
    } catch (UsageException e) {
      err.println(PROGRAM + " " + scenario.name() + ": " + e.getMessage() + " (see --help)");
      return EXIT_USAGE;
    }
    ScenarioContext context = new ScenarioContext(options, out);
    Object result;
    try {
      context.work().warmUp();
      result = scenario.run(context);
    } catch (UsageException e) {
      err.println(PROGRAM + " " + scenario.name() + ": " + e.getMessage() + " (see --help)");
      return EXIT_USAGE;
    } catch (Exception e) {
      err.println(PROGRAM + " " + scenario.name() + ": failed: " + e);
      return EXIT_FAILED;
    }
    out.println(scenario.name() + " result=" + Json.write(result));
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("scenario", scenario.name());
    line.put("params", options.asParams());
    line.put("result", result);
    line.put("truth", context.truth().report());
    out.println(Json.write(line));
    out.flush();
    return EXIT_OK;
  }

  private static void printHelp(PrintStream out, List<Scenario> scenarios) {
    out.println("usage: java -jar " + PROGRAM + ".jar <scenario> [--option value]... [--cpu]");
    out.println();
    out.println(
        "Runs a program whose wait states are known. Stdout: deterministic lines, then one");
    out.println("JSON line with the scenario's own measurements (\"truth\"). See SCENARIOS.md.");
    out.println();
    out.println("common options:");
    out.println(String.format("  --%-14s %-22s %s", "cpu", "", "spin instead of sleeping"));
    out.println(Options.SPIN_PER_MS.helpLine());
    for (Scenario scenario : scenarios) {
      out.println();
      out.println(scenario.name() + " - " + scenario.summary());
      for (OptionSpec option : scenario.options()) {
        out.println(option.helpLine());
      }
    }
  }
}
